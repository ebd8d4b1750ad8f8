//===- PrefetchSwitch.cpp - the loop as written or the prefetching loop ----===//
//
// A step of memcoro-split around the prefetch-ahead code generator
// (PrefetchAhead.cpp; Split.cpp calls emitPrefetchSwitch in its place). On
// data near the core the prefetches ahead only cost instructions: bfs at
// 1 MiB ran at 0.7x the loop as written, where at 1 GiB it runs at
// 1.35-1.5x (docs/bench.md). Which of the two a run needs is known only at run time,
// so the loop is kept twice, the loop as written and the prefetching loop,
// and a controller in the runtime (runtime/adapt/switch.c, beside run-time
// adaptation's) picks one for each window of work from the cycles it takes,
// measuring the two copies in alternate windows: 0 is the loop as written,
// 1 the prefetching loop.
//
//   preheader -> pick: decided and budget left ? (budget, run - 1, t0 = 0)
//                      : __memcoro_switch_begin, t0 = cycles
//       | n == 0                      | n == 1
//       v                             v
//   the loop as written    <->    the prefetching loop
//       |   each backedge counts the window's work down; at 0 it goes to
//       |   memcoro.prefetch.switch, which reports the window, asks for the
//       |   next and enters either header with the values of the header phis
//       v
//   exit: unmeasured (t0 = 0): the work comes off the budget in place;
//         measured: __memcoro_switch_next with its cycles
//
// Both copies carry the same header phis, so a switch between iterations
// changes nothing of what the loop computes: the order and the values are
// the serial loop's throughout. Once decided, an execution within the
// decision's budget reads no cycle counter and calls nothing.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/PrefetchSwitch.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumPrefetchSwitches, "Number of prefetching loops switched at run time with the loop as written");

namespace {
enum class SwitchMode { Auto, Plain, Prefetch, Off };
} // namespace

static cl::opt<SwitchMode> PrefetchSwitchMode(
    "memcoro-prefetch-switch", cl::Hidden, cl::init(SwitchMode::Auto),
    cl::desc("Under -memcoro-adapt, switch a prefetching loop with the loop as written at run time"),
    cl::values(clEnumValN(SwitchMode::Auto, "auto", "whichever measures faster"),
               clEnumValN(SwitchMode::Plain, "plain", "after its samples, the loop as written (tests)"),
               clEnumValN(SwitchMode::Prefetch, "prefetch", "after its samples, the prefetching loop (tests)"),
               clEnumValN(SwitchMode::Off, "off", "always the prefetching loop")));

static constexpr unsigned StateWords = 16;

LoopCopy memcoro::copyOf(BasicBlock *Header, BasicBlock *Latch) {
  LoopCopy C{Header, Latch, {}, {}};
  for (PHINode &Phi : Header->phis()) {
    C.Phis.push_back(&Phi);
    C.Next.push_back(Phi.getIncomingValueForBlock(Latch));
  }
  return C;
}

namespace {

/// The loop as written, before the prefetches go in: an ordinary loop,
/// unreachable until wired, leaving through the same exit block.
LoopCopy clonePlainLoop(Loop &L, BasicBlock *Exit) {
  Function &F = *L.getHeader()->getParent();
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : L.blocks()) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, ".plain", &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  remapInstructionsInBlocks(Clones, VMap);
  // Loop ids are distinct per loop: the copies get their own.
  for (BasicBlock *Clone : Clones)
    if (MDNode *Id = Clone->getTerminator()->getMetadata(LLVMContext::MD_loop))
      Clone->getTerminator()->setMetadata(LLVMContext::MD_loop,
                                          makePostTransformationMetadata(F.getContext(), Id, {"memcoro."}, {}));
  for (PHINode &Phi : Exit->phis())
    for (BasicBlock *BB : L.blocks())
      if (int Idx = Phi.getBasicBlockIndex(BB); Idx >= 0) {
        Value *V = Phi.getIncomingValue(Idx);
        Phi.addIncoming(VMap.count(V) ? static_cast<Value *>(VMap[V]) : V, cast<BasicBlock>(VMap[BB]));
      }
  return copyOf(cast<BasicBlock>(VMap[L.getHeader()]), cast<BasicBlock>(VMap[L.getLoopLatch()]));
}

