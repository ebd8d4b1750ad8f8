//===- SplitLowering.cpp - the coroutine skeleton every scheduler shares ---===//
//
// The last step of memcoro-split (see SplitInternal.h): carries out a
// LoopPlan. Each iteration of the loop becomes a stackless coroutine whose
// phases are cut at the plan's suspension points: before a long-latency
// access the coroutine starts the access early (a prefetch), saves what it
// needs later into its slot, and yields; when the scheduler comes back to the
// slot, it restores and performs the access, which by then hits in the cache.
// The structure is CoroAMU's (Fig. 6):
//
//   before           after
//
//   preheader        preheader: TC = trip count, scheduler state
//       |                |
//       v                v
//   +-> header       +-> sched: switch on the resume state -------+
//   |     |          |     | 0              | j = 1..S            |
//   |     v          |     v                v                     |
//   +-- latch        |   launch: k        resume.j: restore,      |
//         |          |     |                then the access       |
//         v          |     v                |                     |
//       exit         |   iter.start         v                     |
//                    |   (IVs at k)       ...body, phase j...     |
//                    |     v                |                     |
//                    |   ...body...  at a suspension point:       |
//                    |     |         early access, save, yield    |
//                    |     v                v                     v
//                    |   iter.end ------> next: the scheduler picks
//                    +----------------------- the next slot
//                                             | every iteration done
//                                             v
//                                           done -> exit (reductions,
//                                                   IV exit values)
//
// This file builds what every scheduler shares: the trip count and induction
// starts expanded before the loop's shape changes, the blocks above, the
// induction variables at k, reductions folded at iter.end, the cut at each
// suspension with its saves and restores (the frame, SplitFrame.cpp), SSA
// repair, and the promotion of the scheduler's state to registers. What
// launch, sched, next and the slot header do is the scheduler's: one
// SchedulerCodeGen per scheduler (RingScheduler.cpp, LockstepScheduler.cpp),
// called at fixed points while the skeleton is built.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumLoopsSplit, "Number of loops turned into coroutines");
STATISTIC(NumSuspensionPoints, "Number of suspension points created");
STATISTIC(NumCoalesced, "Number of remote accesses coalesced into another's suspension");
STATISTIC(NumSavedValues, "Number of values saved in coroutine slots");
STATISTIC(NumReductions, "Number of reductions updated in place");

SchedulerCodeGen::~SchedulerCodeGen() = default;

void SchedulerCodeGen::emitEarlyAccess(IRBuilder<> &B, const Suspension &Sp) {
  Function *Prefetch = Intrinsic::getDeclaration(S.F.getParent(), Intrinsic::prefetch,
                                                 {PointerType::get(S.Ctx, 0)});
  for (auto &[Ptr, Write] : Sp.Prefetch)
    B.CreateCall(Prefetch, {B.CreateAddrSpaceCast(Ptr, PointerType::get(S.Ctx, 0)), B.getInt32(Write),
                            B.getInt32(3), B.getInt32(1)});
  for (auto &[Ptr, Offset] : Sp.PrefetchFields)
    B.CreateCall(Prefetch, {B.CreateAddrSpaceCast(B.CreateGEP(B.getInt8Ty(), Ptr, B.getInt64(Offset)),
                                                  PointerType::get(S.Ctx, 0)),
                            B.getInt32(0), B.getInt32(3), B.getInt32(1)});
}

namespace {

class CoroutineLowering {
public:
  CoroutineLowering(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE)
      : A(A), Plan(Plan), L(Plan.L), ORE(ORE), Frame(A, Plan) {}
  LoweredLoop run();

private:
  void markUnpredictableSelects();

  const SplitAnalyses &A;
  const LoopPlan &Plan;
  Loop &L;
  OptimizationRemarkEmitter &ORE;
  CoroutineFrame Frame;
};

} // namespace

