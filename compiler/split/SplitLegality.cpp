//===- SplitLegality.cpp - may this marked loop be interleaved? -----------===//
//
// The first step of memcoro-split (see SplitInternal.h for the others): the
// checks that decide whether the iterations of a marked loop can run as
// interleaved coroutines and still give the serial loop's answer, and the
// reason, for the missed remark, when they cannot. checkLoop() looks at the
// loop as the O2 pipeline left it and records its shape in the LoopPlan
// (induction variables, reductions, exit values, private stack memory);
// checkPlan() runs once the suspension points are planned, for what depends on
// where the iteration yields.
//
// The checks run on their own, without transforming anything, in
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

SerialReason SplitLegality::serial(const char *Tag, const Twine &Why, const Instruction *At) const {
  std::string Text = Why.str();
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " in " << A.F.getName()
                    << " left serial: " << Text << "\n");
  return {Tag, std::move(Text), At};
}

std::optional<SerialReason> SplitLegality::checkLoop() {
  if (auto Why = checkExits())
    return Why;
  if (auto Why = checkTripCount())
    return Why;
  if (auto Why = classifyHeaderPhis())
    return Why;
  if (auto Why = checkCallsAndControlFlow())
    return Why;
  if (auto Why = checkLocalMemory())
    return Why;
  return checkLiveOuts();
}

std::optional<SerialReason> SplitLegality::checkPlan() { return checkUpdatesNotSplit(); }

std::optional<SerialReason> SplitLegality::checkExits() {
  Plan.Preheader = L.getLoopPreheader();
  Plan.Header = L.getHeader();
  Plan.Latch = L.getLoopLatch();
  Plan.Exit = L.getExitBlock();
  if (!Plan.Preheader || !Plan.Latch || !L.hasDedicatedExits())
    return serial("NotSimplified", "the loop is not in a form memcoro can handle (no preheader or single latch)");
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting)
    if (BB != Plan.Latch)
      return serial("EarlyExit", "the loop has an early exit (break, return or goto out of the loop)",
                    BB->getTerminator());
  auto *Br = dyn_cast<BranchInst>(Plan.Latch->getTerminator());
  if (Exiting.size() != 1 || !Plan.Exit || !Br || !Br->isConditional())
    return serial("NotSimplified", "the loop's exit is not a single test at the end of the body");
  return std::nullopt;
}

std::optional<SerialReason> SplitLegality::checkTripCount() {
  Plan.BackedgeTakenCount = A.SE.getBackedgeTakenCount(&L);
  SCEVExpander Probe(A.SE, A.DL, "memcoro");
  if (isa<SCEVCouldNotCompute>(Plan.BackedgeTakenCount) || !Probe.isSafeToExpand(Plan.BackedgeTakenCount) ||
      A.SE.getTypeSizeInBits(Plan.BackedgeTakenCount->getType()) > 64)
    return serial("UnknownTripCount",
                  "the number of iterations cannot be computed before the loop starts (the exit test "
                  "depends on values computed in the loop)",
                  Plan.Latch->getTerminator());
  return std::nullopt;
}