/// Iterations differ in their work (a hub's edge list against a leaf's), and
/// the first windows of a BFS run the hubs: cycles per iteration of the
/// marked loop told the two copies apart by their vertices, not their code
/// (bfs at 1 MiB: 230K cycles per 1024 for the loop as written's first 256
/// vertices, 107K for the prefetching loop's next 1024). So a window counts
/// work: one per iteration and one per trip of each inner loop whose trip
/// count its induction variable gives (its end at the exit less its start),
/// kept in a stack counter that the backedge reads and clears.
/// Null when no inner loop has one.
AllocaInst *countInnerTrips(const SplitAnalyses &A, Loop &L) {
  SmallVector<std::pair<Loop *, PHINode *>, 2> Counted;
  for (Loop *Inner : L.getLoopsInPreorder()) {
    BasicBlock *Latch = Inner->getLoopLatch(), *Exit = Inner->getUniqueExitBlock();
    if (Inner == &L || !Latch || Inner->getExitingBlock() != Latch || !Exit || !Inner->getLoopPreheader())
      continue;
    for (PHINode &Phi : Inner->getHeader()->phis()) {
      std::optional<APInt> Step = constantStepIn(A.SE, *Inner, &Phi);
      if (Phi.getType()->isIntegerTy(64) && Step && Step->isStrictlyPositive()) {
        Counted.push_back({Inner, &Phi});
        break;
      }
    }
  }
  if (Counted.empty())
    return nullptr;
  Function &F = *L.getHeader()->getParent();
  IRBuilder<> AB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Work = AB.CreateAlloca(AB.getInt64Ty(), nullptr, "memcoro.window.work");
  IRBuilder<> PB(L.getLoopPreheader()->getTerminator());
  PB.CreateStore(PB.getInt64(0), Work, /*isVolatile=*/true);
  for (auto [Inner, Phi] : Counted) {
    BasicBlock *Exit = Inner->getUniqueExitBlock();
    if (any_of(predecessors(Exit), [&](BasicBlock *P) { return !Inner->contains(P); }))
      continue;
    auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    uint64_t Step = cast<SCEVConstant>(AR->getStepRecurrence(A.SE))->getAPInt().getZExtValue();
    // The start comes off on the way in and the end goes on at the exit,
    // in memory: as a register, `end - start` kept the start live through
    // the inner loop and gave it a second induction variable, two
    // instructions an edge (bfs at 1 GiB: 10% slower). In memory it costs a
    // few instructions per inner loop.
    BasicBlock *Pre = Inner->getLoopPreheader();
    IRBuilder<> PB(Pre->getTerminator());
    Value *Start = PB.CreateUDiv(Phi->getIncomingValueForBlock(Pre), PB.getInt64(Step));
    PB.CreateStore(PB.CreateSub(PB.CreateLoad(PB.getInt64Ty(), Work, /*isVolatile=*/true), Start), Work,
                   /*isVolatile=*/true);
    IRBuilder<> B(&*Exit->getFirstInsertionPt());
    Value *End = B.CreateUDiv(Phi->getIncomingValueForBlock(Inner->getLoopLatch()), B.getInt64(Step));
    B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Work, /*isVolatile=*/true), End), Work,
                  /*isVolatile=*/true);
  }
  return Work;
}

class SwitchWiring {
public:
  SwitchWiring(Loop &L, BasicBlock *Preheader, BasicBlock *Exit, AllocaInst *Work, unsigned Flags)
      : Flags(Flags), L(L), F(*L.getHeader()->getParent()), Ctx(F.getContext()), M(*F.getParent()),
        I64(Type::getInt64Ty(Ctx)), Preheader(Preheader), Exit(Exit), Work(Work) {}
  void wire(LoopCopy &Plain, LoopCopy &Prefetching, LoopInfo &LI);

private:
  /// The window's counters as header phis of \p C, entered from \p Pick and \p Switch.
  void addCounters(LoopCopy &C, BasicBlock *Pick, BasicBlock *Switch);
  /// A backedge block of \p C that counts the window down and leaves for \p Switch at 0.
  BasicBlock *countDown(LoopCopy &C, BasicBlock *Switch);
  /// The work of the iteration that ends here: one, and its inner trips (cleared).
  Value *iterationWork(IRBuilder<> &B, bool Clear);

