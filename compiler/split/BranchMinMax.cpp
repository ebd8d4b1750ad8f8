//===- BranchMinMax.cpp - a minimum or maximum kept behind a branch -------===//
//
// A part of memcoro-split's legality (see SplitInternal.h,
// classifyHeaderPhis and recogniseReduction). Under -fopenmp,
//
//   #pragma omp parallel for reduction(max : mx)
//   for (...) { long v = t[ix[i]]; if (v > mx) mx = v; }
//
// keeps mx in a register and stores it to the reduction's private slot on
// the taken path only, so SimplifyCFG cannot turn the test into a select and
// InstCombine leaves no smax for the reduction recogniser:
//
//   G:  %c = icmp sgt i64 %v, %mx          ; %mx: the running maximum
//       br i1 %c, label %T, label %M
//   T:  store i64 %v, ptr %slot            ; the mirror
//       br label %M
//   M:  %mx.next = phi i64 [ %v, %T ], [ %mx, %G ]
//
// On the taken path %v is smax(%v, %mx); on the other, %mx is. Computing
// that smax in G and merging it from T (and storing it there) is a plain
// simplification, right whatever memcoro then does with the loop; it turns
// the phi into a merge of the running value with its update, which the
// recogniser accepts. The test then only decides whether the mirror store
// runs, and the lowering drops mirrors: guardsOnlyMirrors lets the
// recogniser take such a compare as part of the reduction.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumBranchMinMax, "Number of minima and maxima behind a branch computed with an intrinsic");

/// The block between \p Guard's test and \p Merge, when \p Guard branches
/// either to it or straight to \p Merge (a triangle), else null.
static BasicBlock *triangleSide(BasicBlock *Guard, BasicBlock *Merge) {
  auto *Br = dyn_cast<BranchInst>(Guard->getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  for (unsigned S = 0; S < 2; ++S)
    if (Br->getSuccessor(1 - S) == Merge) {
      BasicBlock *Side = Br->getSuccessor(S);
      if (Side != Merge && Side->getSinglePredecessor() == Guard && Side->getSingleSuccessor() == Merge)
        return Side;
    }
  return nullptr;
}

/// The min or max intrinsic that gives \p Taken where \p Guard's branch goes
/// to \p Side (storing \p Taken) and \p Kept elsewhere, if its test compares
/// the two that way; not_intrinsic otherwise.
static Intrinsic::ID minMaxOfTest(BasicBlock *Guard, BasicBlock *Side, Value *Taken, Value *Kept) {
  auto *Br = cast<BranchInst>(Guard->getTerminator());
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !Cmp->isRelational())
    return Intrinsic::not_intrinsic;
  CmpInst::Predicate P = Br->getSuccessor(0) == Side ? Cmp->getPredicate() : Cmp->getInversePredicate();
  if (Cmp->getOperand(0) == Kept && Cmp->getOperand(1) == Taken)
    P = CmpInst::getSwappedPredicate(P);
  else if (!(Cmp->getOperand(0) == Taken && Cmp->getOperand(1) == Kept))
    return Intrinsic::not_intrinsic;
  // Now: Taken replaces Kept when (Taken P Kept).
  bool KeepsLarger = ICmpInst::isGT(P) || ICmpInst::isGE(P);
  if (ICmpInst::isSigned(P))
    return KeepsLarger ? Intrinsic::smax : Intrinsic::smin;
  return KeepsLarger ? Intrinsic::umax : Intrinsic::umin;
}

bool memcoro::computeBranchMinMax(Loop &L, ScalarEvolution &SE) {
  bool Changed = false;
  for (BasicBlock *Merge : L.blocks())
    for (PHINode &Phi : Merge->phis()) {
      if (!Phi.getType()->isIntegerTy() && !Phi.getType()->isFloatingPointTy())
        continue;
      // One way in stores the value tested against what every other way
      // keeps (`if (v == key && i < first) first = i` keeps it on two).
      for (unsigned In = 0; In < Phi.getNumIncomingValues(); ++In) {
        BasicBlock *Side = Phi.getIncomingBlock(In), *Guard = Side->getSinglePredecessor();
        if (!Guard || triangleSide(Guard, Merge) != Side)
          continue;
        Value *Taken = Phi.getIncomingValue(In), *Kept = Phi.getIncomingValueForBlock(Guard);
        bool KeptElsewhere = all_of(seq(Phi.getNumIncomingValues()), [&](unsigned Other) {
          return Other == In || Phi.getIncomingValue(Other) == Kept;
        });
        if (!KeptElsewhere)
          continue;
        IRBuilder<> B(Guard->getTerminator());
        Value *MinMax = nullptr;
        if (Phi.getType()->isFloatingPointTy()) {
          // The test itself, as a select: floatMinMaxOf then says whether
          // it keeps the larger or the smaller.
          auto *Br = cast<BranchInst>(Guard->getTerminator());
          auto *Cmp = dyn_cast<FCmpInst>(Br->getCondition());
          if (!Cmp || !((Cmp->getOperand(0) == Taken && Cmp->getOperand(1) == Kept) ||
                        (Cmp->getOperand(0) == Kept && Cmp->getOperand(1) == Taken)))
            continue;
          bool TakenWhenTrue = Br->getSuccessor(0) == Side;
          MinMax = B.CreateSelect(Cmp, TakenWhenTrue ? Taken : Kept, TakenWhenTrue ? Kept : Taken,
                                  Phi.getName() + ".minmax");
        } else {
          Intrinsic::ID ID = minMaxOfTest(Guard, Side, Taken, Kept);
          if (ID == Intrinsic::not_intrinsic)
            continue;
          MinMax = B.CreateBinaryIntrinsic(ID, Taken, Kept, nullptr, Phi.getName() + ".minmax");
        }
        for (Instruction &I : *Side)
          if (auto *Store = dyn_cast<StoreInst>(&I); Store && Store->getValueOperand() == Taken)
            Store->setOperand(0, MinMax);
        Phi.setIncomingValue(In, MinMax);
        SE.forgetValue(&Phi);
        LLVM_DEBUG(dbgs() << "memcoro-split: a minimum or maximum behind a branch is" << *MinMax << "\n");
        ++NumBranchMinMax;
        Changed = true;
        break;
      }
    }
  return Changed;
}

