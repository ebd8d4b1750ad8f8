//===- Adaptation.cpp - run-time adaptation: serial samples, N at run time ===//
//
// A step of memcoro-split's lowering (SplitLowering.cpp calls it through
// RunTimeAdaptation, SplitInternal.h). Interleaving pays off only when the
// loop's data is far from the core: on cache-resident data the coroutines'
// bookkeeping makes the loop slower than the serial one, and the best number
// of coroutines depends on the machine and the data. Neither is known at
// compile time, so the loop measures itself. Its iterations run in windows;
// before each window the runtime's controller (runtime/adapt/adapt.c) says
// how many iterations to run and how, serially or interleaved with n
// coroutines, and after it, how many cycles they took:
//
//   preheader: TC, accumulators, counters
//       |
//       v
//   adapt: TC <= budget or TC < min trips ?
//       |    decided: (TC, the decided n) ----------+
//       v                                           |
//   begin: the first window from the controller     |
//       v                                           v
//   +-> pick: lo; (len, n) = decision; hi = min(lo + len, TC); t0 = cycles
//   |     | n == 0                    | n > 0
//   |     v                           v
//   |   serial.ph: IVs at lo,       window: TC' = hi - lo, scheduler state
//   |     reductions, counters        |  for n slots
//   |     v                           v
//   |   the loop as it was,         sched ... the coroutines, iteration
//   |     for lo..hi-1                |     k at lo + k (the lowering's)
//   |     v                           v
//   |   serial.end: reductions,     window.end
//   |     counters stored back        |
//   |     +-------------+-------------+
//   |                   v
//   |   next: decision = next(hi - lo, cycles - t0)   (not when decided)
//   +----- hi < TC ?
//                       v
//                      done (the lowering's): reductions, exit values
//
// Windows run one after the other, and each ends before the next begins, so
// whatever path ran each part of the loop, reductions (folded into the same
// accumulators), append counters (one shared value), ordered code and the
// lock table see the iterations' effects in the order the serial loop has
// them. The serial copy is the loop as it reached memcoro-split, taken
// before the lowering changes it, with its markers and memcoro's loop
// properties removed so that it optimises as a serial loop would.
//
// The controller's state is a thread-local array per loop, so a loop of few
// iterations run often is measured across its executions. Once a check has
// decided, executions that fit in the decision's budget of iterations run as
// decided without calling the controller or reading the cycle counter, and
// so do loops of fewer than -memcoro-adapt-min-trips iterations (with the
// pragma's N before any decision): measuring them would cost more than any
// choice saves.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-adapt -memcoro-adapt-n -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "NestedCalls.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumSampled, "Number of interleaved loops that sample serial iterations at run time");
STATISTIC(NumRunTimeN, "Number of interleaved loops whose N is chosen at run time");

static cl::opt<bool> AdaptSerial(
    "memcoro-adapt", cl::Hidden, cl::init(false),
    cl::desc("Interleaved loops run a sample of iterations serially, measure them, and stay serial when "
             "interleaving is not faster (memcoro-cc's default; -fno-memcoro-adapt)"));

static cl::opt<bool> AdaptN(
    "memcoro-adapt-n", cl::Hidden, cl::init(false),
    cl::desc("Without a parallel(N) clause, choose N at run time by hill climbing on measured throughput "
             "(memcoro-cc's default; -fno-memcoro-adapt-n)"));

namespace {
enum class ForcedDecision { Auto, Serial, Interleaved };
} // namespace

static cl::opt<ForcedDecision> AdaptForce(
    "memcoro-adapt-force", cl::Hidden, cl::init(ForcedDecision::Auto),
    cl::desc("After its samples, an adapting loop always chooses this (tests)"),
    cl::values(clEnumValN(ForcedDecision::Auto, "auto", "whichever was faster"),
               clEnumValN(ForcedDecision::Serial, "serial", "the serial loop"),
               clEnumValN(ForcedDecision::Interleaved, "interleaved", "the interleaved loop")));

static cl::opt<unsigned> AdaptMinTrips(
    "memcoro-adapt-min-trips", cl::Hidden, cl::init(16),
    cl::desc("Loops with fewer iterations run interleaved without measuring: the measurement would cost "
             "more than any choice saves"));

static cl::opt<unsigned> AdaptMaxN("memcoro-adapt-max-n", cl::Hidden, cl::init(64),
                                   cl::desc("The most coroutines run-time N may choose (slots allocated)"));

