//===- ReloadedBound.cpp - a bound GVN re-reads after a write ---------------===//
//
// A part of memcoro-split's legality (see SplitInternal.h, checkTripCount).
// When only some paths of the body may write the bound's memory, GVN reads
// the bound again there and carries it through phis:
//
//   for (u = 0; u < g.num_nodes(); u++) { ... cmpxchg ... }    GAP Afforest
//   an OpenMP chunk's upper bound, widened for a 64-bit counter, likewise
//   an OpenMP static chunk's bound, clamped and stored back before the loop
//
// The exit test then has no trip count. boundEnteringLoop gives the value
// the phis enter the loop with: the bound evaluated once, before the loop,
// as OpenMP evaluates a canonical loop's bound (SplitLegality::evaluateBoundOnce
// redirects the test, and SplitLegality::revert undoes it for a loop that
// stays serial). The phis left without a use are skipped by legality and
// dropped by the lowering (dropDeadPhiWebs).
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

/// Whether \p U computes only what nothing reads: the exit test's old bound
/// (a cast, or `sq.shared + sq.shared_out_end`) once the test reads its copy.
static bool computesNothingRead(const User *U, unsigned Depth = 0) {
  auto *I = dyn_cast<Instruction>(U);
  // A branch reads its condition: an inner loop's guard on `p < end[u]`,
  // whose base a reload carries, is no dead computation.
  if (!I || isa<PHINode>(I) || I->isTerminator() || I->mayHaveSideEffects() || Depth > 4)
    return false;
  return all_of(I->users(), [&](const User *V) { return computesNothingRead(V, Depth + 1); });
}

bool memcoro::isDeadPhiWeb(const Loop &L, PHINode *Phi) {
  SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
  return all_of(Web, [&](PHINode *P) {
    return all_of(P->users(), [&](User *U) {
      auto *UP = dyn_cast<PHINode>(U);
      return (UP && is_contained(Web, UP)) || computesNothingRead(U);
    });
  });
}

void memcoro::dropDeadPhiWebs(Loop &L) {
  SmallVector<PHINode *, 4> Dead;
  for (PHINode &Phi : L.getHeader()->phis())
    if (isDeadPhiWeb(L, &Phi))
      for (PHINode *P : phiWeb(L, &Phi))
        if (!is_contained(Dead, P))
          Dead.push_back(P);
  for (PHINode *P : Dead)
    P->replaceAllUsesWith(PoisonValue::get(P->getType()));
  for (PHINode *P : Dead)
    P->eraseFromParent();
}

/// Whether \p V is what \p Place holds where the loop is entered: the last
/// write before the loop on its only way in stored it there. An OpenMP
/// static chunk's upper bound is clamped to the last iteration and stored
/// back (`ub = min(ub, n - 1)`) before the chunk loop, and GVN forwards the
/// stored value into the loop rather than a load of it.
static bool storedLastBeforeLoop(const Loop &L, Value *V, Value *Place, const DataLayout &DL) {
  for (BasicBlock *BB = L.getLoopPreheader(); BB; BB = BB->getSinglePredecessor())
    for (Instruction &I : reverse(*BB)) {
      if (I.isLifetimeStartOrEnd() || I.isDebugOrPseudoInst())
        continue;
      if (auto *Store = dyn_cast<StoreInst>(&I); Store && byteDistance(Place, Store->getPointerOperand(), DL) == 0)
        return Store->isSimple() && Store->getValueOperand() == V;
      if (I.mayWriteToMemory()) {
        LLVM_DEBUG(dbgs() << "memcoro-split: the bound's place may be written before the loop by" << I << "\n");
        return false;
      }
    }
  return false;
}

Value *memcoro::boundEnteringLoop(const Loop &L, Value *Bound, const DataLayout &DL, LoadInst **Reload) {
  auto *Phi = dyn_cast<PHINode>(Bound);
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Phi || !L.contains(Phi) || !Preheader)
    return nullptr;
  SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
  Value *Place = nullptr, *Entering = nullptr;
  for (PHINode *P : Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
      Value *V = P->getIncomingValue(In);
      if (auto *VP = dyn_cast<PHINode>(V); VP && is_contained(Web, VP))
        continue;
      if (P->getParent() == L.getHeader() && P->getIncomingBlock(In) == Preheader) {
        if (Entering && Entering != V)
          return nullptr;
        Entering = V;
        continue;
      }
      auto *Load = dyn_cast<LoadInst>(V);
      if (!Load || !Load->isSimple() || !L.contains(Load) || !L.isLoopInvariant(Load->getPointerOperand()) ||
          (Place && byteDistance(Place, Load->getPointerOperand(), DL) != 0))
        return nullptr;
      Place = Load->getPointerOperand();
      if (Reload)
        *Reload = Load;
    }
  if (!Place || !Entering)
    return nullptr;
  // What enters is the place's value there: a load of it, what was stored
  // there last, or the same web's value leaving an earlier copy of the loop
  // (an unrolled enclosing loop).
  auto *EnteringLoad = dyn_cast<LoadInst>(Entering);
  if (!isa<PHINode>(Entering) && !(EnteringLoad && byteDistance(Place, EnteringLoad->getPointerOperand(), DL) == 0) &&
      !storedLastBeforeLoop(L, Entering, Place, DL))
    return nullptr;
  LLVM_DEBUG(dbgs() << "memcoro-split: the bound" << *Bound << " is reloaded in the loop; taken as it enters it:"
                    << *Entering << "\n");
  return Entering;
}