bool SplitLegality::recogniseReduction(PHINode *Phi, Reduction &R) {
  // The closure of the phi's users inside the loop must be a tree of one
  // associative, commutative operation (plus phis and selects that only move
  // partial results around), so that starting from the identity yields this
  // iteration's contribution.
  SmallVector<Instruction *, 8> Work = {Phi};
  SmallPtrSet<Instruction *, 16> Closure = {Phi};
  std::optional<unsigned> Kind;
  bool KindIsIntrinsic = false;
  auto inClosure = [&](Value *V) { auto *I = dyn_cast<Instruction>(V); return I && Closure.contains(I); };

  while (!Work.empty()) {
    Instruction *Cur = Work.pop_back_val();
    for (User *U : Cur->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI)) {
        if (Cur != Phi->getIncomingValueForBlock(Plan.Latch))
          return false; // an intermediate sum escapes the loop
        continue;
      }
      if (Closure.insert(UI).second)
        Work.push_back(UI);
    }
  }
  for (Instruction *I : Closure) {
    if (I == Phi)
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!all_of(P->incoming_values(), inClosure))
        return false;
      continue;
    }
    if (auto *S = dyn_cast<SelectInst>(I)) {
      if (inClosure(S->getCondition()) || !inClosure(S->getTrueValue()) || !inClosure(S->getFalseValue()))
        return false;
      continue;
    }
    unsigned Op = 0;
    bool IsIntr = false;
    unsigned ClosureOperands = 0;
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      Op = BO->getOpcode();
      if (Op == Instruction::Sub) {
        // sum - x is sum + (-x): only the minuend may be the running value.
        if (inClosure(BO->getOperand(1)))
          return false;
        Op = Instruction::Add;
      }
      if (Op != Instruction::Add && Op != Instruction::Mul && Op != Instruction::And &&
          Op != Instruction::Or && Op != Instruction::Xor && Op != Instruction::FAdd &&
          Op != Instruction::FMul)
        return false;
      if ((Op == Instruction::FAdd || Op == Instruction::FMul) && !BO->hasAllowReassoc()) {
        FloatingPointOrderMatters = BO;
        return false;
      }
      if (Op == Instruction::FAdd || Op == Instruction::FMul)
        R.ReassocSource = BO;
      ClosureOperands = inClosure(BO->getOperand(0)) + inClosure(BO->getOperand(1));
    } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        Op = II->getIntrinsicID();
        IsIntr = true;
        ClosureOperands = inClosure(II->getArgOperand(0)) + inClosure(II->getArgOperand(1));
        break;
      default:
        return false;
      }
    } else {
      return false;
    }
    if (ClosureOperands != 1 || (Kind && (*Kind != Op || KindIsIntrinsic != IsIntr)))
      return false;
    Kind = Op;
    KindIsIntrinsic = IsIntr;
  }
  if (!Kind)
    return false;

  Type *Ty = Phi->getType();
  R.Phi = Phi;
  R.LatchValue = Phi->getIncomingValueForBlock(Plan.Latch);
  R.Opcode = *Kind;
  R.IsIntrinsic = KindIsIntrinsic;
  if (KindIsIntrinsic) {
    unsigned Bits = Ty->getIntegerBitWidth();
    switch (*Kind) {
    case Intrinsic::smin: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getSignedMaxValue(Bits)); break;
    case Intrinsic::smax: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getSignedMinValue(Bits)); break;
    case Intrinsic::umin: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getMaxValue(Bits)); break;
    default: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getMinValue(Bits)); break;
    }
  } else {
    switch (*Kind) {
    case Instruction::Mul: R.Identity = ConstantInt::get(Ty, 1); break;
    case Instruction::And: R.Identity = Constant::getAllOnesValue(Ty); break;
    case Instruction::FAdd: R.Identity = ConstantFP::getNegativeZero(Ty); break;
    case Instruction::FMul: R.Identity = ConstantFP::get(Ty, 1.0); break;
    default: R.Identity = Constant::getNullValue(Ty); break;
    }
  }
  return true;
}

std::optional<SerialReason> SplitLegality::classifyHeaderPhis() {
  for (PHINode &Phi : Plan.Header->phis()) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&Phi));
        AR && AR->getLoop() == &L && AR->isAffine()) {
      SCEVExpander Probe(A.SE, A.DL, "memcoro");
      if (Probe.isSafeToExpand(AR->getStart()) && Probe.isSafeToExpand(AR->getStepRecurrence(A.SE))) {
        Plan.Inductions.push_back(&Phi);
        continue;
      }
    }
    Reduction R;
    FloatingPointOrderMatters = nullptr;
    if (recogniseReduction(&Phi, R)) {
      Plan.Reductions.push_back(R);
      continue;
    }
    // The append idiom, next[n++] = v: the counter runs in iteration order
    // (SplitOrdered.cpp).
    if (!FloatingPointOrderMatters && recogniseAppendCounter(A, Plan, &Phi))
      continue;
    auto *Update = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Plan.Latch));
    if (FloatingPointOrderMatters)
      return serial("FPReduction",
                    "floating-point reduction whose result depends on the order of the additions; "
                    "allow reassociation (-ffast-math or -fassociative-math) to interleave it",
                    FloatingPointOrderMatters);
    return serial("LoopCarried",
                  "a value is carried from one iteration to the next and is not a reduction memcoro "
                  "recognises (integer + - * & | ^ min max, or floating-point + * with reassociation)",
                  Update);
  }
  return std::nullopt;
}