// A pipeline with one suspension point and no stack object per slot keeps a
// few values per iteration in flight, so twice the slots stay in the L1: gather, update and is at 1 GiB
// run fastest with 128 iterations ahead, as the hand prefetch-distance loop.
static cl::opt<unsigned> AdaptMaxPipelineN(
    "memcoro-adapt-max-n-pipeline", cl::Hidden, cl::init(128),
    cl::desc("The most iterations in flight run-time N may choose for a pipeline with one suspension point "
             "and no stack object per slot"));

/// runtime/adapt/adapt.h: MEMCORO_ADAPT_*, and its sample size for the remark.
enum : unsigned { FlagSample = 1, FlagN = 2, FlagForceSerial = 4, FlagForceInterleaved = 8, FlagPipeline = 16 };
static constexpr unsigned SampleIters = 256;
static constexpr unsigned StateWords = 18;

RunTimeAdaptation::~RunTimeAdaptation() = default;

bool memcoro::adaptsAtRunTime() { return AdaptSerial; }

namespace {

class WindowLoop final : public RunTimeAdaptation {
public:
  WindowLoop(const SplitAnalyses &A, const LoopPlan &Plan, bool Sample, bool ChooseN)
      : Plan(Plan), L(Plan.L), F(A.F), Ctx(F.getContext()), I64(Type::getInt64Ty(Ctx)), Sample(Sample),
        ChooseN(ChooseN) {
    if (Sample)
      cloneSerialLoop(A);
  }

  unsigned slotCount() const override {
    if (!ChooseN)
      return Plan.Parallelism;
    bool Lean = Plan.Style == Dispatch::Pipeline && Plan.Suspensions.size() == 1 && Plan.PrivateAllocas.empty();
    unsigned Most = std::max<unsigned>(Lean ? AdaptMaxPipelineN : AdaptMaxN, Plan.Parallelism);
    return Plan.MaxInFlight ? std::min(Most, Plan.MaxInFlight) : Most;
  }
  Value *buildWindowLoop(Value *TripCount) override;
  BasicBlock *entry() const override { return Entry; }
  Instruction *windowInit() const override { return Window->getTerminator(); }
  Value *windowStart() const override { return Lo; }
  // With the pragma's N every interleaved window runs all of it: a constant
  // lets the ring wrap with a mask and keeps a register free (a variable n
  // cost the other-unit lookup of bench/calls 15 instructions per key).
  Value *activeSlots() const override { return ChooseN ? ActiveN : nullptr; }
  BasicBlock *windowEnd() const override { return WindowEnd; }
  void connectSerialLoop(ArrayRef<InductionStart> IVs, ArrayRef<AllocaInst *> Accumulators,
                         ArrayRef<AllocaInst *> Counters) override;
  void carryExitTest(ArrayRef<AllocaInst *> Cursors, AllocaInst *Limit) override {
    LaunchCursors.assign(Cursors.begin(), Cursors.end());
    LaunchLimit = Limit;
  }
  void finish(BasicBlock *Sched, BasicBlock *Done) override;

private:
  void cloneSerialLoop(const SplitAnalyses &A);
  Value *stateAddress(IRBuilder<> &B);

  const LoopPlan &Plan;
  Loop &L;
  Function &F;
  LLVMContext &Ctx;
  Type *I64;
  bool Sample, ChooseN;

  /// The serial copy: its header and latch, and the copies of the header
  /// phis and of the values their latch edges carry, taken at cloning (the
  /// lowering later replaces the originals).
  BasicBlock *CloneHeader = nullptr, *CloneLatch = nullptr;
  SmallPtrSet<BasicBlock *, 16> CloneBlocks;
  SmallVector<PHINode *, 2> CloneIVs, CloneReductions, CloneCounters;
  SmallVector<Value *, 2> CloneReductionOut, CloneCounterOut;
  /// An exit test at launch: the copies of the values it carries, of what
  /// the next iteration starts from, and where the launches keep them.
  SmallVector<PHINode *, 1> CloneChains;
  SmallVector<Value *, 1> CloneChainNext;
  SmallVector<AllocaInst *, 1> LaunchCursors;
  AllocaInst *LaunchLimit = nullptr;

