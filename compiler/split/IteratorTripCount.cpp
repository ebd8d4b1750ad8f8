//===- IteratorTripCount.cpp - the trip count of an iterator loop ----------===//
//
// A part of memcoro-split's legality (see SplitInternal.h, checkTripCount):
// `for (auto it = v.begin(); it != v.end(); ++it)` and a range-for over a
// container step a pointer by the element size and stop when it equals the
// end. Scalar evolution computes no trip count for such a test when the body
// has side effects (a store, a call): it cannot rule out stepping past the
// end forever. A marked loop is a canonical loop, as an OpenMP loop is: its
// `!=` test reaches the bound exactly, so the trip count is the distance
// divided by the step.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

const SCEV *memcoro::iteratorBackedgeTakenCount(ScalarEvolution &SE, const Loop &L, BasicBlock *Latch) {
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || !Cmp->isEquality())
    return nullptr;
  // The loop leaves when the two sides are equal.
  bool ExitOnTrue = !L.contains(Br->getSuccessor(0));
  if (ExitOnTrue != (Cmp->getPredicate() == ICmpInst::ICMP_EQ))
    return nullptr;
  const SCEV *X = SE.getSCEV(Cmp->getOperand(0)), *Y = SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(X))
    std::swap(X, Y);
  auto *Step = dyn_cast<SCEVAddRecExpr>(X);
  if (!Step || Step->getLoop() != &L || !Step->isAffine() || !SE.isLoopInvariant(Y, &L))
    return nullptr;
  auto *Stride = dyn_cast<SCEVConstant>(Step->getStepRecurrence(SE));
  if (!Stride || !Stride->getAPInt().isStrictlyPositive())
    return nullptr;
  auto asInt = [&](const SCEV *S) {
    return S->getType()->isPointerTy() ? SE.getPtrToIntExpr(S, SE.getEffectiveSCEVType(S->getType())) : S;
  };
  const SCEV *Start = asInt(Step->getStart()), *End = asInt(Y);
  if (isa<SCEVCouldNotCompute>(Start) || isa<SCEVCouldNotCompute>(End) || Start->getType() != End->getType())
    return nullptr;
  // X is the value compared in the first iteration: Start; the loop runs
  // until Start + k * Stride == End, k = its back edges.
  const SCEV *Stride64 = SE.getTruncateOrZeroExtend(Stride, Start->getType());
  const SCEV *Count = SE.getUDivExactExpr(SE.getMinusSCEV(End, Start), Stride64);
  LLVM_DEBUG(dbgs() << "memcoro-split: iterator loop " << L.getHeader()->getName() << " runs " << *Count
                    << " more times, as a canonical loop's != test reaches its bound\n");
  return Count;
}
