//===- SanitizerChecks.cpp - sanitizer checks of invariants before the loop ===//
//
// A part of memcoro-split (see SplitInternal.h), run on each marked loop
// before legality. Under -fsanitize=undefined clang checks every operation of
// a loop's condition: `j < lastrow - firstrow + 1` checks the subtraction and
// the addition for overflow, `u < g.num_nodes()` checks that `&g` is aligned
// and not null. Each check is a branch to a handler call (which reports and
// returns, or aborts), and LICM may not hoist the call, so the condition's
// block is split by the checks: the header is no longer the block that exits,
// LoopRotate leaves the loop as a `while` loop, and memcoro-split would see
// its exit test as an early exit (or its reductions as carried values) and
// keep the loop serial. Sanitizer builds must not change what memcoro does.
//
// A check whose condition and handler arguments are loop invariants gives the
// same answer in every iteration, and the header runs at least once whenever
// the loop is entered, so it runs once in the preheader instead: a failure is
// reported at the same point of the program (before the first iteration's
// body) and, as UBSan reports each source location once, as often. The
// header then ends with the exit test, and the loop is rotated as LoopRotate
// would have done. Checks of values the loop computes stay where they are.
//
// A reduction's update checked for overflow (`hits++` on a signed counter:
// llvm.sadd.with.overflow, its flag branching to the handler) is a reduction
// like any other: each interleaved iteration adds its part to the identity,
// and the handler's report of the old total only reads it. An addition to 0
// or a multiplication by 1 cannot overflow, so with one checked update per
// iteration the check cannot report what the serial loop would not; the
// parts are added up without it, so an overflow of the running total goes
// unreported (a remark says so). With two, a part could overflow where the
// serial total does not: such loops stay serial.
//
// A signed counter stepped with an overflow check (`for (NodeID u = 0; u <
// g.num_nodes(); u++)`, an `int` counter against a 64-bit bound: GAP's pr,
// cc, tc, sssp) has no trip count for scalar evolution: the checked sum may
// wrap, where the unchecked `u + 1` may not (signed overflow is undefined),
// and `sext(u + 1) < n` needs that; IndVars, which widens such a counter in
// the build without the sanitizer, cannot widen an intrinsic. The check
// still reports an overflow where it happens, in the serial loop and in the
// interleaved one, and what the program does after that report is undefined
// in either. So the latch steps the counter with `add nsw` beside the check,
// and a 64-bit counter of the same steps is compared with the bound, as
// IndVars makes it without the sanitizer.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopRotationUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumChecksHoisted, "Number of sanitizer checks of loop invariants moved before a marked loop");
STATISTIC(NumLoopsRotated, "Number of marked loops rotated once their sanitizer checks were moved");
STATISTIC(NumCheckedCounters, "Number of marked loops' signed counters stepped without wrapping beside their check");

static cl::opt<bool> HoistChecks("memcoro-hoist-sanitizer-checks", cl::Hidden, cl::init(true),
                                 cl::desc("Run sanitizer checks of a marked loop's invariants once before it"));

bool memcoro::onlyReportedBySanitizer(const Instruction &I) {
  if (const auto *Call = dyn_cast<CallInst>(&I)) {
    const Function *Callee = Call->getCalledFunction();
    return Callee && isUBSanHandler(*Callee);
  }
  const auto *Phi = dyn_cast<PHINode>(&I);
  if (!isa<CastInst>(I) && !(Phi && Phi->getNumIncomingValues() == 1))
    return false;
  return !I.use_empty() &&
         all_of(I.users(), [](const User *U) { return onlyReportedBySanitizer(*cast<Instruction>(U)); });
}

unsigned memcoro::checkedUpdateOpcode(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
    return Instruction::Add;
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
    return Instruction::Mul;
  default:
    return 0;
  }
}

namespace {
CallInst *handlerCall(BasicBlock &BB);
} // namespace