  Value *TripCount = nullptr;
  BasicBlock *Entry = nullptr, *Window = nullptr, *WindowEnd = nullptr, *SerialPh = nullptr,
             *SerialEnd = nullptr, *More = nullptr;
  PHINode *Lo = nullptr;
  Value *Hi = nullptr, *ActiveN = nullptr;
};

} // namespace

/// Gives the serial copy a stack object of its own in place of \p Alloca,
/// one the iterations of the loop have each their own copy of: the lowering
/// replaces the original by one copy per slot, whose address exists only
/// inside the interleaved iterations. The address arithmetic LICM hoisted out
/// of the loop is copied with it. The serial copy runs one iteration at a
/// time, so one object serves them all, as in the loop without the pragma.
static void twinStackObject(AllocaInst &Alloca, const Loop &L, ValueToValueMapTy &VMap) {
  Instruction *Twin = Alloca.clone();
  Twin->insertAfter(&Alloca);
  Twin->setName(Alloca.getName() + ".serial");
  VMap[&Alloca] = Twin;
  SmallVector<Instruction *, 8> Work = {&Alloca};
  while (!Work.empty()) {
    SmallVector<User *, 8> Users(Work.pop_back_val()->users());
    for (User *U : Users)
      if (auto *UI = dyn_cast<Instruction>(U);
          UI && !L.contains(UI) && (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI)) && !VMap.count(UI)) {
        Instruction *Copy = UI->clone();
        Copy->insertAfter(UI);
        RemapInstruction(Copy, VMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
        VMap[UI] = Copy;
        Work.push_back(UI);
      }
  }
}

void WindowLoop::cloneSerialLoop(const SplitAnalyses &A) {
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : L.blocks()) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, ".serial", &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  for (AllocaInst *Alloca : Plan.PrivateAllocas)
    twinStackObject(*Alloca, L, VMap);
  remapInstructionsInBlocks(Clones, VMap);
  CloneBlocks.insert(Clones.begin(), Clones.end());
  CloneHeader = cast<BasicBlock>(VMap[Plan.Header]);
  CloneLatch = cast<BasicBlock>(VMap[Plan.Latch]);
  auto mapped = [&](Value *V) { return VMap.count(V) ? static_cast<Value *>(VMap[V]) : V; };
  for (PHINode *Phi : Plan.Inductions)
    CloneIVs.push_back(cast<PHINode>(VMap[Phi]));
  for (const Reduction &R : Plan.Reductions) {
    CloneReductions.push_back(cast<PHINode>(VMap[R.Phi]));
    CloneReductionOut.push_back(mapped(R.LatchValue));
  }
  for (const AppendCounter &C : Plan.Counters) {
    CloneCounters.push_back(cast<PHINode>(VMap[C.Phi]));
    CloneCounterOut.push_back(mapped(C.Phi->getIncomingValueForBlock(Plan.Latch)));
  }
  for (PHINode *Chain : Plan.LaunchChains) {
    CloneChains.push_back(cast<PHINode>(VMap[Chain]));
    CloneChainNext.push_back(mapped(Chain->getIncomingValueForBlock(Plan.Latch)));
  }
  // A serial loop runs its ordered regions in order by itself.
  for (CallInst *Marker : getOrderedMarkers(L))
    cast<Instruction>(VMap[Marker])->eraseFromParent();
  // A ring's copy runs while the coroutines measure no faster, and then
  // prefetches its gathers ahead (PrefetchSerialCopy.cpp). The AMU's far
  // memory is not reached through the cache.
  const auto *Remote = A.RAI.lookup(&L);
  if (Plan.Style == Dispatch::Ring && Remote && !reachesFarMemory(*Remote)) {
    SmallVector<Instruction *, 8> Copies;
    for (const RemoteAccess &RA : *Remote)
      if (auto *Copy = dyn_cast_or_null<Instruction>(static_cast<Value *>(VMap.lookup(RA.Access))))
        Copies.push_back(Copy);
    markSerialCopyForPrefetch(*CloneHeader, Copies);
  }
  // The copy is an ordinary loop: memcoro's properties go (it would be marked
  // again otherwise), and so does the unrolling memcoro-mark turned off.
  for (BasicBlock *Clone : Clones)
    if (MDNode *Id = Clone->getTerminator()->getMetadata(LLVMContext::MD_loop)) {
      SmallVector<StringRef, 2> Drop = {"memcoro."};
      if (Clone == CloneLatch)
        Drop.push_back("llvm.loop.unroll.disable");
      Clone->getTerminator()->setMetadata(LLVMContext::MD_loop,
                                          makePostTransformationMetadata(Ctx, Id, Drop, {}));
    }
  // Serially a callee of another unit has nothing to overlap its misses
  // with: the copy makes the plain call the loop without the pragma makes,
  // and the code that resumes it goes.
  if (callNestedCalleesPlainly(Clones)) {
    SmallPtrSet<BasicBlock *, 16> Live;
    SmallVector<BasicBlock *, 16> Work = {CloneHeader};
    while (!Work.empty())
      if (BasicBlock *BB = Work.pop_back_val(); Live.insert(BB).second)
        append_range(Work, successors(BB));
    SmallVector<BasicBlock *, 8> Dead;
    for (BasicBlock *Clone : Clones)
      if (!Live.contains(Clone))
        Dead.push_back(Clone);
    DeleteDeadBlocks(Dead);
  }
  // Edges out of the loop other than the latch's (to code that ends the
  // program, early exits) leave from the copy too.
  for (BasicBlock *BB : L.blocks())
    for (BasicBlock *Succ : successors(BB))
      if (!L.contains(Succ) && (Succ != Plan.Exit || BB != Plan.Latch))
        for (PHINode &Phi : Succ->phis())
          if (int Idx = Phi.getBasicBlockIndex(BB); Idx >= 0)
            Phi.addIncoming(mapped(Phi.getIncomingValue(Idx)), cast<BasicBlock>(VMap[BB]));
}