bool memcoro::guardsOnlyMirrors(const CmpInst &Cmp, const Reduction &R,
                                function_ref<bool(const Value *)> InReduction) {
  for (const User *U : Cmp.users()) {
    auto *Br = dyn_cast<BranchInst>(U);
    if (!Br)
      continue;
    BasicBlock *Guard = const_cast<BasicBlock *>(Br->getParent());
    BasicBlock *Side = nullptr, *Merge = nullptr;
    for (unsigned S = 0; S < 2 && !Side; ++S)
      if (triangleSide(Guard, Br->getSuccessor(1 - S)) == Br->getSuccessor(S)) {
        Side = Br->getSuccessor(S);
        Merge = Br->getSuccessor(1 - S);
      }
    if (!Side)
      return false;
    // Which way the test goes must change nothing but whether a mirror is
    // stored: every value merged after it is the reduction's.
    for (const Instruction &I : *Side)
      if (!I.isTerminator() && !isa<DbgInfoIntrinsic>(I) && !is_contained(R.Mirrors, &I))
        return false;
    for (const PHINode &Phi : Merge->phis())
      if (!InReduction(&Phi))
        return false;
  }
  return true;
}

Intrinsic::ID memcoro::floatMinMaxOf(const SelectInst &Sel, function_ref<bool(const Value *)> InReduction,
                                     bool AnyOrder) {
  auto *Cmp = dyn_cast<FCmpInst>(Sel.getCondition());
  if (!Cmp || !Sel.getType()->isFloatingPointTy() || !Cmp->isRelational())
    return Intrinsic::not_intrinsic;
  const Value *True = Sel.getTrueValue(), *False = Sel.getFalseValue();
  bool TrueIsNew = !InReduction(True);
  if (TrueIsNew == !InReduction(False))
    return Intrinsic::not_intrinsic;
  const Value *New = TrueIsNew ? True : False, *Old = TrueIsNew ? False : True;
  // Now: New replaces Old when (New P Old).
  CmpInst::Predicate P = TrueIsNew ? Cmp->getPredicate() : Cmp->getInversePredicate();
  if (Cmp->getOperand(0) == Old && Cmp->getOperand(1) == New)
    P = CmpInst::getSwappedPredicate(P);
  else if (!(Cmp->getOperand(0) == New && Cmp->getOperand(1) == Old))
    return Intrinsic::not_intrinsic;
  // Which of equal zeros is kept depends on the order (a reduction clause
  // permits any); a NaN an unordered test takes poisons the rest of the
  // serial loop's tests, which maxnum, ignoring NaNs, does not reproduce.
  bool ZerosAlike = Sel.hasNoSignedZeros() || Cmp->hasNoSignedZeros();
  bool NaNsTaken = CmpInst::isUnordered(P) && !(Sel.hasNoNaNs() || Cmp->hasNoNaNs());
  if ((!AnyOrder && !ZerosAlike) || NaNsTaken)
    return Intrinsic::not_intrinsic;
  switch (P) {
  case CmpInst::FCMP_OGT:
  case CmpInst::FCMP_OGE:
  case CmpInst::FCMP_UGT:
  case CmpInst::FCMP_UGE:
    return Intrinsic::maxnum;
  case CmpInst::FCMP_OLT:
  case CmpInst::FCMP_OLE:
  case CmpInst::FCMP_ULT:
  case CmpInst::FCMP_ULE:
    return Intrinsic::minnum;
  default:
    return Intrinsic::not_intrinsic;
  }
}