bool memcoro::isOverflowFlag(const Instruction &I) {
  const auto *EV = dyn_cast<ExtractValueInst>(&I);
  const auto *II = EV ? dyn_cast<IntrinsicInst>(EV->getAggregateOperand()) : nullptr;
  if (!II || !checkedUpdateOpcode(*II) || EV->getIndices().size() != 1 || EV->getIndices()[0] != 1)
    return false;
  // The sanitizer's flag only sends the iteration to the report; a flag the
  // program itself reads (__builtin_add_overflow) is about the running total.
  return !EV->use_empty() && all_of(EV->users(), [](const User *U) {
    const auto *Br = dyn_cast<BranchInst>(U);
    return Br && Br->isConditional() && handlerCall(*Br->getSuccessor(0));
  });
}

namespace {

/// The call of a sanitizer's handler \p BB holds, if that is all it does
/// (the call, then a branch on or `unreachable` after a handler that aborts).
CallInst *handlerCall(BasicBlock &BB) {
  auto *Call = dyn_cast<CallInst>(BB.getFirstNonPHIOrDbg());
  Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !isUBSanHandler(*Callee))
    return nullptr;
  Instruction *Next = Call->getNextNonDebugInstruction();
  if (Next != BB.getTerminator())
    return nullptr;
  if (isa<UnreachableInst>(Next) || (isa<BranchInst>(Next) && cast<BranchInst>(Next)->isUnconditional()))
    return Call;
  return nullptr;
}

/// One check at the end of \p BB that can run before the loop: the block
/// that calls the handler, and the block the check continues in.
struct Check {
  BranchInst *Br;
  BasicBlock *Handler;
  BasicBlock *Continue;
};

std::optional<Check> invariantCheck(Loop &L, BasicBlock &BB) {
  auto *Br = dyn_cast<BranchInst>(BB.getTerminator());
  if (!Br || !Br->isConditional() || !L.isLoopInvariant(Br->getCondition()))
    return std::nullopt;
  for (unsigned H = 0; H < 2; ++H) {
    BasicBlock *Handler = Br->getSuccessor(H);
    BasicBlock *Continue = Br->getSuccessor(1 - H);
    CallInst *Call = handlerCall(*Handler);
    if (!Call || Handler->getSinglePredecessor() != &BB || Continue == Handler || !L.contains(Continue) ||
        Continue == L.getHeader() || isa<PHINode>(Continue->front()))
      continue;
    if (!all_of(Call->args(), [&](Value *V) { return L.isLoopInvariant(V); }))
      continue;
    BasicBlock *After = Handler->getSingleSuccessor();
    if (After && After != Continue)
      continue;
    if (!After && L.contains(Handler))
      continue;
    return Check{Br, Handler, Continue};
  }
  return std::nullopt;
}

/// Moves the check \p C in front of the loop: the preheader branches to a
/// block that calls the handler, the loop's branch goes straight on. Returns
/// the block the loop's code continues in (the check's block, when the rest
/// could be merged into it).
BasicBlock *hoist(Loop &L, const Check &C, LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *Preheader = L.getLoopPreheader();
  Instruction *Term = Preheader->getTerminator();
  DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
  bool Aborts = isa<UnreachableInst>(C.Handler->getTerminator());
  bool HandlerOnTrue = C.Br->getSuccessor(0) == C.Handler;
  IRBuilder<> B(Term);
  Value *Fails = HandlerOnTrue ? C.Br->getCondition() : B.CreateNot(C.Br->getCondition());
  MDNode *Weights = HandlerOnTrue ? C.Br->getMetadata(LLVMContext::MD_prof) : nullptr;
  Instruction *Then = SplitBlockAndInsertIfThen(Fails, Term, Aborts, Weights, &DTU, &LI);
  Then->getParent()->setName(C.Handler->getName());
  CallInst *Call = handlerCall(*C.Handler);
  Call->moveBefore(Then);
  // The loop's copy is left without its call; it is unreachable once the
  // header's branch goes straight on, and goes with it.
  BasicBlock *From = C.Br->getParent();
  BranchInst::Create(C.Continue, C.Br);
  C.Br->eraseFromParent();
  DTU.applyUpdates({{DominatorTree::Delete, From, C.Handler}});
  if (L.contains(C.Handler))
    LI.removeBlock(C.Handler);
  DeleteDeadBlock(C.Handler, &DTU);
  ++NumChecksHoisted;
  return MergeBlockIntoPredecessor(C.Continue, &DTU, &LI) ? From : C.Continue;
}

} // namespace