std::optional<SerialReason> SplitLegality::checkCallsAndControlFlow() {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (I.isVolatile())
        return serial("Volatile", "the loop has a volatile access, whose order memcoro must not change", &I);
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (isa<InvokeInst>(CB) || isa<CallBrInst>(CB))
        return serial("Call", "the loop contains a call that may throw an exception", CB);
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isAssumeLikeIntrinsic() || II->getIntrinsicID() == Intrinsic::prefetch ||
            isa<MemIntrinsic>(II))
          continue;
      if (Function *Callee = CB->getCalledFunction(); Callee && Callee->getName() == RemoteBaseFn)
        continue;
      if (isOrderedMarker(*CB))
        continue;
      if (CB->mayReadOrWriteMemory()) {
        Function *Callee = CB->getCalledFunction();
        std::string Name = Callee ? ("'" + Callee->getName() + "'").str() : "through a pointer";
        return serial("Call", "call to " + Name + " may access memory and could not be inlined", CB);
      }
    }
  // Only cycles through the loop's own blocks matter: another marked loop's
  // state machine elsewhere in the function is irreducible by construction.
  CycleInfo Cycles;
  Cycles.compute(A.F);
  SmallVector<const Cycle *, 8> Work(Cycles.toplevel_cycles());
  while (!Work.empty()) {
    const Cycle *C = Work.pop_back_val();
    if (!C->isReducible() && any_of(C->blocks(), [&](BasicBlock *BB) { return L.contains(BB); }))
      return serial("Irreducible", "the loop has irreducible control flow (a goto into the middle of a cycle)",
                    C->getHeader()->getTerminator());
    append_range(Work, C->children());
  }
  return std::nullopt;
}

std::optional<SerialReason> SplitLegality::checkLiveOuts() {
  SmallPtrSet<Value *, 4> ReductionResults;
  for (Reduction &R : Plan.Reductions)
    ReductionResults.insert(R.LatchValue);
  // An append counter's final value is read from its shared scalar.
  for (AppendCounter &C : Plan.Counters)
    ReductionResults.insert(C.Phi->getIncomingValueForBlock(Plan.Latch));
  for (PHINode &Phi : Plan.Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Plan.Latch);
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || ReductionResults.contains(V))
      continue;
    const SCEV *AtExit = A.SE.getSCEVAtScope(A.SE.getSCEV(V), L.getParentLoop());
    SCEVExpander Probe(A.SE, A.DL, "memcoro");
    if (isa<SCEVCouldNotCompute>(AtExit) || !A.SE.isLoopInvariant(AtExit, &L) || !Probe.isSafeToExpand(AtExit))
      return serial("LiveOut", "a value computed in the loop is used after it and is not a reduction", I);
    Plan.ExitValues.push_back({&Phi, AtExit});
  }
  return std::nullopt;
}