  unsigned Flags;
  Loop &L;
  Function &F;
  LLVMContext &Ctx;
  Module &M;
  Type *I64;
  BasicBlock *Preheader, *Exit;
  AllocaInst *Work;
  SwitchEntry In;
  PHINode *SwitchWindow = nullptr, *SwitchT0 = nullptr;
  Value *NextT0 = nullptr, *NextWindow = nullptr;
  /// Per copy: left, window, t0 (header phis).
  DenseMap<BasicBlock *, std::array<PHINode *, 3>> Counters;
};

} // namespace

static Value *stateAddress(IRBuilder<> &B, Function &F) {
  Module &M = *F.getParent();
  auto *Ty = ArrayType::get(B.getInt64Ty(), StateWords);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage, Constant::getNullValue(Ty),
                                "memcoro.prefetch.switch." + F.getName(), nullptr,
                                GlobalValue::GeneralDynamicTLSModel);
  GV->setAlignment(Align(8));
  return B.CreateThreadLocalAddress(GV);
}

void SwitchWiring::addCounters(LoopCopy &C, BasicBlock *Pick, BasicBlock *Switch) {
  IRBuilder<> B(C.Header, C.Header->begin());
  std::array<PHINode *, 3> P = {B.CreatePHI(I64, 3, "memcoro.window.left"), B.CreatePHI(I64, 3, "memcoro.window"),
                                B.CreatePHI(I64, 3, "memcoro.window.t0")};
  P[0]->addIncoming(In.Window, Pick);
  P[1]->addIncoming(In.Window, Pick);
  P[2]->addIncoming(In.T0, Pick);
  P[0]->addIncoming(NextWindow, Switch);
  P[1]->addIncoming(NextWindow, Switch);
  P[2]->addIncoming(NextT0, Switch);
  Counters[C.Header] = P;
  for (PHINode *Phi : C.Phis)
    Phi->replaceIncomingBlockWith(Preheader, Pick);
}

Value *SwitchWiring::iterationWork(IRBuilder<> &B, bool Clear) {
  if (!Work)
    return B.getInt64(1);
  Value *Inner = B.CreateLoad(I64, Work, /*isVolatile=*/true, "memcoro.window.inner");
  if (Clear)
    B.CreateStore(B.getInt64(0), Work, /*isVolatile=*/true);
  return B.CreateAdd(Inner, B.getInt64(1));
}

BasicBlock *SwitchWiring::countDown(LoopCopy &C, BasicBlock *Switch) {
  auto *Back = BasicBlock::Create(Ctx, C.Latch->getName() + ".window", &F, C.Header);
  C.Latch->getTerminator()->replaceSuccessorWith(C.Header, Back);
  for (PHINode &Phi : C.Header->phis())
    Phi.replaceIncomingBlockWith(C.Latch, Back);
  auto &[Left, Window, T0] = Counters[C.Header];
  IRBuilder<> B(Back);
  B.SetCurrentDebugLocation(C.Latch->getTerminator()->getDebugLoc());
  Value *Done = iterationWork(B, /*Clear=*/true);
  Value *Rest = B.CreateSub(Left, Done, "memcoro.window.rest");
  auto *Br = B.CreateCondBr(B.CreateICmpSLE(Rest, B.getInt64(0)), Switch, C.Header);
  // The loop's id and properties follow its backedge.
  if (MDNode *Id = C.Latch->getTerminator()->getMetadata(LLVMContext::MD_loop)) {
    Br->setMetadata(LLVMContext::MD_loop, Id);
    C.Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
  }
  B.SetInsertPoint(Br);
  Left->addIncoming(Rest, Back);
  Window->addIncoming(Window, Back);
  T0->addIncoming(T0, Back);
  SwitchWindow->addIncoming(B.CreateSub(Window, Rest, "memcoro.window.done"), Back);
  SwitchT0->addIncoming(T0, Back);
  return Back;
}

