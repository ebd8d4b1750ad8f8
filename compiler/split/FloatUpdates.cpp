//===- FloatUpdates.cpp - floating-point updates whose order shows --------===//
//
// A step of memcoro-split (see SplitInternal.h), for SplitOrdered.cpp's
// planner. An integer update of a shared element (`hist[key[i]] += w`)
// commutes: whichever order the iterations apply theirs in, the element ends
// with the serial loop's value, so memcoro interleaves it as a reduction into
// memory. A floating-point one does not: every addition rounds, and
//
//   for (i...) for (p = heads[idx[i]]; p; p = p->next) acc[p->key] += p->w;
//
// interleaved adds the weights into acc[k] in the order the iterations
// reach it, and the sums differ from the serial loop's in their last bits
// (from run to run too, as the order follows the misses). Clang lets an
// update reassociate only under -ffast-math (-fassociative-math) or an
// OpenMP reduction clause; without it, the loop's answer is its order.
//
// So such an update runs in iteration order, as a first-writer-wins test
// does: from its load, the iteration holds the turn (ring dispatch), and
// lockstep and pipeline dispatch, where one phase runs in slot order, add
// nothing when the load and the store lie in one phase. An element the
// iteration owns needs no order: one per iteration (affine in the counter),
// or one of a row no other iteration's row overlaps (PyTorch's EmbeddingBag,
// `out = output + b * ddim; for (d < ddim) out[d] += row[d]`: the inner
// loop's reach, ddim elements, is no more than the row's stride).
//
//===----------------------------------------------------------------------===//
#include "split/FloatUpdates.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

/// The operand of \p V that is a load of \p Place, if \p V updates it in a
/// way whose result depends on the order the updates are applied in: an
/// addition, a subtraction from it, a multiplication, or a contracted
/// `x * y + acc`, rounded and not allowed to reassociate.
static LoadInst *updatedLoad(Value *V, const Value *Place, const DataLayout &DL) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !isa<FPMathOperator>(I) || I->hasAllowReassoc())
    return nullptr;
  SmallVector<Value *, 2> Updated;
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    if (BO->getOpcode() == Instruction::FAdd || BO->getOpcode() == Instruction::FMul)
      Updated = {BO->getOperand(0), BO->getOperand(1)};
    else if (BO->getOpcode() == Instruction::FSub)
      Updated = {BO->getOperand(0)};
  } else if (auto *II = dyn_cast<IntrinsicInst>(I);
             II && (II->getIntrinsicID() == Intrinsic::fmuladd || II->getIntrinsicID() == Intrinsic::fma)) {
    Updated = {II->getArgOperand(2)};
  }
  for (Value *Op : Updated)
    if (auto *Load = dyn_cast<LoadInst>(Op); Load && byteDistance(Load->getPointerOperand(), Place, DL) == 0)
      return Load;
  return nullptr;
}

/// Whether the bytes \p Load reads in one iteration of \p L, over all trips
/// of the inner loops it lies in, lie below where the next iteration's
/// begin: its address steps through inner loops of known trip counts by
/// non-negative amounts, from a start that moves forward by at least their
/// reach (plus the element) on each trip of \p L.
static bool readsOwnRow(const SplitAnalyses &A, const Loop &L, const LoadInst &Load) {
  ScalarEvolution &SE = A.SE;
  const SCEV *Address = SE.getSCEV(const_cast<Value *>(Load.getPointerOperand()));
  const SCEV *Reach = SE.getConstant(APInt(A.DL.getIndexTypeSizeInBits(Load.getPointerOperandType()),
                                           A.DL.getTypeStoreSize(Load.getType()).getFixedValue()));
  while (auto *AR = dyn_cast<SCEVAddRecExpr>(Address)) {
    const SCEV *Step = AR->getStepRecurrence(SE);
    if (!AR->isAffine() || Step->getType() != Reach->getType())
      return false;
    // The next row starts at least the reach further on (a size_t stride
    // whose sign SCEV cannot tell still is the reach itself).
    if (AR->getLoop() == &L)
      return SE.isKnownPredicate(ICmpInst::ICMP_SLE, Reach, Step);
    const SCEV *Trips = SE.getBackedgeTakenCount(AR->getLoop());
    if (!L.contains(AR->getLoop()) || isa<SCEVCouldNotCompute>(Trips) || !SE.isKnownNonNegative(Step))
      return false;
    Reach = SE.getAddExpr(Reach, SE.getMulExpr(Step, SE.getTruncateOrZeroExtend(Trips, Step->getType())));
    Address = AR->getStart();
  }
  return false;
}

SmallVector<std::pair<LoadInst *, StoreInst *>, 2>
memcoro::findOrderSensitiveFloatUpdates(const SplitAnalyses &A, const LoopPlan &Plan) {
  SmallVector<std::pair<LoadInst *, StoreInst *>, 2> Updates;
  const Loop &L = Plan.L;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!Store || !Store->isSimple())
        continue;
      LoadInst *Load = updatedLoad(Store->getValueOperand(), Store->getPointerOperand(), A.DL);
      if (!Load || !Load->isSimple() || !L.contains(Load) || !A.DT.dominates(Load, Store))
        continue;
      if (isIterationsOwnElement(A, L, *Load) || readsOwnRow(A, L, *Load)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: floating-point update of the iteration's own element" << *Store
                          << " needs no order\n");
        continue;
      }
      if (is_contained(Plan.PrivateAllocas, getUnderlyingObject(Load->getPointerOperand())))
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: floating-point update" << *Store
                        << " rounds in the order iterations apply it; run in iteration order\n");
      Updates.push_back({Load, Store});
    }
  return Updates;
}