/// Whether \p L checks something with a sanitizer: a branch to a handler's
/// block, in the loop or, for a handler that aborts, out of it.
static bool hasSanitizerCheck(const Loop &L) {
  return any_of(L.blocks(), [](BasicBlock *BB) {
    return any_of(successors(BB), [](BasicBlock *Succ) { return handlerCall(*Succ) != nullptr; });
  });
}

/// Steps each signed counter of \p L that a sanitizer checks for overflow
/// with `add nsw` in the latch, beside the check, so that it has a trip count.
static bool stepCheckedCountersWithoutWrap(Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch)
    return false;
  bool Changed = false;
  for (PHINode &Phi : L.getHeader()->phis()) {
    auto *Next = dyn_cast<ExtractValueInst>(Phi.getIncomingValueForBlock(Latch));
    auto *II = Next ? dyn_cast<IntrinsicInst>(Next->getAggregateOperand()) : nullptr;
    if (!II || II->getIntrinsicID() != Intrinsic::sadd_with_overflow || Next->getIndices()[0] != 0 ||
        II->getArgOperand(0) != &Phi || !isa<ConstantInt>(II->getArgOperand(1)))
      continue;
    // The flag only sends the iteration to the report (the handler's block
    // may first widen the counter for it).
    auto onlyReports = [](const BasicBlock &BB) {
      bool Handler = false;
      for (const Instruction &I : BB) {
        const auto *Call = dyn_cast<CallInst>(&I);
        const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (Callee && isUBSanHandler(*Callee))
          Handler = true;
        else if (!isa<CastInst>(I) && !I.isTerminator())
          return false;
      }
      return Handler;
    };
    auto isFlag = [&](const ExtractValueInst &EV) {
      return EV.getIndices()[0] == 1 && !EV.use_empty() && all_of(EV.users(), [&](const User *U) {
               const auto *Br = dyn_cast<BranchInst>(U);
               return Br && Br->isConditional() && onlyReports(*Br->getSuccessor(0));
             });
    };
    bool Reported = false, Other = false;
    for (const User *U : II->users()) {
      const auto *EV = dyn_cast<ExtractValueInst>(U);
      if (EV && isFlag(*EV))
        Reported = true;
      else if (!EV || EV->getIndices()[0] != 0)
        Other = true;
    }
    if (!Reported || Other)
      continue;
    // In the latch, whose exit branch makes a wrapped (poison) step undefined
    // behaviour; the body's own `u + 1` keeps the checked sum.
    IRBuilder<> B(Latch->getFirstNonPHI());
    Value *Step = B.CreateNSWAdd(&Phi, II->getArgOperand(1), Phi.getName() + ".next");
    Next->replaceUsesWithIf(Step, [&](Use &U) {
      auto *User = cast<Instruction>(U.getUser());
      return User == &Phi || User->getParent() == Latch;
    });
    // The widened sum may be made before the latch (`sext(u + 1)` both
    // indexes the body and is the exit test's): the test takes its own.
    for (User *U : make_early_inc_range(Next->users()))
      if (auto *Ext = dyn_cast<SExtInst>(U); Ext && Ext->getParent() != Latch && L.contains(Ext)) {
        auto inLatch = [&](Use &ExtUse) { return cast<Instruction>(ExtUse.getUser())->getParent() == Latch; };
        if (any_of(Ext->uses(), inLatch))
          Ext->replaceUsesWithIf(B.CreateSExt(Step, Ext->getType()), inLatch);
      }
    // Compared widened (`sext(u + 1) < n`), the step goes through a 64-bit
    // counter of its own: scalar evolution would not fold the sext of the
    // 32-bit one, which it built before the step had its flags.
    PHINode *Wide = nullptr;
    Value *WideNext = nullptr;
    for (User *U : make_early_inc_range(Step->users()))
      if (auto *Ext = dyn_cast<SExtInst>(U); Ext && Ext->getParent() == Latch) {
        if (!Wide) {
          Type *Ty = Ext->getType();
          BasicBlock *Preheader = L.getLoopPreheader();
          IRBuilder<> Pre(Preheader->getTerminator());
          Wide = PHINode::Create(Ty, 2, Phi.getName() + ".wide", L.getHeader()->getFirstNonPHI());
          Wide->addIncoming(Pre.CreateSExt(Phi.getIncomingValueForBlock(Preheader), Ty), Preheader);
          B.SetInsertPoint(cast<Instruction>(Step)->getNextNode());
          WideNext = B.CreateNSWAdd(Wide, B.CreateSExt(II->getArgOperand(1), Ty), Wide->getName() + ".next");
          Wide->addIncoming(WideNext, Latch);
        }
        if (Ext->getType() != Wide->getType())
          continue;
        Ext->replaceAllUsesWith(WideNext);
        Ext->eraseFromParent();
      }
    LLVM_DEBUG(dbgs() << "memcoro-split: the checked counter " << Phi << " steps without wrapping\n");
    ++NumCheckedCounters;
    Changed = true;
  }
  return Changed;
}

