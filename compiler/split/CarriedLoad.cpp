//===- CarriedLoad.cpp - a load carried to the next iteration, read again -===//
//
// A step of memcoro-split (see SplitInternal.h). In a CSR loop
//
//   for (u = 0; u < n; u++)
//     for (e = off[u]; e < off[u + 1]; e++) ...
//
// LLVM reads off[u + 1] once per iteration and hands it to the next one as
// its off[u]: a header phi whose latch value is that load and whose entry
// value is off[start]. Iterations that run interleaved cannot hand values
// to each other, and legality would keep the loop serial ("a value is
// carried from one iteration to the next"). The value is a load from an
// address affine in the loop's counter, so iteration k reads it again for
// itself, at its start, from where iteration k - 1 read it:
//
//   %prev = phi [ %off.start, %preheader ], [ %off.next, %latch ]
//     becomes, in the header,
//   %prev = load off[u]     ; the latch load's address, one step back
//
// That is the load the source wrote. LLVM forwarded it because nothing in
// the serial loop writes the location between the two reads; the other
// iterations that now run in between do not write what this one reads (the
// pragma's contract), and the loop writes no store to the same object at
// all (alias analysis; two arguments may point into one array). The lowering makes the change before it copies or cuts the
// loop, so the serial copy of run-time adaptation reads it the same way.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCarriedLoads, "Number of loads carried to the next iteration that each iteration reads again");

bool memcoro::recogniseCarriedLoad(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  Loop &L = Plan.L;
  auto *Next = dyn_cast<LoadInst>(Phi->getIncomingValueForBlock(Plan.Latch));
  auto *First = dyn_cast<LoadInst>(Phi->getIncomingValueForBlock(Plan.Preheader));
  auto fail = [&](const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " does not carry a load to read again: " << Why
                      << "\n");
    return false;
  };
  if (!Next || !First || !L.contains(Next) || !Next->isSimple() || Next->getType() != First->getType())
    return fail("not a plain load carried from the latch");
  auto *Addr = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Next->getPointerOperand()));
  if (!Addr || Addr->getLoop() != &L || !Addr->isAffine() || !isa<SCEVConstant>(Addr->getStepRecurrence(A.SE)))
    return fail("its address is not affine in the loop's counter");
  // Iteration k reads what iteration k - 1 loaded; iteration 0, the load
  // before the loop.
  const SCEV *Step = Addr->getStepRecurrence(A.SE);
  const SCEV *Before = A.SE.getMinusSCEV(Addr->getStart(), Step);
  if (A.SE.getSCEV(First->getPointerOperand()) != Before)
    return fail("the value entering the loop is not read from one step before");
  SCEVExpander Probe(A.SE, A.DL, "memcoro");
  if (!Probe.isSafeToExpand(Before))
    return fail("the address cannot be computed before the loop");
  // The counter that says which iteration this is: an induction by one
  // that does not wrap.
  PHINode *Counter = nullptr;
  for (PHINode &P : Plan.Header->phis())
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&P));
        AR && AR->getLoop() == &L && P.getType()->isIntegerTy() && AR->getStepRecurrence(A.SE)->isOne() &&
        (AR->hasNoUnsignedWrap() || AR->hasNoSignedWrap()))
      Counter = &P;
  if (!Counter)
    return fail("no counter by one that does not wrap");
  // Two pointers with different underlying objects may still point into
  // one array (two arguments): alias analysis decides.
  MemoryLocation Read(Next->getPointerOperand(), LocationSize::beforeOrAfterPointer(), Next->getAAMetadata());
  if (firstWriterIn(A, L, Read))
    return fail("the loop may write the memory it is read from");
  Plan.CarriedLoads.push_back({Phi, Next, Counter, Before});
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " carries" << *Next
                    << " to the next iteration; each iteration reads it again\n");
  return true;
}

void memcoro::readCarriedLoadsAgain(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  for (const CarriedLoad &C : Plan.CarriedLoads) {
    SCEVExpander Exp(A.SE, A.DL, "memcoro");
    Value *Base = Exp.expandCodeFor(C.Before, C.Next->getPointerOperandType(), Plan.Preheader->getTerminator());
    const APInt &Step = cast<SCEVConstant>(cast<SCEVAddRecExpr>(A.SE.getSCEV(C.Next->getPointerOperand()))
                                                ->getStepRecurrence(A.SE))
                            ->getAPInt();
    IRBuilder<> B(&*Plan.Header->getFirstInsertionPt());
    B.SetCurrentDebugLocation(C.Next->getDebugLoc());
    Value *Start = C.Counter->getIncomingValueForBlock(Plan.Preheader);
    Value *K = B.CreateZExt(B.CreateSub(C.Counter, Start), B.getInt64Ty(), "memcoro.carried.k");
    Value *Offset = B.CreateMul(K, B.getInt64(Step.getSExtValue()));
    Value *At = B.CreateGEP(B.getInt8Ty(), Base, Offset, C.Phi->getName() + ".at");
    LoadInst *Again = B.CreateAlignedLoad(C.Next->getType(), At, C.Next->getAlign(), C.Phi->getName() + ".again");
    Again->copyMetadata(*C.Next, {LLVMContext::MD_tbaa, LLVMContext::MD_noundef});
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "CarriedLoad", remarkLocation(C.Next, Plan.L), C.Next->getParent())
             << "a value loaded in one iteration and handed to the next (as LLVM hands on off[u + 1] as the next "
                "off[u]) is read again by each iteration, from where the previous one read it";
    });
    C.Phi->replaceAllUsesWith(Again);
    C.Phi->eraseFromParent();
    ++NumCarriedLoads;
  }
}