/// The controller's state for this loop on this thread (struct memcoro_adapt).
Value *WindowLoop::stateAddress(IRBuilder<> &B) {
  auto *Ty = ArrayType::get(I64, StateWords);
  auto *State = new GlobalVariable(*F.getParent(), Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                   Constant::getNullValue(Ty), "memcoro.adapt." + F.getName(), nullptr,
                                   GlobalValue::GeneralDynamicTLSModel);
  State->setAlignment(Align(8));
  return B.CreateThreadLocalAddress(State);
}

Value *WindowLoop::buildWindowLoop(Value *TC) {
  TripCount = TC;
  Entry = BasicBlock::Create(Ctx, "memcoro.adapt", &F, Plan.Header);
  auto *Fast = BasicBlock::Create(Ctx, "memcoro.adapt.decided", &F, Plan.Header);
  auto *Begin = BasicBlock::Create(Ctx, "memcoro.adapt.begin", &F, Plan.Header);
  auto *Pick = BasicBlock::Create(Ctx, "memcoro.adapt.pick", &F, Plan.Header);
  Window = BasicBlock::Create(Ctx, "memcoro.window", &F, Plan.Header);
  WindowEnd = BasicBlock::Create(Ctx, "memcoro.window.end", &F, Plan.Exit);
  auto *Next = BasicBlock::Create(Ctx, "memcoro.adapt.next", &F, Plan.Exit);
  auto *Report = BasicBlock::Create(Ctx, "memcoro.adapt.report", &F, Plan.Exit);
  More = BasicBlock::Create(Ctx, "memcoro.adapt.more", &F, Plan.Exit);
  DebugLoc Loc = L.getStartLoc();
  Module &M = *F.getParent();
  Type *I32 = Type::getInt32Ty(Ctx);
  PointerType *Ptr = PointerType::get(Ctx, 0);
  const bool Open = Plan.ExitAtLaunch;
  // Run-time N starts its climb at the most slots: where interleaving wins
  // the data is far, and more iterations in flight usually help, up to what
  // the core can keep outstanding (bench/adapt: 64 was the best fixed N of
  // every suite kernel at 256 MiB).
  unsigned N0 = ChooseN ? slotCount() : Plan.Parallelism;
  unsigned Flags = (Sample ? FlagSample : 0) | (ChooseN ? FlagN : 0) |
                   (Plan.Style == Dispatch::Pipeline ? FlagPipeline : 0) |
                   (AdaptForce == ForcedDecision::Serial        ? FlagForceSerial
                    : AdaptForce == ForcedDecision::Interleaved ? FlagForceInterleaved
                                                                : 0);

  // Once decided, an execution within the decision's budget runs as one
  // window, unmeasured: no call, no read of the cycle counter (which may
  // trap to the hypervisor). So does a loop too short to measure, as
  // decided, or with the pragma's N before any decision.
  IRBuilder<> EB(Entry);
  EB.SetCurrentDebugLocation(Loc);
  Value *St = stateAddress(EB);
  Value *Budget = EB.CreateLoad(I64, St, "memcoro.budget");
  Value *Run = EB.CreateLoad(I64, EB.CreateConstGEP1_64(I64, St, 1), "memcoro.run");
  IRBuilder<> FB(Fast);
  FB.SetCurrentDebugLocation(Loc);
  // How many iterations an exit test at launch lets run is known only once
  // they have: such an execution runs as decided for what is left of the
  // budget, spends what it ran (memcoro.adapt.spend), and goes on measured
  // if the loop goes on.
  Value *Whole = TC;
  if (Open) {
    EB.CreateCondBr(EB.CreateICmpNE(Budget, EB.getInt64(0)), Fast, Begin);
    Whole = FB.CreateBinaryIntrinsic(Intrinsic::umin, Budget, FB.getInt64(uint64_t(1) << 48));
  } else {
    Value *Within = EB.CreateICmpULE(TC, Budget);
    EB.CreateCondBr(EB.CreateOr(EB.CreateICmpULT(TC, EB.getInt64(AdaptMinTrips)), Within), Fast, Begin);
    FB.CreateStore(FB.CreateSelect(Within, FB.CreateSub(Budget, TC), Budget), St);
  }
  Value *Decided = FB.CreateSelect(FB.CreateICmpEQ(Run, FB.getInt64(0)), FB.getInt64(N0),
                                   FB.CreateSub(Run, FB.getInt64(1)));
  Whole = FB.CreateOr(FB.CreateShl(Whole, 8), Decided, "memcoro.adapt.whole");
  FB.CreateBr(Pick);

  IRBuilder<> BB(Begin);
  BB.SetCurrentDebugLocation(Loc);
  PHINode *From = Open ? BB.CreatePHI(I64, 2, "memcoro.adapt.from") : nullptr;
  if (From)
    From->addIncoming(BB.getInt64(0), Entry);
  FunctionCallee BeginFn = M.getOrInsertFunction("__memcoro_adapt_begin", I64, Ptr, I32, I32, I32);
  Value *First = BB.CreateCall(BeginFn, {St, BB.getInt32(Flags), BB.getInt32(N0),
                                         BB.getInt32(slotCount())}, "memcoro.adapt.first");
  BB.CreateBr(Pick);

  // pick: the window [lo, hi) and how it runs.
  IRBuilder<> PB(Pick);
  PB.SetCurrentDebugLocation(Loc);
  Lo = PB.CreatePHI(I64, 3, "memcoro.lo");
  PHINode *Decision = PB.CreatePHI(I64, 3, "memcoro.decision");
  PHINode *Measured = PB.CreatePHI(PB.getInt1Ty(), 3, "memcoro.measured");
  Lo->addIncoming(PB.getInt64(0), Fast);
  Decision->addIncoming(Whole, Fast);
  Measured->addIncoming(PB.getFalse(), Fast);
  Lo->addIncoming(From ? static_cast<Value *>(From) : PB.getInt64(0), Begin);
  Decision->addIncoming(First, Begin);
  Measured->addIncoming(PB.getTrue(), Begin);
  Value *Len = PB.CreateBinaryIntrinsic(Intrinsic::umax, PB.CreateLShr(Decision, 8), PB.getInt64(1));
  Hi = PB.CreateBinaryIntrinsic(Intrinsic::umin, PB.CreateAdd(Lo, Len), TC, nullptr, "memcoro.hi");
  Value *N = PB.CreateAnd(Decision, 255, "memcoro.n");
  // Only measured windows read the cycle counter.
  auto *Clock = BasicBlock::Create(Ctx, "memcoro.adapt.clock", &F, Window);
  auto *Go = BasicBlock::Create(Ctx, "memcoro.adapt.go", &F, Window);
  PB.CreateCondBr(Measured, Clock, Go);
  Function *Cycles = Intrinsic::getDeclaration(&M, Intrinsic::readcyclecounter);
  IRBuilder<> CB(Clock);
  CB.SetCurrentDebugLocation(Loc);
  Value *Start = CB.CreateCall(Cycles, {}, "memcoro.t0");
  CB.CreateBr(Go);
  PB.SetInsertPoint(Go);
  PHINode *T0 = PB.CreatePHI(I64, 2);
  T0->addIncoming(PB.getInt64(0), Pick);
  T0->addIncoming(Start, Clock);

  IRBuilder<> WB(Window);
  WB.SetCurrentDebugLocation(Loc);
  Value *WindowTrips = WB.CreateSub(Hi, Lo, "memcoro.window.trips");
  ActiveN = N;
  WB.CreateUnreachable();

  if (Sample) {
    SerialPh = BasicBlock::Create(Ctx, "memcoro.serial.ph", &F, CloneHeader);
    SerialEnd = BasicBlock::Create(Ctx, "memcoro.serial.end", &F, Plan.Exit);
    PB.CreateCondBr(PB.CreateICmpEQ(N, PB.getInt64(0)), SerialPh, Window);
    BranchInst::Create(Next, SerialEnd);
  } else {
    PB.CreateBr(Window);
  }
  BranchInst::Create(Next, WindowEnd);

  IRBuilder<> NB(Next);
  NB.SetCurrentDebugLocation(Loc);
  // An exit may have ended the window before hi (TC reads the limit then).
  auto ran = [&](IRBuilder<> &B) { return B.CreateSub(B.CreateBinaryIntrinsic(Intrinsic::umin, Hi, TC), Lo); };
  BasicBlock *Unmeasured = Next;
  if (Open) {
    Unmeasured = BasicBlock::Create(Ctx, "memcoro.adapt.spend", &F, More);
    IRBuilder<> SB(Unmeasured);
    SB.SetCurrentDebugLocation(Loc);
    SB.CreateStore(SB.CreateSub(Budget, SB.CreateBinaryIntrinsic(Intrinsic::umin, ran(SB), Budget)), St);
    From->addIncoming(Hi, Unmeasured);
    SB.CreateCondBr(SB.CreateICmpULT(Hi, TC), Begin, More);
  }
  NB.CreateCondBr(Measured, Report, Unmeasured == Next ? More : Unmeasured);
  IRBuilder<> RB(Report);
  RB.SetCurrentDebugLocation(Loc);
  FunctionCallee NextFn = M.getOrInsertFunction("__memcoro_adapt_next", I64, Ptr, I64, I64);
  Value *Spent = RB.CreateSub(RB.CreateCall(Cycles, {}, "memcoro.t1"), T0);
  Value *Then = RB.CreateCall(NextFn, {St, ran(RB), Spent}, "memcoro.adapt.then");
  RB.CreateBr(More);
  IRBuilder<> MB(More);
  MB.SetCurrentDebugLocation(Loc);
  PHINode *NextDecision = MB.CreatePHI(I64, 2);
  NextDecision->addIncoming(Then, Report);
  NextDecision->addIncoming(Decision, Unmeasured);
  Lo->addIncoming(Hi, More);
  Decision->addIncoming(NextDecision, More);
  Measured->addIncoming(Measured, More);
  return WindowTrips;
}