SwitchEntry memcoro::buildSwitchEntry(BasicBlock *Preheader, BasicBlock *First, unsigned Flags, DebugLoc Loc) {
  Function &F = *First->getParent();
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee BeginFn = M.getOrInsertFunction("__memcoro_switch_begin", I64, PointerType::get(Ctx, 0), I32);
  Function *Cycles = Intrinsic::getDeclaration(&M, Intrinsic::readcyclecounter);
  if (PrefetchSwitchMode == SwitchMode::Plain)
    Flags |= SwitchForcePlain;
  if (PrefetchSwitchMode == SwitchMode::Prefetch)
    Flags |= SwitchForcePrefetch;

  // pick: the first window, as decided (no call, no cycle counter) or from
  // the controller.
  auto *Entry = BasicBlock::Create(Ctx, "memcoro.prefetch.entry", &F, First);
  auto *Decided = BasicBlock::Create(Ctx, "memcoro.prefetch.decided", &F, First);
  auto *Begin = BasicBlock::Create(Ctx, "memcoro.prefetch.begin", &F, First);
  auto *Pick = BasicBlock::Create(Ctx, "memcoro.prefetch.pick", &F, First);
  Preheader->getTerminator()->replaceSuccessorWith(First, Entry);

  SwitchEntry In;
  In.Pick = Pick;
  IRBuilder<> EB(Entry);
  EB.SetCurrentDebugLocation(Loc);
  In.State = stateAddress(EB, F);
  In.Budget = EB.CreateLoad(I64, In.State, "memcoro.budget");
  Value *Run = EB.CreateLoad(I64, EB.CreateConstGEP1_64(I64, In.State, 1), "memcoro.run");
  // A decision with budget left is the controller's RUN phase: its windows
  // need no measuring.
  EB.CreateCondBr(EB.CreateAnd(EB.CreateICmpNE(Run, EB.getInt64(0)), EB.CreateICmpNE(In.Budget, EB.getInt64(0))),
                  Decided, Begin);
  IRBuilder<> DB(Decided);
  DB.SetCurrentDebugLocation(Loc);
  Value *DecidedN = DB.CreateSub(Run, DB.getInt64(1));
  DB.CreateBr(Pick);
  IRBuilder<> BB(Begin);
  BB.SetCurrentDebugLocation(Loc);
  Value *Decision = BB.CreateCall(BeginFn, {In.State, BB.getInt32(Flags)});
  Value *FirstWindow = BB.CreateBinaryIntrinsic(Intrinsic::umax, BB.CreateLShr(Decision, 8), BB.getInt64(1));
  Value *FirstN = BB.CreateAnd(Decision, 255);
  Value *Start = BB.CreateCall(Cycles, {}, "memcoro.t0");
  BB.CreateBr(Pick);
  IRBuilder<> PB(Pick);
  PB.SetCurrentDebugLocation(Loc);
  In.Window = PB.CreatePHI(I64, 3, "memcoro.window.first");
  In.T0 = PB.CreatePHI(I64, 3, "memcoro.window.t0");
  In.Which = PB.CreatePHI(I64, 3, "memcoro.window.n");
  In.Window->addIncoming(In.Budget, Decided);
  In.T0->addIncoming(PB.getInt64(0), Decided);
  In.Which->addIncoming(DecidedN, Decided);
  In.Window->addIncoming(FirstWindow, Begin);
  In.T0->addIncoming(Start, Begin);
  In.Which->addIncoming(FirstN, Begin);
  return In;
}

static FunctionCallee switchNextFunction(Module &M) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  return M.getOrInsertFunction("__memcoro_switch_next", I64, PointerType::get(M.getContext(), 0), I64, I64);
}

SwitchDecision memcoro::reportWindow(IRBuilder<> &B, Value *State, Value *Ran, Value *T0) {
  Module &M = *B.GetInsertBlock()->getModule();
  Function *Cycles = Intrinsic::getDeclaration(&M, Intrinsic::readcyclecounter);
  Value *Now = B.CreateCall(Cycles, {});
  // An unmeasured window's cycles are not read: the controller only counts
  // its work off the budget.
  Value *Spent = B.CreateSelect(B.CreateICmpEQ(T0, B.getInt64(0)), B.getInt64(0), B.CreateSub(Now, T0));
  Value *Next = B.CreateCall(switchNextFunction(M), {State, Ran, Spent});
  SwitchDecision D;
  D.Window = B.CreateBinaryIntrinsic(Intrinsic::umax, B.CreateLShr(Next, 8), B.getInt64(1));
  D.T0 = B.CreateCall(Cycles, {}, "memcoro.t0");
  D.Which = B.CreateAnd(Next, 255);
  return D;
}