static bool hoistAndRotate(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC,
                           const TargetTransformInfo &TTI, const TargetLibraryInfo &TLI,
                           OptimizationRemarkEmitter &ORE) {
  if (!HoistChecks || !L.getLoopPreheader() || !L.getLoopLatch())
    return false;
  // A check that ends the program was the latch, and SCCP folded it away
  // after GVN proved it passes (-fno-sanitize-recover; KeepLoopMarks.cpp):
  // the loop is left with its exit test in the header and a latch that only
  // branches back, a `while` loop LoopRotate met in another shape. Rotated,
  // as LoopRotate would rotate it now.
  if (L.isLoopExiting(L.getHeader())) {
    if (L.isLoopExiting(L.getLoopLatch()) || !hasSanitizerCheck(L))
      return false;
    const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
    SimplifyQuery SQ(DL, &TLI, &DT, &AC);
    if (!LoopRotation(&L, &LI, &TTI, &AC, &DT, &SE, /*MSSAU=*/nullptr, SQ, /*RotationOnly=*/true,
                      /*Threshold=*/~0u, /*IsUtilMode=*/false))
      return false;
    ++NumLoopsRotated;
    SE.forgetLoop(&L);
    LLVM_DEBUG(dbgs() << "memcoro-split: the loop, its checked latch folded away, rotated\n");
    return true;
  }
  unsigned Hoisted = 0;
  // The checks from the header to the block that exits, each ending a block
  // the next one continues.
  BasicBlock *BB = L.getHeader();
  while (!L.isLoopExiting(BB)) {
    std::optional<Check> C = invariantCheck(L, *BB);
    if (!C)
      break;
    BB = hoist(L, *C, LI, DT);
    ++Hoisted;
  }
  if (!Hoisted)
    return false;
  SE.forgetLoop(&L);
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Hoisted << " sanitizer check(s) of invariants moved before the loop\n");
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  SimplifyQuery SQ(DL, &TLI, &DT, &AC);
  // Rotation only, with no limit on the header's size: the header holds the
  // exit test and what the test computes, which every iteration runs anyway.
  if (L.isLoopExiting(L.getHeader()) &&
      LoopRotation(&L, &LI, &TTI, &AC, &DT, &SE, /*MSSAU=*/nullptr, SQ, /*RotationOnly=*/true,
                   /*Threshold=*/~0u, /*IsUtilMode=*/false))
    ++NumLoopsRotated;
  else
    LLVM_DEBUG(dbgs() << "memcoro-split: the loop could not be rotated after moving its sanitizer checks\n");
  SE.forgetLoop(&L);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(RemarkPass, "SanitizerChecksHoisted", L.getStartLoc(), L.getHeader())
           << "sanitizer checks of values the loop does not change run once before the loop ("
           << std::to_string(Hoisted) << "), as they give the same answer in every iteration";
  });
  return true;
}

bool memcoro::hoistInvariantSanitizerChecks(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                                            AssumptionCache &AC, const TargetTransformInfo &TTI,
                                            const TargetLibraryInfo &TLI, OptimizationRemarkEmitter &ORE) {
  bool Changed = hoistAndRotate(L, LI, DT, SE, AC, TTI, TLI, ORE);
  // Once rotated: the exit test is then in the latch.
  if (stepCheckedCountersWithoutWrap(L)) {
    SE.forgetLoop(&L);
    Changed = true;
  }
  return Changed;
}
