//===- PrefetchSwitchRanges.cpp - a switched flat loop's windows as ranges -===//
//
// A step of memcoro-split's run-time switch (PrefetchSwitch.cpp), for a loop
// without inner loops whose trip count is known when it starts: the plain
// gathers of OverlappedGathers.cpp (`s += t[ix[i]]`, NPB IS's histogram)
// and flat loops kept in order. Counting a window down on the backedge costs
// such a loop a counter, a compare and a branch per iteration, against a
// body of a few instructions, and takes the loop as written its
// vectorisation: IS's histogram ran 0.70x serial switched that way, so
// gathers had no switch, and a gather at 1 MiB ran its prefetches at 0.75x
// the loop as written. Here a window is a range of iterations [lo, hi): each
// copy's exit test becomes `iv.next == iv at hi`, an ordinary counted loop
// for the rest of the pipeline, and the switch runs between ranges:
//
//   preheader: trip count TC
//       -> entry, decided | begin (PrefetchSwitch.cpp's buildSwitchEntry)
//   pick: lo, len, which, the header phis' values;
//         hi = min(lo + len, TC); end = iv at hi
//       | which == 0               | which == 1
//       v                          v
//   the loop as written        the prefetching loop
//       |  latch: iv.next == end ? window.end : header
//       v                          v
//   switch: the header phis' values and the exit's, from either copy's window.end
//       hi == TC ? finish : report the window, take the next -> pick
//   finish: measured: report with its cycles; unmeasured: its iterations
//       off the budget -> exit
//
// The exit test's induction variable takes distinct values over the loop's
// iterations (were one repeated, the test would repeat and the loop not
// end), so the iteration whose variable steps to its value at hi is the
// window's last, and at hi = TC the loop's last: the loop runs the
// iterations it ran, in their order, each copy a stretch of them.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/PrefetchSwitch.h"
#include "split/SplitInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

std::unique_ptr<RangeWindows> RangeWindows::plan(const SplitAnalyses &A, Loop &L) {
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  auto bail = [&](const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: switch windows of loop " << L.getHeader()->getName()
                      << " count work: " << Why << "\n");
    return nullptr;
  };
  if (!L.isInnermost())
    return bail("it has inner loops, whose trips are work");
  if (!Preheader || !Latch || L.getExitingBlock() != Latch)
    return bail("it does not leave only at its latch");
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp)
    return bail("its exit test is not a comparison");
  const SCEV *BTC = A.SE.getBackedgeTakenCount(&L);
  if (isa<SCEVCouldNotCompute>(BTC) || A.DL.getTypeSizeInBits(BTC->getType()) > 64)
    return bail("its trip count is not known when it starts");
  SCEVExpander Expander(A.SE, A.DL, "memcoro.window");
  if (!Expander.isSafeToExpandAt(BTC, Preheader->getTerminator()))
    return bail("its trip count cannot be computed in its preheader");

  // The exit test's induction variable: a header phi or its next value,
  // compared with a value of outside the loop.
  unsigned Index = 0;
  for (PHINode &Phi : L.getHeader()->phis()) {
    Value *Next = Phi.getIncomingValueForBlock(Latch);
    bool Tested = any_of(Cmp->operands(), [&](Value *Op) { return Op == &Phi || Op == Next; }) &&
                  any_of(Cmp->operands(), [&](Value *Op) { return L.isLoopInvariant(Op); });
    auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&Phi));
    auto *Step = AR && AR->getLoop() == &L && AR->isAffine() ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(A.SE))
                                                             : nullptr;
    if (Tested && Step && !Step->isZero()) {
      IRBuilder<> B(Preheader->getTerminator());
      Value *Trips = Expander.expandCodeFor(BTC, BTC->getType(), Preheader->getTerminator());
      Value *TripCount = B.CreateAdd(B.CreateZExt(Trips, B.getInt64Ty()), B.getInt64(1), "memcoro.window.trips");
      return std::unique_ptr<RangeWindows>(
          new RangeWindows(L, TripCount, Index, Phi.getIncomingValueForBlock(Preheader), Step->getValue()));
    }
    ++Index;
  }
  return bail("its exit test compares no induction variable with a value of outside the loop");
}

void RangeWindows::endAt(LoopCopy &C, Value *End, BasicBlock *Switch) {
  auto *Br = cast<BranchInst>(C.Latch->getTerminator());
  Value *Test = Br->getCondition();
  IRBuilder<> B(Br);
  Br->setCondition(B.CreateICmpEQ(C.Next[IV], End, "memcoro.window.last"));
  Br->setSuccessor(0, Switch);
  Br->setSuccessor(1, C.Header);
  RecursivelyDeleteTriviallyDeadInstructions(Test);
}