LoweredLoop CoroutineLowering::run() {
  Function &F = A.F;
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  BasicBlock *Preheader = Plan.Preheader, *Header = Plan.Header, *Latch = Plan.Latch, *Exit = Plan.Exit;
  DebugLoc Loc = L.getStartLoc();

  // The coalescing the plan chose: address arithmetic moves above the
  // suspension that prefetches it.
  for (const Hoist &H : Plan.Hoists)
    H.I->moveBefore(H.Before);
  for (CallInst *Marker : getRemoteBaseCalls(L))
    Marker->eraseFromParent();
  for (const Reduction &R : Plan.Reductions)
    for (StoreInst *Mirror : R.Mirrors)
      Mirror->eraseFromParent();
  readCarriedLoadsAgain(A, Plan, ORE);
  // Header phis legality left without a use (ReloadedBound.cpp) go before
  // the serial copy is made: they have no start value in it.
  dropDeadPhiWebs(L);
  // Before the serial copy too: the serial loop waits on a wide stream as well.
  prefetchWideStreams(A, Plan, ORE);
  // Run-time adaptation copies the serial loop now, before it changes.
  std::unique_ptr<RunTimeAdaptation> Adapt = createRunTimeAdaptation(A, Plan, ORE);
  std::unique_ptr<EarlyExitCodeGen> Exits = createEarlyExitCodeGen(A, Plan);

  // Everything SCEV knows is expanded in the preheader, before the loop's
  // shape changes under it: trip count, induction starts and steps, exit values.
  SCEVExpander Exp(A.SE, A.DL, "memcoro");
  Instruction *PreTerm = Preheader->getTerminator();
  Value *BTC = Exp.expandCodeFor(Plan.BackedgeTakenCount, Plan.BackedgeTakenCount->getType(), PreTerm);
  IRBuilder<> PB(PreTerm);
  Value *TripCount = PB.CreateAdd(PB.CreateZExtOrTrunc(BTC, I64), ConstantInt::get(I64, 1), "memcoro.trips");
  // Exits lower the limit on launches, whose every use they rewrite: an
  // instruction of its own, not a constant shared with the whole module.
  if (Exits && !isa<Instruction>(TripCount))
    TripCount = PB.Insert(BinaryOperator::CreateAdd(PB.CreateZExtOrTrunc(BTC, I64), ConstantInt::get(I64, 1)),
                          "memcoro.trips");
  SmallVector<InductionStart, 2> IVPlans;
  for (PHINode *Phi : Plan.Inductions) {
    auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    const SCEV *Step = AR->getStepRecurrence(A.SE);
    IVPlans.push_back({Phi, Exp.expandCodeFor(AR->getStart(), Phi->getType(), PreTerm),
                       Exp.expandCodeFor(Step, Step->getType(), PreTerm)});
  }
  SmallVector<std::pair<PHINode *, Value *>, 2> ExitValueCode;
  for (auto &[Phi, AtExit] : Plan.ExitValues)
    ExitValueCode.push_back({Phi, Exp.expandCodeFor(AtExit, Phi->getType(), PreTerm)});

  // Where an iteration may wait for its turn (ring dispatch with ordered
  // code): each ordered point, then the iteration's end. They come after the
  // suspensions in the numbering of resume states.
  // A locked read-modify-write waits at its load instead.
  SmallVector<Instruction *, 4> WaitAts;
  if (Plan.WaitsForTurn)
    for (const OrderedPoint &P : Plan.Ordered)
      if (Instruction *At = P.BeforeTurn ? emitTestBeforeTurn(A, Plan, P) : P.WaitAt ? P.WaitAt : P.At;
          !is_contained(WaitAts, At))
        WaitAts.push_back(At);
  for (const auto &[Load, Store] : Plan.Locked)
    WaitAts.push_back(Load);
  assert((!Plan.WaitsForTurn || Plan.Locked.empty()) && "turns and locks are not combined");
  const unsigned NumWaits = Plan.WaitsForTurn ? WaitAts.size() + 1 : WaitAts.size();

  Skeleton S(F, Frame);
  S.N = Adapt ? Adapt->slotCount() : Plan.Parallelism;
  S.NumSuspensions = Plan.Suspensions.size() + NumWaits;
  // Adapting, the scheduler runs one window of iterations at a time.
  S.TripCount = Adapt ? Adapt->buildWindowLoop(TripCount) : TripCount;
  S.ActiveN = Adapt ? Adapt->activeSlots() : nullptr;
  // The pipeline keeps more slots than iterations in flight (slotsFor()).
  if (Adapt)
    Frame.setSlotCount(Plan.slotsFor(S.N));
  S.Header = Header;
  S.Loc = Loc;
  S.Plan = &Plan;
  std::unique_ptr<SchedulerCodeGen> Gen = Plan.Style == Dispatch::Lockstep   ? createLockstepScheduler(S)
                                          : Plan.Style == Dispatch::Pipeline ? createPipelineScheduler(S)
                                                                             : createRingScheduler(S);
  if (Plan.Style == Dispatch::AmuGetfin)
    Gen = createAmuGetfinScheduler(S);
  else if (Plan.Style == Dispatch::AmuBafin)
    Gen = createAmuBafinScheduler(S);
  else if (Plan.ThroughAmu)
    Gen = createAmuStaticScheduler(S, std::move(Gen));
  if (Plan.ScavengeNs)
    Gen = createScavengeScheduler(S, std::move(Gen));
  assert((!NumWaits || Plan.Style == Dispatch::Ring) && "only the ring has a resume state per slot");
  std::unique_ptr<WaitCodeGen> Waits = Plan.WaitsForTurn     ? createTurnCodeGen(S)
                                      : !Plan.Locked.empty() ? createLockTableCodeGen(S, Plan)
                                                             : nullptr;

  // Scheduler state lives in allocas that are promoted to registers at the end.
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  Gen->createState(EB);
  if (Waits)
    Waits->createState(EB);
  S.SlotIndex = EB.CreateAlloca(I64, nullptr, "memcoro.slot");
  if (Exits)
    Exits->initState(EB, PB, TripCount);
  SmallVector<AllocaInst *, 2> Accumulators;
  for (const Reduction &R : Plan.Reductions)
    Accumulators.push_back(EB.CreateAlloca(R.Phi->getType(), nullptr, R.Phi->getName() + ".memcoro.acc"));

  S.Sched = BasicBlock::Create(Ctx, "memcoro.sched", &F, Header);
  S.Launch = BasicBlock::Create(Ctx, "memcoro.launch", &F, Header);
  S.IterStart = BasicBlock::Create(Ctx, "memcoro.iter.start", &F, Header);
  auto *IterEnd = BasicBlock::Create(Ctx, "memcoro.iter.end", &F, Exit);
  S.Next = BasicBlock::Create(Ctx, "memcoro.next", &F, Exit);
  BasicBlock *Done = BasicBlock::Create(Ctx, "memcoro.done", &F, Exit);
  S.Done = Adapt ? Adapt->windowEnd() : Done;

  // The scheduler's state starts afresh for each window.
  IRBuilder<> WB(Adapt ? Adapt->windowInit() : PreTerm);
  Gen->initState(WB);
  if (Waits)
    Waits->initState(WB);
  WB.CreateStore(ConstantInt::get(I64, 0), S.SlotIndex);
  for (unsigned R = 0; R < Plan.Reductions.size(); ++R)
    PB.CreateStore(Plan.Reductions[R].Phi->getIncomingValueForBlock(Preheader), Accumulators[R]);
  for (auto [User, Load] : reloadForwardedLoads(Plan))
    for (Instruction *&At : WaitAts)
      if (At == User)
        At = Load;
  // Append counters become one shared scalar, read and incremented in
  // iteration order; a wait point in front of a read moves to its load.
  DenseMap<Instruction *, Instruction *> CounterReadAt;
  SmallVector<AllocaInst *, 1> Counters = demoteAppendCounters(Plan, EB, PB, CounterReadAt);
  for (Instruction *&At : WaitAts)
    if (Instruction *Load = CounterReadAt.lookup(At))
      At = Load;
  if (Adapt && Plan.ExitAtLaunch)
    Adapt->carryExitTest(Exits->launchCursors(), Exits->launchLimit());
  if (Adapt)
    Adapt->connectSerialLoop(IVPlans, Accumulators, Counters);
  auto counterOf = [&](Value *V) -> AllocaInst * {
    for (unsigned C = 0; C < Plan.Counters.size(); ++C)
      if (is_contained(Plan.Counters[C].Closure, V))
        return Counters[C];
    return nullptr;
  };

  IRBuilder<> LB(S.Launch);
  LB.SetCurrentDebugLocation(Loc);
  Value *K = Gen->emitLaunch(LB);
  Frame.setIteration(K, Gen->knowsIterationAtResume());

  // iter.start: the induction variables at iteration k; reductions start
  // from their identity so that the body computes this iteration's part.
  IRBuilder<> IB(S.IterStart);
  IB.SetCurrentDebugLocation(Loc);
  Gen->emitIterationStart(IB, K);
  // The scheduler counts a window's iterations from 0.
  Value *KInLoop = Adapt ? IB.CreateAdd(Adapt->windowStart(), K, "memcoro.k.loop") : K;
  instrumentForCheck(A, Plan, IB, KInLoop);
  for (InductionStart &IV : IVPlans) {
    Value *KK = IB.CreateZExtOrTrunc(KInLoop, IV.Step->getType());
    Value *Offset = IB.CreateMul(KK, IV.Step);
    Value *At = IV.Phi->getType()->isPointerTy()
                    ? IB.CreateGEP(IB.getInt8Ty(), IV.Start, Offset, IV.Phi->getName() + ".at.k")
                    : IB.CreateAdd(IV.Start, Offset, IV.Phi->getName() + ".at.k");
    IV.Phi->replaceAllUsesWith(At);
  }
  Frame.foldPartialsInto(Accumulators);
  for (const Reduction &R : Plan.Reductions)
    R.Phi->replaceAllUsesWith(R.Identity);
  if (Exits)
    Exits->startIteration(IB, KInLoop);
  Frame.privatizeStackMemory(IB, S.SlotIndex);
  IB.CreateBr(Header);
  while (auto *Phi = dyn_cast<PHINode>(&Header->front()))
    Phi->eraseFromParent();
  PreTerm->eraseFromParent();
  BranchInst::Create(Adapt ? Adapt->entry() : S.Sched, Preheader);

  // The latch no longer loops: the iteration ends and folds its reductions
  // into the accumulators.
  auto *LatchBr = cast<BranchInst>(Latch->getTerminator());
  Value *ExitTest = LatchBr->getCondition();
  LatchBr->eraseFromParent();
  Instruction *ToIterEnd = BranchInst::Create(IterEnd, Latch);
  if (Waits && Waits->waitsAtIterationEnd())
    WaitAts.push_back(ToIterEnd);
  if (Exits)
    Exits->joinExits(ToIterEnd, IRBuilder<>(S.IterStart->getTerminator()).CreateFreeze(KInLoop, "memcoro.exit.k"));
  // The exit test and the induction updates feeding it are dead now; left in
  // place they would look live across suspensions and be saved for nothing.
  RecursivelyDeleteTriviallyDeadInstructions(ExitTest);
  IRBuilder<> XB(IterEnd);
  XB.SetCurrentDebugLocation(Loc);
  for (unsigned RI = 0; RI < Plan.Reductions.size(); ++RI) {
    const Reduction &R = Plan.Reductions[RI];
    AllocaInst *Acc = Accumulators[RI];
    Value *Partial = XB.CreateLoad(Acc->getAllocatedType(), Acc);
    Value *Part = Exits ? Exits->contribution(XB, RI) : R.LatchValue;
    XB.CreateStore(emitReductionFold(XB, R, Partial, Part), Acc);
    ++NumReductions;
  }
  if (Waits)
    Waits->emitIterationEnd(XB, XB.CreateLoad(I64, S.SlotIndex));
  XB.CreateBr(Gen->afterIteration());

  // done: reductions and induction exit values flow to the loop's users.
  IRBuilder<> DB(Done);
  DB.SetCurrentDebugLocation(Loc);
  for (PHINode &Phi : Exit->phis()) {
    int Idx = Phi.getBasicBlockIndex(Latch);
    Value *Out = Phi.getIncomingValue(Idx);
    for (unsigned RI = 0; RI < Plan.Reductions.size(); ++RI)
      if (Out == Plan.Reductions[RI].LatchValue)
        Out = DB.CreateLoad(Accumulators[RI]->getAllocatedType(), Accumulators[RI], "memcoro.reduced");
    for (auto &[ExitPhi, Code] : ExitValueCode)
      if (ExitPhi == &Phi)
        Out = Code;
    if (AllocaInst *Counter = counterOf(Out))
      Out = DB.CreateLoad(Counter->getAllocatedType(), Counter, "memcoro.appended");
    Phi.setIncomingBlock(Idx, Done);
    Phi.setIncomingValue(Idx, Out);
  }
  for (unsigned RI = 0; RI < Plan.Reductions.size(); ++RI)
    if (Value *Place = Plan.Reductions[RI].MirrorPlace)
      DB.CreateStore(DB.CreateLoad(Accumulators[RI]->getAllocatedType(), Accumulators[RI], "memcoro.reduced"), Place);
  DB.CreateBr(Exit);

  // Recorded now, while LoopInfo still describes these blocks.
  Frame.recordInnerLoopValues();
  SmallVector<CallInst *, 2> OrderedMarkers = getOrderedMarkers(L);

  // Cut each block at its suspension point; the halves stay joined until
  // liveness is known.
  SmallVector<BasicBlock *, 4> Posts;
  for (const Suspension &Sp : Plan.Suspensions) {
    ORE.emit([&] {
      OptimizationRemarkAnalysis R(RemarkPass, "SuspensionPoint", remarkLocation(Sp.At, L), Sp.At->getParent());
      R << "suspension point: "
        << (isa<CallInst>(Sp.Accesses.front())   ? "a callee's access"
            : isa<LoadInst>(Sp.Accesses.front()) ? "load"
                                                 : "store or atomic update")
        << " prefetched, then resumed after " << ore::NV("Interleaved", S.N - 1) << " other iterations";
      if (Sp.Accesses.size() > 1)
        R << " (" << ore::NV("Coalesced", unsigned(Sp.Accesses.size() - 1))
          << (Sp.Accesses.size() == 2 ? " more access shares it)" : " more accesses share it)");
      return R;
    });
    Posts.push_back(SplitBlock(Sp.At->getParent(), Sp.At));
  }
  // Then at each wait point: after a suspension at the same access, so that
  // the access is prefetched before the iteration waits.
  for (Instruction *At : WaitAts)
    Posts.push_back(SplitBlock(At->getParent(), At));
  // Where each wait point is, for its code, taken before the markers go.
  SmallVector<DebugLoc, 4> WaitLocs;
  for (Instruction *At : WaitAts)
    WaitLocs.push_back(At->getDebugLoc() ? At->getDebugLoc() : Loc);
  // The region markers have done their work: nothing moved across them.
  for (CallInst *Marker : OrderedMarkers)
    Marker->eraseFromParent();
  Frame.computeSavedValues(S.IterStart, IterEnd, Posts);
  markUnpredictableSelects();

  SmallVector<Type *, 2> HeaderFields;
  Gen->addHeaderFields(HeaderFields);
  if (Waits)
    Waits->addHeaderFields(HeaderFields);
  Frame.layOutSlots(HeaderFields);
  IRBuilder<> SlotInit(Adapt ? Adapt->windowInit() : Preheader->getTerminator());
  Gen->initSlots(SlotInit);
  if (Waits) {
    IRBuilder<> WB(S.IterStart->getTerminator());
    WB.SetCurrentDebugLocation(Loc);
    Waits->emitIterationStart(WB, WB.CreateLoad(I64, S.SlotIndex), K);
  }

  // sched: one switch on the slot's resume state.
  IRBuilder<> HB(S.Sched);
  HB.SetCurrentDebugLocation(Loc);
  Value *Slot = HB.CreateLoad(I64, S.SlotIndex, "memcoro.s");
  SwitchInst *Dispatch = HB.CreateSwitch(Gen->emitResumeState(HB, Slot), S.Next, S.NumSuspensions + 1);
  Dispatch->addCase(ConstantInt::get(cast<IntegerType>(I32), 0), S.Launch);
  Gen->emitSchedulerBlocks();

  SmallVector<BasicBlock *, 4> Resumes;
  for (unsigned J = 0; J < Plan.Suspensions.size(); ++J) {
    const Suspension &Sp = Plan.Suspensions[J];
    BasicBlock *Pre = Posts[J]->getSinglePredecessor();
    assert(Pre && "a split block has its other half as only predecessor");
    Pre->getTerminator()->eraseFromParent();
    IRBuilder<> YB(Pre);
    YB.SetCurrentDebugLocation(Sp.At->getDebugLoc());
    // An iteration may go on without yielding when the waits say nothing
    // else could run usefully (the one holding the turn). Not through the
    // AMU: its accesses would then read far memory without paying for it.
    if (Value *Skip = Waits && !Plan.ThroughAmu ? Waits->emitSkipsSuspension(YB, YB.CreateLoad(I64, S.SlotIndex))
                                                : nullptr) {
      auto *Yield = BasicBlock::Create(Ctx, "memcoro.yield." + Twine(J + 1), &F, Posts[J]);
      YB.CreateCondBr(Skip, Posts[J], Yield);
      YB.SetInsertPoint(Yield);
    }
    Gen->emitEarlyAccess(YB, Sp);
    Value *YS = YB.CreateLoad(I64, S.SlotIndex);
    Frame.emitSaves(YB, YS, J);
    Gen->emitSuspend(YB, YS, J);
    YB.CreateBr(Gen->afterSuspend(J));

    BasicBlock *Resume = BasicBlock::Create(Ctx, "memcoro.resume." + Twine(J + 1), &F, Posts[J]);
    IRBuilder<> QB(Resume);
    QB.SetCurrentDebugLocation(Sp.At->getDebugLoc());
    Value *QS = QB.CreateLoad(I64, S.SlotIndex);
    Gen->emitResume(QB, QS, J);
    Frame.emitRestores(QB, QS, J, Gen->emitIterationAtResume(QB, J));
    QB.CreateBr(Posts[J]);
    Dispatch->addCase(ConstantInt::get(cast<IntegerType>(I32), J + 1), Resume);
    Resumes.push_back(Resume);
  }
  // Wait points: go on when allowed; otherwise save, yield in the wait's own
  // state, and on each later visit test again before restoring anything.
  for (unsigned W = 0; W < NumWaits; ++W) {
    unsigned J = Plan.Suspensions.size() + W;
    BasicBlock *Pre = Posts[J]->getSinglePredecessor();
    assert(Pre && "a split block has its other half as only predecessor");
    Pre->getTerminator()->eraseFromParent();
    DebugLoc WLoc = W < WaitLocs.size() ? WaitLocs[W] : Loc;
    IRBuilder<> WB(Pre);
    WB.SetCurrentDebugLocation(WLoc);
    auto *Pass = BasicBlock::Create(Ctx, "memcoro.pass." + Twine(W + 1), &F, Posts[J]);
    auto *Wait = BasicBlock::Create(Ctx, "memcoro.wait." + Twine(W + 1), &F, Posts[J]);
    Value *WS = WB.CreateLoad(I64, S.SlotIndex);
    Waits->emitArrive(WB, WS, W);
    WB.CreateCondBr(Waits->emitMayPass(WB, WS, W), Pass, Wait);
    WB.SetInsertPoint(Pass);
    Waits->emitPassed(WB, WS, W);
    WB.CreateBr(Posts[J]);
    WB.SetInsertPoint(Wait);
    Frame.emitSaves(WB, WS, J);
    Gen->emitSuspend(WB, WS, J);
    WB.CreateBr(S.Next);

    auto *Retry = BasicBlock::Create(Ctx, "memcoro.retry." + Twine(W + 1), &F, Posts[J]);
    auto *Resume = BasicBlock::Create(Ctx, "memcoro.resume." + Twine(J + 1), &F, Posts[J]);
    IRBuilder<> RB(Retry);
    RB.SetCurrentDebugLocation(WLoc);
    Value *RS = RB.CreateLoad(I64, S.SlotIndex);
    RB.CreateCondBr(Waits->emitMayPass(RB, RS, W), Resume, S.Next);
    IRBuilder<> QB(Resume);
    QB.SetCurrentDebugLocation(WLoc);
    Frame.emitRestores(QB, RS, J);
    Waits->emitPassed(QB, RS, W);
    QB.CreateBr(Posts[J]);
    Dispatch->addCase(ConstantInt::get(cast<IntegerType>(I32), J + 1), Retry);
    Resumes.push_back(Resume);
  }
  // A locked read-modify-write releases its address right after its store.
  for (unsigned W = 0; W < Plan.Locked.size(); ++W) {
    StoreInst *Store = Plan.Locked[W].second;
    IRBuilder<> Release(Store->getNextNode());
    Release.SetCurrentDebugLocation(Store->getDebugLoc());
    Waits->emitLeave(Release, Release.CreateLoad(I64, S.SlotIndex), W);
  }
  Frame.emitOncePerIterationSaves(S.SlotIndex);

  IRBuilder<> NB(S.Next);
  NB.SetCurrentDebugLocation(Loc);
  Gen->emitNext(NB, NB.CreateAdd(NB.CreateLoad(I64, S.SlotIndex), ConstantInt::get(I64, 1)));

  Frame.repairSSA(Resumes);
  Frame.dropPreservedSaves();
  Gen->beforePromotion();
  if (Adapt)
    Adapt->finish(S.Sched, Done);
  if (Exits)
    Exits->finish(Done, Accumulators, TripCount, S.TripCount, Adapt ? Adapt->windowStart() : nullptr);

  DominatorTree FreshDT(F);
  SmallVector<AllocaInst *, 8> Scalars;
  Gen->promotableState(Scalars);
  if (Waits)
    Waits->promotableState(Scalars);
  append_range(Scalars, Accumulators);
  append_range(Scalars, Counters);
  if (Exits)
    Exits->promotableState(Scalars);
  PromoteMemToReg(Scalars, FreshDT, &A.AC);
  Gen->finishLowering();

  NumSuspensionPoints += Plan.Suspensions.size();
  NumSavedValues += Frame.savedCount();
  NumCoalesced += Plan.Coalesced;
  ++NumLoopsSplit;
  return {Frame.contextBytes(), Frame.savedCount()};
}

