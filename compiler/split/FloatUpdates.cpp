//===- FloatUpdates.cpp - updates whose order shows in their result ------===//
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

/// A load of \p Place among \p Candidates.
static LoadInst *loadOf(ArrayRef<Value *> Candidates, const Value *Place, const DataLayout &DL) {
  for (Value *Op : Candidates)
    if (auto *Load = dyn_cast<LoadInst>(Op); Load && byteDistance(Load->getPointerOperand(), Place, DL) == 0)
      return Load;
  return nullptr;
}

/// Whether a floating-point comparison or choice may see a NaN or a signed
/// zero: then keeping the smaller (or larger) of two values depends on which
/// came first (`v < m` keeps m when v is NaN; -0.0 and +0.0 compare equal).
static bool seesNaNOrSignedZero(const Instruction *I) {
  return !(isa<FPMathOperator>(I) && I->hasNoNaNs() && I->hasNoSignedZeros());
}

/// The load of the place \p Store writes, if \p Store updates it in a way
/// whose result depends on the order the updates are applied in: an
/// addition, a subtraction from it, a multiplication, or a contracted
/// `x * y + acc`, rounded and not allowed to reassociate; or keeping the
/// smaller or larger value (`m = m > v ? m : v`, `if (v < m) m = v`,
/// fmin/fmax), which NaN and signed zeros make order-dependent.
static LoadInst *updatedLoad(StoreInst &Store, const DataLayout &DL) {
  Value *V = Store.getValueOperand();
  const Value *Place = Store.getPointerOperand();
  // `if (v < m[g]) m[g] = v`: the store's block is one side of a test of the
  // loaded value. With another write on that side (an argmin's `arg[g] =
  // i`), of any type, equal values leave the first iteration's index in
  // serial order and another's interleaved.
  if (const BasicBlock *Guard = Store.getParent()->getSinglePredecessor())
    if (auto *Br = dyn_cast<BranchInst>(Guard->getTerminator()); Br && Br->isConditional())
      if (auto *Cmp = dyn_cast<CmpInst>(Br->getCondition()); Cmp && is_contained(Cmp->operands(), V)) {
        if (writesBesideStore(Store) || (isa<FCmpInst>(Cmp) && seesNaNOrSignedZero(Cmp)))
          if (LoadInst *Load = loadOf({Cmp->getOperand(0), Cmp->getOperand(1)}, Place, DL))
            return Load;
      }
  if (!V->getType()->isFloatingPointTy())
    return nullptr;
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return nullptr;
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    auto *Cmp = dyn_cast<FCmpInst>(Sel->getCondition());
    if (Cmp && (seesNaNOrSignedZero(Cmp) || seesNaNOrSignedZero(Sel)))
      if (LoadInst *Load = loadOf({Sel->getTrueValue(), Sel->getFalseValue()}, Place, DL);
          Load && is_contained(Cmp->operands(), Load))
        return Load;
    return nullptr;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
      return II->hasAllowReassoc() ? nullptr : loadOf({II->getArgOperand(2)}, Place, DL);
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
      return seesNaNOrSignedZero(II) ? loadOf({II->getArgOperand(0), II->getArgOperand(1)}, Place, DL) : nullptr;
    default:
      return nullptr;
    }
  }
  auto *BO = dyn_cast<BinaryOperator>(I);
  if (!BO || BO->hasAllowReassoc())
    return nullptr;
  if (BO->getOpcode() == Instruction::FAdd || BO->getOpcode() == Instruction::FMul)
    return loadOf({BO->getOperand(0), BO->getOperand(1)}, Place, DL);
  if (BO->getOpcode() == Instruction::FSub)
    return loadOf({BO->getOperand(0)}, Place, DL);
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
memcoro::findOrderSensitiveUpdates(const SplitAnalyses &A, const LoopPlan &Plan) {
  SmallVector<std::pair<LoadInst *, StoreInst *>, 2> Updates;
  const Loop &L = Plan.L;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!Store || !Store->isSimple())
        continue;
      LoadInst *Load = updatedLoad(*Store, A.DL);
      if (!Load || !Load->isSimple() || !L.contains(Load) || !A.DT.dominates(Load, Store))
        continue;
      if (isIterationsOwnElement(A, L, *Load) || readsOwnRow(A, L, *Load)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: floating-point update of the iteration's own element" << *Store
                          << " needs no order\n");
        continue;
      }
      if (inPrivateAlloca(Plan, Load->getPointerOperand()))
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: floating-point update" << *Store
                        << " rounds in the order iterations apply it; run in iteration order\n");
      Updates.push_back({Load, Store});
    }
  return Updates;
}