void memcoro::reportLastWindow(const SwitchEntry &In, Value *Ran, Value *T0, BasicBlock *Measured,
                               BasicBlock *Unmeasured, BasicBlock *Then, DebugLoc Loc) {
  Module &M = *Measured->getModule();
  IRBuilder<> MB(Measured);
  MB.SetCurrentDebugLocation(Loc);
  Function *Cycles = Intrinsic::getDeclaration(&M, Intrinsic::readcyclecounter);
  MB.CreateCall(switchNextFunction(M), {In.State, Ran, MB.CreateSub(MB.CreateCall(Cycles, {}), T0)});
  MB.CreateBr(Then);
  IRBuilder<> UB(Unmeasured);
  UB.SetCurrentDebugLocation(Loc);
  // The window was the budget; its last iteration may have gone past it.
  UB.CreateStore(UB.CreateSub(In.Budget, UB.CreateBinaryIntrinsic(Intrinsic::umin, Ran, In.Budget)), In.State);
  UB.CreateBr(Then);
}

void SwitchWiring::wire(LoopCopy &Plain, LoopCopy &Prefetching, LoopInfo &LI) {
  DebugLoc Loc = L.getStartLoc();
  BasicBlock *First = Prefetching.Header;
  In = buildSwitchEntry(Preheader, First, Flags, Loc);
  BasicBlock *Pick = In.Pick;
  auto *Switch = BasicBlock::Create(Ctx, "memcoro.prefetch.switch", &F, First);
  IRBuilder<> PB(Pick);
  PB.SetCurrentDebugLocation(Loc);
  PB.CreateCondBr(PB.CreateICmpEQ(In.Which, PB.getInt64(0)), Plain.Header, Prefetching.Header);

  // switch: the window has ended between two iterations; report it, take the
  // next, and go on in the copy it names with the header phis' values.
  IRBuilder<> SB(Switch);
  SB.SetCurrentDebugLocation(Loc);
  SwitchWindow = SB.CreatePHI(I64, 2, "memcoro.window.ran");
  SwitchT0 = SB.CreatePHI(I64, 2, "memcoro.window.since");
  SmallVector<PHINode *, 4> Carried;
  for (PHINode *Phi : Prefetching.Phis)
    Carried.push_back(SB.CreatePHI(Phi->getType(), 2, Phi->getName() + ".switched"));
  SwitchDecision Next = reportWindow(SB, In.State, SwitchWindow, SwitchT0);
  NextWindow = Next.Window;
  NextT0 = Next.T0;
  SB.CreateCondBr(SB.CreateICmpEQ(Next.Which, SB.getInt64(0)), Plain.Header, Prefetching.Header);

  for (LoopCopy *C : {&Plain, &Prefetching}) {
    addCounters(*C, Pick, Switch);
    for (auto [Phi, Switched] : zip(C->Phis, Carried))
      Phi->addIncoming(Switched, Switch);
  }
  for (LoopCopy *C : {&Plain, &Prefetching}) {
    BasicBlock *Back = countDown(*C, Switch);
    for (auto [Switched, V] : zip(Carried, C->Next))
      Switched->addIncoming(V, Back);
    if (C == &Prefetching)
      L.addBasicBlockToLoop(Back, LI);
  }

  // exit: the work of the last window, the iteration that left included.
  SmallVector<BasicBlock *, 4> Exiting(predecessors(Exit));
  BasicBlock *Rest = Exit->splitBasicBlock(Exit->getFirstNonPHIIt(), Exit->getName() + ".rest");
  auto *Measured = BasicBlock::Create(Ctx, "memcoro.prefetch.measured", &F, Rest);
  auto *Unmeasured = BasicBlock::Create(Ctx, "memcoro.prefetch.unmeasured", &F, Rest);
  Exit->getTerminator()->eraseFromParent();
  IRBuilder<> XB(Exit);
  XB.SetCurrentDebugLocation(Loc);
  PHINode *Left = XB.CreatePHI(I64, Exiting.size(), "memcoro.window.left.out");
  PHINode *Window = XB.CreatePHI(I64, Exiting.size(), "memcoro.window.out");
  PHINode *T0 = XB.CreatePHI(I64, Exiting.size(), "memcoro.window.t0.out");
  for (BasicBlock *From : Exiting) {
    // An exiting block is in one copy, whose counters dominate it.
    auto &P = Counters[L.contains(From) ? Prefetching.Header : Plain.Header];
    Left->addIncoming(P[0], From);
    Window->addIncoming(P[1], From);
    T0->addIncoming(P[2], From);
  }
  Value *Ran = XB.CreateAdd(XB.CreateSub(Window, Left), iterationWork(XB, /*Clear=*/false), "memcoro.window.ran.out");
  XB.CreateCondBr(XB.CreateICmpEQ(T0, XB.getInt64(0)), Unmeasured, Measured);
  reportLastWindow(In, Ran, T0, Measured, Unmeasured, Rest, Loc);
}