void WindowLoop::connectSerialLoop(ArrayRef<InductionStart> IVs, ArrayRef<AllocaInst *> Accumulators,
                                   ArrayRef<AllocaInst *> Counters) {
  if (!Sample)
    return;
  IRBuilder<> SB(SerialPh);
  SB.SetCurrentDebugLocation(L.getStartLoc());
  auto enter = [&](PHINode *Phi, Value *V) {
    Phi->setIncomingBlock(Phi->getBasicBlockIndex(Plan.Preheader), SerialPh);
    Phi->setIncomingValue(Phi->getBasicBlockIndex(SerialPh), V);
  };
  // Induction variable I's value in iteration K.
  auto ivAt = [&](unsigned I, Value *K) {
    Value *Offset = SB.CreateMul(SB.CreateZExtOrTrunc(K, IVs[I].Step->getType()), IVs[I].Step);
    return CloneIVs[I]->getType()->isPointerTy() ? SB.CreateGEP(SB.getInt8Ty(), IVs[I].Start, Offset)
                                                 : SB.CreateAdd(IVs[I].Start, Offset);
  };
  for (unsigned I = 0; I < IVs.size(); ++I)
    enter(CloneIVs[I], ivAt(I, Lo));
  for (unsigned R = 0; R < Accumulators.size(); ++R)
    enter(CloneReductions[R], SB.CreateLoad(Accumulators[R]->getAllocatedType(), Accumulators[R]));
  for (unsigned C = 0; C < Counters.size(); ++C)
    enter(CloneCounters[C], SB.CreateLoad(Counters[C]->getAllocatedType(), Counters[C]));
  for (unsigned C = 0; C < LaunchCursors.size(); ++C)
    enter(CloneChains[C], SB.CreateLoad(LaunchCursors[C]->getAllocatedType(), LaunchCursors[C]));
  SB.CreateBr(CloneHeader);

  // The copy runs iterations lo..hi-1: its own count replaces the exit test
  // (the exit's phis never had an edge from the copy). An exit test at
  // launch stays besides the count: when it fails, no iteration after this
  // one exists, and the limit says so to the window loop. In a copy of one
  // block the two tests branch apart, the count in a latch of its own, so
  // that the copy tests the count once per block of iterations
  // (countSerialCopyPerBlock); a larger copy tests both in one branch (apart,
  // LSR gave the walk with a filter a second counter).
  auto *OldBr = cast<BranchInst>(CloneLatch->getTerminator());
  Value *OldTest = OldBr->isConditional() ? OldBr->getCondition() : nullptr;
  // A loop whose own test compares an induction variable with a value of
  // outside the loop counts the window on that variable, as it counted its
  // trips: with a count of its own beside it, the copy of update's
  // `t[ix[i]] ^= i` was unrolled by 2 where the loop without the pragma is
  // unrolled by 4. The variable's values are distinct over the loop's
  // iterations (were one repeated, the test would repeat too and the loop
  // never end), so iteration hi is where it reaches its value at hi.
  IRBuilder<> LB(OldBr);
  Value *InWindow = nullptr;
  if (!LaunchLimit && !Plan.NestTrips)
    if (auto *Cmp = dyn_cast_or_null<ICmpInst>(OldTest))
      for (unsigned I = 0; I < IVs.size() && !InWindow; ++I) {
        PHINode *IV = CloneIVs[I];
        Value *Next = IV->getIncomingValueForBlock(CloneLatch);
        auto outside = [&](Value *V) {
          auto *Inst = dyn_cast<Instruction>(V);
          return !Inst || !CloneBlocks.contains(Inst->getParent());
        };
        Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
        if (((A == IV || A == Next) && outside(B)) || ((B == IV || B == Next) && outside(A))) {
          SB.SetInsertPoint(SerialPh->getTerminator());
          InWindow = LB.CreateICmpNE(Next, ivAt(I, Hi), "memcoro.serial.in");
        }
      }
  PHINode *K = nullptr;
  Value *KNext = nullptr, *Goes = nullptr;
  if (!InWindow) {
    K = PHINode::Create(I64, 2, "memcoro.serial.k", CloneHeader->getFirstNonPHIIt());
    KNext = LB.CreateAdd(K, LB.getInt64(1));
    InWindow = LB.CreateICmpNE(KNext, Hi);
  }
  if (LaunchLimit && OldTest)
    Goes = OldBr->getSuccessor(0) == CloneHeader ? OldTest : LB.CreateNot(OldTest);
  bool PerBlock = Goes && CloneHeader == CloneLatch && !Plan.NestTrips;
  BasicBlock *CountLatch = CloneLatch;
  if (PerBlock) {
    CountLatch = BasicBlock::Create(Ctx, "memcoro.serial.count", &F, SerialEnd);
    LB.CreateCondBr(Goes, CountLatch, SerialEnd);
    LB.SetInsertPoint(CountLatch);
    for (PHINode &Phi : CloneHeader->phis())
      Phi.replaceIncomingBlockWith(CloneLatch, CountLatch);
  }
  BranchInst *NewBr =
      LB.CreateCondBr(Goes && !PerBlock ? LB.CreateAnd(Goes, InWindow) : InWindow, CloneHeader, SerialEnd);
  NewBr->setMetadata(LLVMContext::MD_loop, OldBr->getMetadata(LLVMContext::MD_loop));
  OldBr->eraseFromParent();
  if (OldTest && !Goes)
    RecursivelyDeleteTriviallyDeadInstructions(OldTest);
  if (K) {
    K->addIncoming(Lo, SerialPh);
    K->addIncoming(KNext, CountLatch);
  }

  IRBuilder<> EB(SerialEnd->getTerminator());
  for (unsigned C = 0; C < LaunchCursors.size(); ++C)
    EB.CreateStore(CloneChainNext[C], LaunchCursors[C]);
  if (Goes) {
    // The limit is lowered to the iteration after the one whose test failed
    // (with exits apart, the phi takes that iteration's copy from each).
    Value *Old = EB.CreateLoad(I64, LaunchLimit);
    if (PerBlock) {
      PHINode *Last = PHINode::Create(I64, 2, "memcoro.serial.last", SerialEnd->begin());
      Last->addIncoming(KNext, CloneLatch);
      Last->addIncoming(EB.getInt64(~uint64_t(0)), CountLatch);
      EB.CreateStore(EB.CreateBinaryIntrinsic(Intrinsic::umin, Old, Last), LaunchLimit);
    } else {
      EB.CreateStore(EB.CreateSelect(Goes, Old, EB.CreateBinaryIntrinsic(Intrinsic::umin, Old, KNext)), LaunchLimit);
    }
  }
  for (unsigned R = 0; R < Accumulators.size(); ++R)
    EB.CreateStore(CloneReductionOut[R], Accumulators[R]);
  for (unsigned C = 0; C < Counters.size(); ++C)
    EB.CreateStore(CloneCounterOut[C], Counters[C]);
  if (Plan.NestTrips)
    nestSerialCopy(SerialPh, CloneHeader, CountLatch, SerialEnd, Lo, Hi, Plan.NestTrips);
  else if (PerBlock)
    countSerialCopyPerBlock(SerialPh, CloneHeader, CountLatch, SerialEnd, K, Hi);
  // A copy with stack objects of its own stays in place (OutlineSerialCopy.cpp).
  if (Plan.PrivateAllocas.empty())
    markSerialCopyEntry(*SerialPh);
}

