//===- ReductionMirrors.cpp - a running total stored on some paths only ----===//
//
// A part of memcoro-split's legality (see SplitInternal.h, recogniseReduction).
// An OpenMP reduction's private copy lives in a stack slot whose address the
// runtime is handed after the loop; LICM keeps the total in a register but
// cannot drop the store where it is conditional:
//
//   #pragma omp parallel for reduction(+ : hits, sum)
//   for (...) if (const Node *n = tree.find(q[i])) { hits++; sum += n->value; }
//
// stores hits + 1 to the slot on the hit path only. The store mirrors the
// total as well as a store in every iteration does when the slot holds the
// total wherever the loop is: it holds the entering total when the loop
// starts (stored there, and nothing else can write the slot before the loop),
// and each path through an iteration either leaves the total alone or stores
// its new value. Then the lowering's one store of the total after the loop
// leaves the slot as the serial loop leaves it.
//
// A counter in a global or a member is the same shape once GVN has carried
// it in a register: `if (keys[h] == q) g_hits++;` reads g_hits before the
// loop and stores it where it counts; a member counter reset before the
// loop (`hits = 0;`) enters as the value stored. The place holds the
// entering total when that read, or that store, gives the value entering
// the loop and nothing on the way from it to the loop may write the place; inside the loop only the mirror may
// write it, and no call may read it (a call in place would see the total
// before the loop's end). A load of the loop that may read it is the
// contract's (iterations do not depend on each other through memory).
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

/// Whether the slot holds \p V at the end of \p In, inside the loop: \p V
/// is the total the iteration entered with and no store of it can have run
/// since the header, or the value just stored, or an inner loop's phi of such
/// values (a phi cycle is taken as given while its incoming values are checked).
static bool heldInLoop(const SplitAnalyses &A, const Loop &L, const Reduction &R, Value *V, BasicBlock *In,
                       SmallPtrSetImpl<PHINode *> &Assumed) {
  StoreInst *Mirror = R.Mirrors.front();
  if (V == R.Phi) {
    SmallPtrSet<BasicBlock *, 1> Header = {L.getHeader()};
    return In == L.getHeader() || !isPotentiallyReachable(Mirror->getParent(), In, &Header, &A.DT);
  }
  if (V == Mirror->getValueOperand())
    return A.DT.dominates(Mirror->getParent(), In);
  auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi || !L.contains(Phi) || Phi->getParent() == L.getHeader())
    return false;
  if (!Assumed.insert(Phi).second)
    return true;
  for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
    if (!heldInLoop(A, L, R, Phi->getIncomingValue(I), Phi->getIncomingBlock(I), Assumed))
      return false;
  return true;
}

/// Whether the slot holds \p V when the loop is entered: the value \p Init
/// stored before any run of the loop, the total a previous run of the loop
/// left (an OpenMP chunk loop carries it from chunk to chunk), or a phi of such
/// values.
static bool heldOnEntry(const SplitAnalyses &A, const Loop &L, const Reduction &R, const StoreInst *Init, Value *V,
                        BasicBlock *In, SmallPtrSetImpl<PHINode *> &Assumed) {
  // What a run of the loop left, unless the store before the loop can run
  // again after it.
  if (V == R.LatchValue)
    return !Init || !isPotentiallyReachable(L.getHeader(), Init->getParent(), nullptr, &A.DT);
  // Straight into the loop, or from where no run of the loop can have been.
  if (Init && V == Init->getValueOperand() && A.DT.dominates(Init, In->getTerminator()) &&
      (In == L.getLoopPreheader() || !isPotentiallyReachable(L.getHeader(), In, nullptr, &A.DT)))
    return true;
  auto *Phi = dyn_cast<PHINode>(V);
  if (!Phi || L.contains(Phi))
    return false;
  if (!Assumed.insert(Phi).second)
    return true;
  for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
    if (!heldOnEntry(A, L, R, Init, Phi->getIncomingValue(I), Phi->getIncomingBlock(I), Assumed))
      return false;
  return true;
}