void RangeWindows::wire(LoopCopy &Plain, LoopCopy &Prefetching, unsigned Flags, bool OutlineCopies) {
  Function &F = *L.getHeader()->getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  DebugLoc Loc = L.getStartLoc();
  BasicBlock *Preheader = L.getLoopPreheader(), *Exit = L.getUniqueExitBlock();
  BasicBlock *First = Prefetching.Header;
  SwitchEntry In = buildSwitchEntry(Preheader, First, Flags, Loc);
  auto *Switch = BasicBlock::Create(Ctx, "memcoro.prefetch.switch", &F, First);
  auto *Report = BasicBlock::Create(Ctx, "memcoro.prefetch.report", &F, First);
  auto *Finish = BasicBlock::Create(Ctx, "memcoro.prefetch.finish", &F, First);
  auto *Measured = BasicBlock::Create(Ctx, "memcoro.prefetch.measured", &F, First);
  auto *Unmeasured = BasicBlock::Create(Ctx, "memcoro.prefetch.unmeasured", &F, First);

  // pick: the window [lo, hi) and the values the loop enters it with.
  IRBuilder<> PB(In.Pick);
  PB.SetCurrentDebugLocation(Loc);
  SmallVector<BasicBlock *, 2> Ways(predecessors(In.Pick));
  PHINode *Lo = PB.CreatePHI(I64, 3, "memcoro.window.lo");
  SmallVector<PHINode *, 4> Entered;
  for (PHINode *Phi : Prefetching.Phis)
    Entered.push_back(PB.CreatePHI(Phi->getType(), 3, Phi->getName() + ".window"));
  for (BasicBlock *Way : Ways) {
    Lo->addIncoming(PB.getInt64(0), Way);
    for (auto [Phi, Entry] : zip(Prefetching.Phis, Entered))
      Entry->addIncoming(Phi->getIncomingValueForBlock(Preheader), Way);
  }
  Value *Hi = PB.CreateBinaryIntrinsic(Intrinsic::umin, PB.CreateAdd(Lo, In.Window), TripCount, nullptr,
                                       "memcoro.window.hi");
  Type *IVType = Prefetching.Phis[IV]->getType();
  Value *End = IVType->isPointerTy()
                   ? PB.CreateGEP(PB.getInt8Ty(), IVStart, PB.CreateMul(Hi, PB.CreateSExtOrTrunc(IVStep, I64)))
                   : PB.CreateAdd(IVStart, PB.CreateMul(PB.CreateTrunc(Hi, IVType), IVStep));
  End->setName("memcoro.window.end");
  PB.CreateCondBr(PB.CreateICmpEQ(In.Which, PB.getInt64(0)), Plain.Header, Prefetching.Header);

  // switch: the values the window left with, from the copy that ran it.
  IRBuilder<> SB(Switch);
  SB.SetCurrentDebugLocation(Loc);
  SmallVector<PHINode *, 4> Left;
  for (PHINode *Phi : Prefetching.Phis)
    Left.push_back(SB.CreatePHI(Phi->getType(), 2, Phi->getName() + ".switched"));
  SmallVector<std::pair<PHINode *, PHINode *>, 4> ExitValues;
  for (PHINode &Phi : Exit->phis())
    ExitValues.push_back({&Phi, SB.CreatePHI(Phi.getType(), 2, Phi.getName() + ".switched")});
  for (LoopCopy *C : {&Plain, &Prefetching}) {
    for (auto [Phi, Entry] : zip(C->Phis, Entered)) {
      Phi->replaceIncomingBlockWith(Preheader, In.Pick);
      Phi->setIncomingValue(Phi->getBasicBlockIndex(In.Pick), Entry);
    }
    // The values a window leaves with pass through a block of the copy's
    // own, after its loop: an outlined copy (below) stores them there once,
    // where it would store them in every iteration from inside the loop.
    auto *WindowEnd = BasicBlock::Create(Ctx, C->Header->getName() + ".window.end", &F, Switch);
    IRBuilder<> WB(WindowEnd);
    WB.SetCurrentDebugLocation(Loc);
    auto leave = [&](Value *V, PHINode *Out) {
      PHINode *Closed = WB.CreatePHI(V->getType(), 1, V->getName() + ".window.out");
      Closed->addIncoming(V, C->Latch);
      Out->addIncoming(Closed, WindowEnd);
    };
    for (auto [Out, V] : zip(Left, C->Next))
      leave(V, Out);
    for (auto [Phi, Out] : ExitValues)
      leave(Phi->getIncomingValueForBlock(C->Latch), Out);
    WB.CreateBr(Switch);
    endAt(*C, End, WindowEnd);
  }
  Value *Ran = SB.CreateSub(Hi, Lo, "memcoro.window.ran");
  SB.CreateCondBr(SB.CreateICmpEQ(Hi, TripCount), Finish, Report);

  // report: the controller's next window.
  IRBuilder<> RB(Report);
  RB.SetCurrentDebugLocation(Loc);
  SwitchDecision Next = reportWindow(RB, In.State, Ran, In.T0);
  In.Window->addIncoming(Next.Window, Report);
  In.Which->addIncoming(Next.Which, Report);
  In.T0->addIncoming(Next.T0, Report);
  Lo->addIncoming(Hi, Report);
  for (auto [Entry, Out] : zip(Entered, Left))
    Entry->addIncoming(Out, Report);
  RB.CreateBr(In.Pick);

  // finish: the last window, as any other; one unmeasured was the budget.
  IRBuilder<> FB(Finish);
  FB.SetCurrentDebugLocation(Loc);
  FB.CreateCondBr(FB.CreateICmpEQ(In.T0, FB.getInt64(0)), Unmeasured, Measured);
  reportLastWindow(In, Ran, In.T0, Measured, Unmeasured, Exit, Loc);
  for (auto [Phi, Out] : ExitValues) {
    for (BasicBlock *From : {Plain.Latch, Prefetching.Latch})
      Phi->removeIncomingValue(From, /*DeletePHIIfEmpty=*/false);
    Phi->addIncoming(Out, Measured);
    Phi->addIncoming(Out, Unmeasured);
  }
  // Beside the windows' bookkeeping the copies reloaded their arrays from
  // the stack every iteration: COO SpMV's loop as written ran at 0.92x the
  // serial build in place. Each copy runs a window in a function of its own.
  if (OutlineCopies) {
    markSerialCopyEntry(*Plain.Header, "memcoro.plain");
    markSerialCopyEntry(*Prefetching.Header, "memcoro.prefetching");
  }
}