void WindowLoop::finish(BasicBlock *Sched, BasicBlock *Done) {
  Window->getTerminator()->eraseFromParent();
  BranchInst::Create(Sched, Window);
  IRBuilder<> MB(More);
  MB.SetCurrentDebugLocation(L.getStartLoc());
  MB.CreateCondBr(MB.CreateICmpULT(Hi, TripCount), Lo->getParent(), Done);
}

std::unique_ptr<RunTimeAdaptation> memcoro::createRunTimeAdaptation(const SplitAnalyses &A, const LoopPlan &Plan,
                                                                    OptimizationRemarkEmitter &ORE) {
  bool ChooseN = AdaptN && Plan.ParallelismChosen;
  bool Sample = AdaptSerial;
  if (!Sample && !ChooseN)
    return nullptr;
  Loop &L = Plan.L;
  // The AMU's schedulers keep requests in flight across windows. A
  // scavenging loop lends the stalls of its last slot, which windows would
  // multiply.
  const char *Why = Plan.ThroughAmu     ? "its far accesses go through the AMU"
                    : Plan.ScavengeNs ? "its stalls are lent to scavengers (-fmemcoro-scavenge)"
                                      : nullptr;
  // A value of the loop used outside it other than through the exit's phis
  // could not be given the serial copy's value.
  if (!Why && Sample)
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        for (User *U : I.users())
          if (auto *UI = cast<Instruction>(U); !L.contains(UI) && !isa<PHINode>(UI))
            Why = "a value of the loop is used outside it";
  if (Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " does not adapt: " << Why << "\n");
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "NotAdaptive", L.getStartLoc(), L.getHeader())
             << "loop does not adapt at run time: " << Why;
    });
    return nullptr;
  }
  auto Adapt = std::make_unique<WindowLoop>(A, Plan, Sample, ChooseN);
  NumSampled += Sample;
  NumRunTimeN += ChooseN;
  ORE.emit([&] {
    OptimizationRemark R(RemarkPass, "Adaptive", L.getStartLoc(), L.getHeader());
    R << "loop adapts at run time:";
    if (Sample)
      R << " it runs a sample of " << ore::NV("SampleIterations", SampleIters)
        << " iterations serially and stays serial while they are not slower than interleaved ones (checked "
           "again every 16Ki to 4Mi iterations)";
    if (Sample && ChooseN)
      R << ";";
    if (ChooseN)
      R << " the number of coroutines is chosen at run time, up to " << ore::NV("MaxParallelism", Adapt->slotCount())
        << ", by hill climbing on measured throughput";
    return R;
  });
  return Adapt;
}
