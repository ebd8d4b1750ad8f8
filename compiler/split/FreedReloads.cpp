//===- FreedReloads.cpp - values GVN re-reads only after a deallocation ----===//
//
// A step of memcoro-split before legality (see SplitInternal.h), shared by
// the pass and its printer. A std::vector local to the loop's function and
// filled by push_back frees its old storage when it grows (operator delete,
// inlined from _M_realloc_insert, or that call itself left out of line). Alias analysis does not know that the
// deallocation writes nothing the program can read, so GVN reads everything
// the loop reads through memory again after it and carries the old and new
// values through header phis:
//
//   for (i = 0; i < ix.size(); ++i)     ix.begin and ix.end: header phis,
//     if (pred(a[ix[i]]))               reloaded on the growth path, after
//       out.push_back(i);               operator delete(old storage)
//
// The loop then has no trip count (its bound is a phi) and its body reads a
// carried value (ix's data pointer). When every instruction of the loop that
// may write the place such a web re-reads is a deallocation, the place holds
// what it held when the loop was entered, and every value of the web is the
// one it enters the loop with (ReloadedBound.cpp's boundEnteringLoop): the
// web is replaced by it. That is the value the serial loop reads, so the
// rewrite stands whether or not the loop is interleaved. A store alias
// analysis cannot tell from the place (a std::pair element stored as one
// i64, untagged), or a call (_M_realloc_insert left out of line), is excused
// when it follows every read of the web in its iteration: what it wrote
// would be read by a later iteration only, which the pragma promises does
// not happen (as CarriedLoad.cpp assumes). The exit test's reads do not
// count: its bound is evaluated once, before the loop, as OpenMP does.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumFreedReloads, "Number of values re-read only after a deallocation taken as they enter the loop");

/// Whether \p I writes through the place \p Place itself: a store to it, or a
/// call given a pointer to it or to the start of the stack slot or global
/// that holds it.
static bool writesThePlace(const Instruction &I, const Value *Place, const DataLayout &DL) {
  const Value *Object = getUnderlyingObject(Place);
  bool OwnObject = isa<AllocaInst>(Object) || isa<GlobalVariable>(Object);
  auto isPlace = [&](const Value *Ptr) {
    return byteDistance(Ptr, Place, DL) == 0 || (OwnObject && getUnderlyingObject(Ptr) == Object);
  };
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return isPlace(Store->getPointerOperand());
  if (auto *Call = dyn_cast<CallBase>(&I))
    return any_of(Call->args(), [&](const Use &Arg) { return Arg->getType()->isPointerTy() && isPlace(Arg.get()); });
  return false;
}

/// Whether every instruction of \p L that may write \p Loc only frees memory,
/// or runs after every use of \p Web's values in its iteration: a store that
/// alias analysis cannot tell from the place (an element of the vector,
/// stored as a plain i64) would otherwise be read by the next iteration,
/// a dependence the pragma's promise rules out.
static bool onlyFreedIn(const Loop &L, const MemoryLocation &Loc, ArrayRef<PHINode *> Web, AAResults &AA,
                        const TargetLibraryInfo &TLI) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  // The exit test's bound is evaluated once, before the loop, as OpenMP
  // evaluates it (SplitLegality::evaluateBoundOnce): what only computes it
  // is no read of the place in the body.
  BasicBlock *Latch = L.getLoopLatch();
  std::function<bool(Instruction *, unsigned)> onlyBound = [&](Instruction *I, unsigned Depth) {
    if (Depth > 6 || I->mayHaveSideEffects() || isa<PHINode>(I) || I->use_empty())
      return false;
    return all_of(I->users(), [&](User *U) {
      auto *UI = dyn_cast<Instruction>(U);
      return UI && ((Latch && UI == Latch->getTerminator()) || onlyBound(UI, Depth + 1));
    });
  };
  SmallVector<Instruction *, 8> Uses;
  bool UsedAfter = false;
  for (PHINode *P : Web)
    for (User *U : P->users())
      if (auto *UI = dyn_cast<Instruction>(U); UI && !L.contains(UI))
        UsedAfter = true;
      else if (UI && !is_contained(Web, UI) && !onlyBound(UI, 0))
        Uses.push_back(UI);
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!I.mayWriteToMemory() || !isModSet(AA.getModRefInfo(&I, Loc)))
        continue;
      auto *Call = dyn_cast<CallBase>(&I);
      if (Call && getFreedOperand(Call, &TLI))
        continue;
      // A write given the place itself is the loop's own step through memory
      // (`while (i < n) { ...; inc(&i); }`, an iterator advanced out of
      // line): the next iteration reads it by design, and no promise covers
      // it. So is one given the start of the local or global object holding
      // it (`adv(&it)` for a chunked iterator's position).
      if (writesThePlace(I, Loc.Ptr, DL)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: a reloaded place is the loop's own step, written by" << I << "\n");
        return false;
      }
      // A store or a call (a vector's _M_realloc_insert, not inlined) after
      // every read: on the pragma's word, no later iteration reads what it
      // wrote. The code after the loop may read it: then the web's last
      // value is what the place holds there, not the entering one.
      if (!UsedAfter && none_of(Uses, [&](Instruction *U) { return reachesInIteration(L, &I, U, nullptr); }))
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: a reloaded place may be written by" << I << "\n");
      return false;
    }
  return true;
}

bool memcoro::forwardReloadsAcrossFrees(Loop &L, AAResults &AA, const TargetLibraryInfo &TLI) {
  if (!L.getLoopPreheader())
    return false;
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  // A vector's growth is what this is about: a deallocation, or the call
  // that grows it when that is not inlined. Without a call that may write
  // memory, GVN had its reasons.
  bool Grows = any_of(L.blocks(), [&](BasicBlock *BB) {
    return any_of(*BB, [&](Instruction &I) {
      auto *Call = dyn_cast<CallBase>(&I);
      return Call && !isa<IntrinsicInst>(Call) && Call->mayWriteToMemory();
    });
  });
  if (!Grows)
    return false;
  bool Changed = false;
  SmallVector<PHINode *, 8> Phis;
  for (PHINode &Phi : L.getHeader()->phis())
    Phis.push_back(&Phi);
  SmallPtrSet<PHINode *, 8> Erased;
  for (PHINode *Phi : Phis) {
    if (Erased.contains(Phi))
      continue;
    LoadInst *Reload = nullptr;
    Value *Entering = boundEnteringLoop(L, Phi, DL, &Reload);
    if (!Entering || !Reload)
      continue;
    SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
    if (!onlyFreedIn(L, MemoryLocation::get(Reload), Web, AA, TLI))
      continue;
    LLVM_DEBUG(dbgs() << "memcoro-split:" << *Phi << " is re-read only after a deallocation; taken as"
                      << *Entering << "\n");
    for (PHINode *P : Web)
      P->replaceAllUsesWith(Entering);
    for (PHINode *P : Web) {
      Erased.insert(P);
      P->eraseFromParent();
    }
    ++NumFreedReloads;
    Changed = true;
  }
  return Changed;
}
