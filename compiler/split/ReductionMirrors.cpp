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
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

bool memcoro::conditionalMirrorKeepsTotal(const SplitAnalyses &A, const Loop &L, const Reduction &R) {
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  auto *Slot = dyn_cast_or_null<AllocaInst>(R.MirrorPlace);
  if (!Preheader || !Latch || !Slot || R.Mirrors.size() != 1)
    return false;
  StoreInst *Mirror = R.Mirrors.front();
  // Each way into the latch: the total unchanged, or the value just stored.
  auto *Merge = dyn_cast<PHINode>(R.LatchValue);
  if (!Merge || !L.contains(Merge))
    return false;
  for (unsigned In = 0; In < Merge->getNumIncomingValues(); ++In) {
    Value *V = Merge->getIncomingValue(In);
    if (V != R.Phi && !(V == Mirror->getValueOperand() &&
                        A.DT.dominates(Mirror->getParent(), Merge->getIncomingBlock(In))))
      return false;
  }
  // The slot holds the entering total: stored before the loop, and no other
  // write of it (nor a use that hands its address on) may run before the
  // loop or inside it.
  Value *Entering = R.Phi->getIncomingValueForBlock(Preheader);
  bool Initialised = false;
  for (User *U : Slot->users()) {
    auto *I = dyn_cast<Instruction>(U);
    if (!I)
      return false;
    if (I == Mirror || isa<LoadInst>(I) || I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I))
      continue;
    if (auto *Init = dyn_cast<StoreInst>(I); Init && Init->getPointerOperand() == Slot &&
                                            Init->getValueOperand() == Entering && !L.contains(Init) &&
                                            A.DT.dominates(Init, Preheader->getTerminator())) {
      Initialised = true;
      continue;
    }
    if (isPotentiallyReachable(I, &L.getHeader()->front(), nullptr, &A.DT, &A.LI)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the total's slot may be written before the loop by" << *I << "\n");
      return false;
    }
  }
  return Initialised;
}