/// The serial loop's select on a far value (binary search: base[half] < key ?
/// base + half : base) is compiled to a cmov; inside the state machine, x86's
/// cmov conversion may turn it into a branch that mispredicts half the time.
/// A comparison of data fetched from far memory is as unpredictable as the
/// data, so say so.
void CoroutineLowering::markUnpredictableSelects() {
  SmallPtrSet<Value *, 16> FarLoads;
  if (const auto *Remote = A.RAI.lookup(&L))
    for (const RemoteAccess &RA : *Remote)
      if (isa<LoadInst>(RA.Access))
        FarLoads.insert(RA.Access);
  std::function<bool(Value *, unsigned)> dependsOnFar = [&](Value *V, unsigned Depth) {
    if (FarLoads.contains(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth == 0 || isa<PHINode>(I) || isa<LoadInst>(I) || !Frame.inRegion(I->getParent()))
      return false;
    return any_of(I->operands(), [&](Value *Op) { return dependsOnFar(Op, Depth - 1); });
  };
  for (BasicBlock *BB : Frame.regionBlocks())
    for (Instruction &I : *BB)
      if (auto *Sel = dyn_cast<SelectInst>(&I); Sel && dependsOnFar(Sel->getCondition(), 4))
        Sel->setMetadata(LLVMContext::MD_unpredictable, MDNode::get(A.F.getContext(), {}));
}

LoweredLoop memcoro::lowerToCoroutines(const SplitAnalyses &A, const LoopPlan &Plan,
                                       OptimizationRemarkEmitter &ORE) {
  return CoroutineLowering(A, Plan, ORE).run();
}