/// Whether the place of \p R, not a stack slot, holds the total the loop
/// starts with, and only the mirror touches it in the loop (see the banner).
static bool placeHoldsTotal(const SplitAnalyses &A, const Loop &L, const Reduction &R) {
  BasicBlock *Preheader = L.getLoopPreheader();
  StoreInst *Mirror = R.Mirrors.front();
  MemoryLocation Place = MemoryLocation::get(Mirror);
  // The total enters as a read of its place, or as the value a store put
  // there before the loop (`hits = 0;` before a member's count: GVN
  // forwards the 0).
  Value *EnteringValue = R.Phi->getIncomingValueForBlock(Preheader);
  Instruction *Entering = nullptr;
  if (auto *Load = dyn_cast<LoadInst>(EnteringValue);
      Load && Load->isSimple() && byteDistance(Load->getPointerOperand(), Mirror->getPointerOperand(), A.DL) == 0)
    Entering = Load;
  if (!Entering)
    for (User *U : Mirror->getPointerOperand()->users())
      if (auto *Store = dyn_cast<StoreInst>(U); Store && Store != Mirror && Store->isSimple() &&
                                                Store->getValueOperand() == EnteringValue &&
                                                Store->getPointerOperand() == Mirror->getPointerOperand()) {
        Entering = Store;
        break;
      }
  if (!Entering || L.contains(Entering) || !A.DT.dominates(Entering, Preheader->getTerminator())) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the total does not enter the loop as a read of its place, nor as what "
                         "a store put there\n");
    return false;
  }
  auto writes = [&](Instruction &I) { return I.mayWriteToMemory() && isModSet(A.AA.getModRefInfo(&I, Place)); };
  // From the read to the loop: the rest of its block, then every block on a
  // way from there to the preheader.
  for (Instruction *I = Entering->getNextNode(); I; I = I->getNextNode())
    if (writes(*I))
      return false;
  SmallPtrSet<BasicBlock *, 1> Header = {L.getHeader()};
  SmallVector<BasicBlock *, 8> Work(successors(Entering->getParent()));
  SmallPtrSet<BasicBlock *, 8> Seen;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == L.getHeader() || !Seen.insert(BB).second ||
        !isPotentiallyReachable(BB, Preheader, &Header, &A.DT, &A.LI))
      continue;
    if (BB == Entering->getParent() || any_of(*BB, writes)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the total's place may be written between its read and the loop\n");
      return false;
    }
    append_range(Work, successors(BB));
  }
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (&I != Mirror && (writes(I) || (isa<CallBase>(I) && isRefSet(A.AA.getModRefInfo(&I, Place))))) {
        LLVM_DEBUG(dbgs() << "memcoro-split: the total's place is touched in the loop by" << I << "\n");
        return false;
      }
  return true;
}

bool memcoro::conditionalMirrorKeepsTotal(const SplitAnalyses &A, const Loop &L, const Reduction &R) {
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  auto *Slot = dyn_cast_or_null<AllocaInst>(R.MirrorPlace);
  // One way out, through the latch: the total a run leaves is LatchValue.
  // Edges that end the program (a copied callee's landing pad that calls
  // std::terminate) leave no total behind.
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  auto endsProgram = [&](BasicBlock *BB) {
    return all_of(successors(BB), [&](BasicBlock *S) { return L.contains(S) || blockEndsProgram(S); });
  };
  if (!Preheader || !Latch || !R.MirrorPlace || R.Mirrors.size() != 1 || !is_contained(Exiting, Latch) ||
      !all_of(Exiting, [&](BasicBlock *BB) { return BB == Latch || endsProgram(BB); }))
    return false;
  StoreInst *Mirror = R.Mirrors.front();
  // Each way into the latch: the total unchanged, or the value just stored,
  // possibly through an inner loop's phis.
  auto *Merge = dyn_cast<PHINode>(R.LatchValue);
  if (!Merge || !L.contains(Merge))
    return false;
  SmallPtrSet<PHINode *, 8> InLoop;
  for (unsigned In = 0; In < Merge->getNumIncomingValues(); ++In)
    if (!heldInLoop(A, L, R, Merge->getIncomingValue(In), Merge->getIncomingBlock(In), InLoop))
      return false;
  if (!Slot)
    return placeHoldsTotal(A, L, R);
  // The slot holds the entering total: no write of it (nor a use that hands
  // its address on) may run before the loop or inside it but the mirror and
  // one store that dominates the loop.
  StoreInst *Init = nullptr;
  for (User *U : Slot->users()) {
    auto *I = dyn_cast<Instruction>(U);
    if (!I)
      return false;
    if (I == Mirror || isa<LoadInst>(I) || I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I))
      continue;
    if (auto *Store = dyn_cast<StoreInst>(I); Store && Store->getPointerOperand() == Slot && !Init &&
                                             !L.contains(Store) && A.DT.dominates(Store, Preheader->getTerminator())) {
      Init = Store;
      continue;
    }
    if (isPotentiallyReachable(I, &L.getHeader()->front(), nullptr, &A.DT, &A.LI)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the total's slot may be written before the loop by" << *I << "\n");
      return false;
    }
  }
  SmallPtrSet<PHINode *, 8> OnEntry;
  if (!heldOnEntry(A, L, R, Init, R.Phi->getIncomingValueForBlock(Preheader), Preheader, OnEntry)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the total's slot may not hold the total the loop starts with\n");
    return false;
  }
  return true;
}