/// A local array or struct declared in the loop body is private to each
/// iteration in C, but LLVM allocates it once in the function's entry block
/// (lifetime markers in the loop say where it lives). Interleaved iterations
/// would share it, so each slot gets its own copy. A stack object declared
/// outside the loop and written in it is shared by all iterations: the loop
/// stays serial. One that the loop only reads is shared safely.
std::optional<SerialReason> SplitLegality::checkLocalMemory() {
  for (Instruction &I : instructions(A.F)) {
    auto *Alloca = dyn_cast<AllocaInst>(&I);
    if (!Alloca)
      continue;
    bool UsedInLoop = false, UsedOutside = false, StartsInLoop = false, WrittenInLoop = false;
    Instruction *FirstInLoop = nullptr;
    SmallVector<Instruction *, 8> Work = {Alloca};
    SmallPtrSet<Instruction *, 16> Seen;
    while (!Work.empty()) {
      Instruction *Ptr = Work.pop_back_val();
      for (User *U : Ptr->users()) {
        auto *UI = cast<Instruction>(U);
        if (!Seen.insert(UI).second)
          continue;
        bool InLoop = L.contains(UI);
        UsedInLoop |= InLoop;
        if (InLoop && !FirstInLoop)
          FirstInLoop = UI;
        // Address arithmetic LICM hoisted out of the loop (&f[1]) is no use
        // of the object by itself; its users decide.
        if (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI) || isa<PHINode>(UI) || isa<SelectInst>(UI)) {
          if (!InLoop && !isa<GetElementPtrInst>(UI) && !isa<CastInst>(UI))
            UsedOutside = true;
          Work.push_back(UI);
          continue;
        }
        UsedOutside |= !InLoop;
        if (auto *II = dyn_cast<IntrinsicInst>(UI); II && II->isLifetimeStartOrEnd()) {
          StartsInLoop |= InLoop && II->getIntrinsicID() == Intrinsic::lifetime_start;
          continue;
        }
        if (auto *Load = dyn_cast<LoadInst>(UI); Load && Load->getPointerOperand() == Ptr)
          continue;
        // A store through it, a memset/memcpy into it, an atomic, or the
        // address escaping: all count as writing it.
        if (auto *Mem = dyn_cast<MemTransferInst>(UI); Mem && Mem->getSource() == Ptr && Mem->getDest() != Ptr)
          continue;
        WrittenInLoop |= InLoop;
      }
    }
    if (!UsedInLoop)
      continue;
    if (L.contains(Alloca) || !Alloca->isStaticAlloca())
      return serial("LocalMemory", "the loop allocates stack memory of a size known only at run time", Alloca);
    if (StartsInLoop && !UsedOutside) {
      Plan.PrivateAllocas.push_back(Alloca);
      continue;
    }
    if (WrittenInLoop)
      return serial("LocalMemory",
                    "a local variable or array declared outside the loop is written in it, so interleaved "
                    "iterations would share it; declare it inside the loop body",
                    FirstInLoop);
  }
  return std::nullopt;
}

/// A load and a later store of the same location with a suspension in
/// between (t[k] += v split by another access's yield, or two increments that
/// GVN and DSE merged across a dependent load) would let another iteration
/// update the location in between, losing its update. Serial loops never do
/// that, so such a loop stays serial. The paper's lock table (III-E) would
/// make the update atomic instead.
std::optional<SerialReason> SplitLegality::checkUpdatesNotSplit() {
  auto sameLocation = [&](Value *X, Value *Y) { return byteDistance(X, Y, A.DL) == 0; };
  SmallVector<Instruction *, 16> Loads, Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<LoadInst>(&I))
        Loads.push_back(&I);
      else if (isa<StoreInst>(&I) || isa<AtomicRMWInst>(&I) || isa<AtomicCmpXchgInst>(&I))
        Stores.push_back(&I);
    }
  for (Instruction *Store : Stores)
    for (Instruction *Load : Loads)
      if (sameLocation(accessedPointer(*Load), accessedPointer(*Store)) && A.DT.dominates(Load, Store) &&
          suspendsBetween(Plan, A.LI, Load, Store, nullptr))
        return serial("SplitUpdate",
                      "a read-modify-write of one memory location would be split by a suspension point, so "
                      "another iteration could update the location in between",
                      Store);
  return std::nullopt;
}