bool memcoro::hasSwitchableShape(const Loop &L) {
  BasicBlock *Exit = L.getUniqueExitBlock();
  return L.getLoopPreheader() && L.getLoopLatch() && Exit &&
         all_of(predecessors(Exit), [&](BasicBlock *P) { return L.contains(P); });
}

void memcoro::emitPrefetchSwitch(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE,
                                 bool Adapting) {
  Loop &L = Plan.L;
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch(), *Exit = L.getUniqueExitBlock();
  // A gather's window counter and switch cost more than its prefetches: NPB
  // IS's key histogram ran at 0.70x serial switched, 1.15-1.2x prefetching
  // alone (docs/bench.md, "Cost model"). Windows that are ranges of
  // iterations cost nothing per iteration (PrefetchSwitchRanges.cpp).
  bool Gathers = Plan.PrefetchAheadWhy == PrefetchAheadReason::Gathers;
  bool Switchable = Adapting && PrefetchSwitchMode != SwitchMode::Off && hasSwitchableShape(L);
  std::unique_ptr<RangeWindows> Ranges = Switchable ? RangeWindows::plan(A, L) : nullptr;
  if (!Switchable || (Gathers && !Ranges)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no run-time switch for loop " << L.getHeader()->getName()
                      << (!Adapting ? ": run-time adaptation is off\n"
                          : Gathers   ? ": independent gathers, whose prefetches cost less than counting work\n"
                                      : ": not one preheader, one latch and one dedicated exit\n"));
    emitPrefetchAhead(A, Plan, ORE);
    return;
  }
  // Rows prefetched across (PrefetchEdges.cpp) are a few elements each, and
  // the counter's six volatile accesses a row ran NPB CG's product on cached
  // rows at 0.91x with the loop as written chosen: windows count rows there.
  AllocaInst *Work = Ranges || Plan.Edges ? nullptr : countInnerTrips(A, L);
  // Every value the loop gives the code after it must pass through the
  // exit's phis, which the copy as written joins: an adapting loop's serial
  // copy is not in LCSSA form (its reduction also feeds the window loop
  // around it), and switched without this it lost the windows the copy as
  // written ran (test/diff/list_walk.c's total).
  formLCSSARecursively(L, A.DT, &A.LI, &A.SE);
  LoopCopy Plain = clonePlainLoop(L, Exit);
  // The prefetches go in after the copy, and may split the latch: its
  // values are taken before.
  LoopCopy Prefetching = copyOf(L.getHeader(), Latch);
  emitPrefetchAhead(A, Plan, ORE);
  Prefetching.Latch = L.getLoopLatch();
  // A loop the core already overlaps has no phases that favour the
  // prefetches; nor has a flat loop, every window of which does the same
  // work (a gather at 1 MiB: its prefetches 1.3x slower, which would pass),
  // nor a serial copy, which runs only the windows adaptation gives it (a
  // hash chain's in the L2: its prefetches 1.3x slower).
  bool SerialCopy = Plan.PrefetchAheadWhy == PrefetchAheadReason::SerialCopy;
  unsigned Flags = Plan.PrefetchAheadWhy == PrefetchAheadReason::Overlapped ? SwitchOverlapped : 0;
  if (Ranges || SerialCopy)
    Flags |= SwitchFlat;
  // A serial copy moves into a function of its own as a whole.
  if (Ranges)
    Ranges->wire(Plain, Prefetching, Flags, /*OutlineCopies=*/!SerialCopy);
  else
    SwitchWiring(L, Preheader, Exit, Work, Flags).wire(Plain, Prefetching, A.LI);
  A.SE.forgetLoop(&L);
  if (SerialCopy)
    return;
  ++NumPrefetchSwitches;
  ORE.emit([&] {
    return OptimizationRemark(RemarkPass, "PrefetchSwitch", L.getStartLoc(), L.getHeader())
           << "loop adapts at run time: the prefetching loop and the loop as written are both kept, and each "
              "window of work runs the one measured faster (on data near the core the prefetches only cost "
              "instructions)";
  });
}
