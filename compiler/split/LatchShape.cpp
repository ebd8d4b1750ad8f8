//===- LatchShape.cpp - the count tested at the latch, as the plan reads it -===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan, which reads the loop's trip count off its latch's
// exit. Two shapes the optimiser leaves hide a count that is there:
//
// * The next counter merged from equal computations. A guarded inner loop
//   that may break (Luby's MIS: `if (state[v] == 0) for (...) if (...) break;`)
//   reaches the latch along several paths, and each computes `v + 1` on its
//   own; GVN does not merge adds of different blocks, so the counter's next
//   value is a phi of them, which scalar evolution does not see through ("the
//   number of iterations cannot be computed"). One add after the phis takes
//   their place.
//
// * A latch after the exiting block. GVN's load PRE puts a reload of the
//   bound on the back edge, in a block of its own (`walk_len`, shared by an
//   OpenMP region and reloaded after each of the body's stores, at -O3): the
//   exiting block is no latch, and the plan read its exit as an early exit,
//   taken after a store. When the latch's instructions may run on any
//   iteration (LLVM proves them safe to speculate), they move into the
//   exiting block, which becomes the latch.
//
// Both are plain simplifications, right whatever memcoro then does.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumEqualComputationsMerged, "Number of phis of equal computations replaced by one computation");
STATISTIC(NumLatchesFolded, "Number of latches after the exiting block folded into it");

/// Replaces each phi of the loop whose incoming values are all the same
/// computation (same operation, same operands, none touching memory) on
/// operands available at the phi by one such computation after the phis.
static bool mergeEqualComputations(Loop &L, DominatorTree &DT) {
  bool Changed = false;
  for (BasicBlock *BB : L.blocks())
    for (PHINode &Phi : make_early_inc_range(BB->phis())) {
      if (Phi.getNumIncomingValues() < 2)
        continue;
      auto *First = dyn_cast<Instruction>(Phi.getIncomingValue(0));
      if (!First || isa<PHINode>(First) || First->mayReadOrWriteMemory() || First->mayHaveSideEffects() ||
          First->isTerminator())
        continue;
      bool AllEqual = all_of(Phi.incoming_values(), [&](Value *V) {
        auto *I = dyn_cast<Instruction>(V);
        return I && (I == First || I->isIdenticalTo(First));
      });
      // All incoming values one instruction: nothing to merge.
      bool OneInstruction = all_of(Phi.incoming_values(), [&](Value *V) { return V == First; });
      bool OperandsAvailable = all_of(First->operands(), [&](Value *Op) {
        auto *OpI = dyn_cast<Instruction>(Op);
        return !OpI || DT.dominates(OpI, BB);
      });
      if (!AllEqual || OneInstruction || !OperandsAvailable)
        continue;
      Instruction *Merged = First->clone();
      Merged->insertBefore(BB->getFirstInsertionPt());
      Merged->takeName(&Phi);
      Merged->setDebugLoc(First->getDebugLoc());
      Phi.replaceAllUsesWith(Merged);
      Phi.eraseFromParent();
      LLVM_DEBUG(dbgs() << "memcoro-split: a phi of equal computations is" << *Merged << "\n");
      ++NumEqualComputationsMerged;
      Changed = true;
    }
  return Changed;
}

/// Folds a latch whose single predecessor exits the loop into it, when the
/// latch computes only what is safe to compute on every iteration.
static bool foldLatchIntoExitingBlock(Loop &L, LoopInfo &LI, DominatorTree &DT, AssumptionCache &AC) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Header = L.getHeader();
  if (!Latch || Latch == Header || L.isLoopExiting(Latch))
    return false;
  BasicBlock *Exiting = Latch->getSinglePredecessor();
  if (!Exiting || !L.isLoopExiting(Exiting) || LI.getLoopFor(Exiting) != &L)
    return false;
  auto *Branch = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Branch || !Branch->isConditional())
    return false;
  Instruction *At = Branch;
  for (Instruction &I : *Latch) {
    if (isa<PHINode>(I) || I.isTerminator() || I.isDebugOrPseudoInst())
      continue;
    if (!isSafeToSpeculativelyExecute(&I, At, &AC, &DT)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the latch after the exiting block computes what may not be speculated:"
                        << I << "\n");
      return false;
    }
  }
  MDNode *LoopId = L.getLoopID();
  FoldSingleEntryPHINodes(Latch);
  for (Instruction &I : make_early_inc_range(*Latch)) {
    if (I.isTerminator())
      break;
    I.dropUBImplyingAttrsAndMetadata();
    I.moveBefore(Branch);
  }
  for (PHINode &Phi : Header->phis())
    Phi.replaceIncomingBlockWith(Latch, Exiting);
  for (unsigned S = 0; S < Branch->getNumSuccessors(); ++S)
    if (Branch->getSuccessor(S) == Latch)
      Branch->setSuccessor(S, Header);
  // The latch's edge to the header is gone from the header's phis already.
  Latch->getTerminator()->eraseFromParent();
  new UnreachableInst(Latch->getContext(), Latch);
  DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
  DTU.applyUpdates({{DominatorTree::Insert, Exiting, Header},
                    {DominatorTree::Delete, Exiting, Latch},
                    {DominatorTree::Delete, Latch, Header}});
  LI.removeBlock(Latch);
  DeleteDeadBlock(Latch, &DTU);
  if (LoopId)
    L.setLoopID(LoopId);
  LLVM_DEBUG(dbgs() << "memcoro-split: the latch after the exiting block folded into it\n");
  ++NumLatchesFolded;
  return true;
}

bool memcoro::shapeLatch(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC) {
  bool Changed = mergeEqualComputations(L, DT);
  Changed |= foldLatchIntoExitingBlock(L, LI, DT, AC);
  if (Changed)
    SE.forgetLoop(&L);
  return Changed;
}
