//===- PipelineScheduler.cpp - lockstep as a software pipeline -------------===//
//
// The scheduler memcoro-split picks where lockstep is legal (every iteration
// meets the same suspension points in the same order) unless
// -memcoro-dispatch says otherwise. Lockstep steps groups of N iterations
// phase by phase, so each group ends in a bubble: its last phase waits for
// misses that no other work overlaps. The pipeline has no groups. Each step t
// runs phase 0 of iteration t (up to its first suspension, which prefetches),
// then phase 1 of iteration t - d, ..., phase S of iteration t - S*d, one
// after the other by direct branches: no dispatch switch, no phase counter.
// While iteration k runs phase j, iteration k + d*j's first phase prefetches.
// With one suspension point this is the hand-written prefetch-distance loop,
// with the address kept in the slot instead of computed twice.
//
// d comes from the one value N (iterations in flight, the plan's
// parallelism): d = N / S, so that S*d + 1 iterations are in flight, as many
// as lockstep keeps. The slot of iteration k is k mod M, M the power of two
// above S*d: iteration k holds its slot from step k to step k + S*d.
//
// Under run-time adaptation (Adaptation.cpp) N is the window's n, chosen by
// the controller, so d is a register value computed when the window starts,
// and M is sized for the most slots the controller may choose. Each window
// is a pipeline of its own: it fills, runs, and drains to its last
// iteration's last phase before the window loop measures it and picks the
// next window (serial, or a pipeline with another d).
//
//   preheader: t = 0, slot 0
//   sched:     always launch (the switch on 0 folds away)
//   launch:    k = t -> iter.start; phase 0; suspension 1 -> stage.1
//   stage.j:   k = t - j*d; k < TC ? (slot k mod M) resume.j
//                                  : stage.(j+1), or next after stage.S
//   suspension j + 1 -> stage.(j+1); iter.end -> next
//   next:      ++t < TC ? steady (slot t mod M)
//              : t - TC < S*d ? stage.1 (draining) : done
//   steady:    t >= S*d ? launch.steady : launch
//
// Trip counts below the depth S*d, and the first and last S*d steps of any
// loop, run through these blocks: the test in each stage skips a phase whose
// iteration does not exist (k wraps below 0 in the first steps). In between,
// every stage has an iteration, and a copy of the blocks (.steady) runs
// without the tests, from step S*d until the last launch, then drains
// through the originals. The copy is made before the scheduler state is
// promoted to registers: every value that crosses a step is still in memory,
// so the copy needs no SSA repair.
//
// Ordered code that lies in one phase runs in iteration order, as under
// lockstep: phase j of iteration k runs at step k + j*d. Lock-table updates
// and ordered code across phases need a resume state per slot, so the planner
// runs those loops on the ring.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-dispatch=pipeline -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>

using namespace llvm;
using namespace memcoro;

static cl::opt<unsigned> SteadyUnroll("memcoro-pipeline-unroll", cl::Hidden, cl::init(4),
                                      cl::desc("Unroll the pipeline's steady state by this much (1: not)"));

unsigned memcoro::pipelineDistance(unsigned Parallelism, unsigned Suspensions) {
  return std::max(1u, Parallelism / std::max(1u, Suspensions));
}

unsigned memcoro::pipelineSlots(unsigned Parallelism, unsigned Suspensions) {
  return PowerOf2Ceil(uint64_t(Suspensions) * pipelineDistance(Parallelism, Suspensions) + 1);
}

namespace {

class PipelineScheduler final : public SchedulerCodeGen {
public:
  explicit PipelineScheduler(Skeleton &S)
      : SchedulerCodeGen(S), Mask(pipelineSlots(S.N, S.NumSuspensions) - 1) {}

  void createState(IRBuilder<> &Entry) override {
    Step = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.step");
  }

  /// Step 0 launches iteration 0 in slot 0 (the lowering clears the slot
  /// index); a loop that is entered runs at least once.
  /// d and the depth S*d, from the slots in use: a constant without
  /// adaptation, the window's n with it (initState runs where each window
  /// starts, so these dominate every stage).
  void initState(IRBuilder<> &B) override {
    B.CreateStore(B.getInt64(0), Step);
    Value *Phases = B.getInt64(S.NumSuspensions);
    if (!S.ActiveN) {
      Distance = B.getInt64(pipelineDistance(S.N, S.NumSuspensions));
    } else {
      Value *PerPhase = S.NumSuspensions == 1 ? S.ActiveN : B.CreateUDiv(S.ActiveN, Phases);
      Distance = B.CreateBinaryIntrinsic(Intrinsic::umax, PerPhase, B.getInt64(1), nullptr, "memcoro.distance");
    }
    Depth = S.NumSuspensions == 1 ? Distance : B.CreateMul(Distance, Phases, "memcoro.depth");
  }

  Value *emitLaunch(IRBuilder<> &B) override {
    Value *K = B.CreateLoad(B.getInt64Ty(), Step, "memcoro.k");
    B.CreateBr(S.IterStart);
    return K;
  }

  /// The step is over: on to the next one.
  BasicBlock *afterIteration() override { return S.Next; }

  /// Only the preheader enters the dispatch, to launch iteration 0; every
  /// other phase is reached from the stage before it.
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override { return B.getInt32(0); }

  BasicBlock *afterSuspend(unsigned J) override { return stage(J + 1); }

  /// Phase J + 1 of step t is iteration t - (J + 1)*d: values computed from
  /// the iteration number need no slot field (is: keys[k] read again).
  bool knowsIterationAtResume() const override { return true; }
  Value *emitIterationAtResume(IRBuilder<> &B, unsigned J) override {
    return B.CreateSub(B.CreateLoad(B.getInt64Ty(), Step), behind(B, J + 1), "memcoro.k.resumed");
  }

  /// The stages and the step, once the lowering has made every resume block
  /// (the dispatch switch's cases).
  void emitNext(IRBuilder<> &B, Value *NextSlot) override {
    assert(S.NumSuspensions >= 1 && "a pipeline has a phase after the first");
    auto *Dispatch = cast<SwitchInst>(S.Sched->getTerminator());
    Type *I64 = B.getInt64Ty();
    for (unsigned J = 1; J <= S.NumSuspensions; ++J)
      Resumes.push_back(Dispatch->findCaseValue(B.getInt32(J))->getCaseSuccessor());
    // The resume blocks are reached from the stages only.
    IRBuilder<> SB(Dispatch);
    SB.CreateBr(S.Launch);
    Dispatch->eraseFromParent();
    for (unsigned J = 1; J <= S.NumSuspensions; ++J) {
      IRBuilder<> PB(stage(J));
      PB.SetCurrentDebugLocation(S.Loc);
      Value *K = PB.CreateSub(PB.CreateLoad(I64, Step), behind(PB, J), "memcoro.k." + Twine(J));
      PB.CreateStore(PB.CreateAnd(K, PB.getInt64(Mask)), S.SlotIndex);
      PB.CreateCondBr(PB.CreateICmpULT(K, S.TripCount), Resumes[J - 1],
                      J < S.NumSuspensions ? stage(J + 1) : S.Next);
    }

    auto *Drain = BasicBlock::Create(S.Ctx, "memcoro.drain", &S.F, S.Done);
    Value *T = B.CreateAdd(B.CreateLoad(I64, Step), B.getInt64(1), "memcoro.t");
    B.CreateStore(T, Step);
    B.CreateStore(B.CreateAnd(T, B.getInt64(Mask)), S.SlotIndex);
    StepTest = cast<BranchInst>(B.CreateCondBr(B.CreateICmpULT(T, S.TripCount), S.Launch, Drain));

    IRBuilder<> DB(Drain);
    DB.SetCurrentDebugLocation(S.Loc);
    Value *Past = DB.CreateSub(DB.CreateLoad(I64, Step), S.TripCount);
    DB.CreateCondBr(DB.CreateICmpULT(Past, Depth), stage(1), S.Done);
  }

  /// The steady state: from step S*d until the last launch every stage's
  /// iteration exists, so a copy of the pipeline's blocks runs without the
  /// stages' tests (is: 18 instructions per op before, 10.5 with it).
  void beforePromotion() override {
    SmallVector<BasicBlock *, 32> Blocks;
    SmallPtrSet<BasicBlock *, 32> Seen = {S.Done, Drain()};
    SmallVector<BasicBlock *, 32> Work = {S.Launch};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second)
        continue;
      Blocks.push_back(BB);
      append_range(Work, successors(BB));
    }
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 32> Copies;
    for (BasicBlock *BB : Blocks) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".steady", &S.F);
      VMap[BB] = Copy;
      Copies.push_back(Copy);
    }
    remapInstructionsInBlocks(Copies, VMap);
    for (unsigned J = 1; J <= S.NumSuspensions; ++J) {
      auto *Test = cast<BranchInst>(cast<BasicBlock>(VMap[stage(J)])->getTerminator());
      BranchInst::Create(cast<BasicBlock>(VMap[Resumes[J - 1]]), Test);
      Instruction *Cond = dyn_cast<Instruction>(Test->getCondition());
      Test->eraseFromParent();
      if (Cond && Cond->use_empty())
        Cond->eraseFromParent();
    }
    // The steady state is the hand-written prefetch-distance loop, which
    // LLVM unrolls by itself; this loop's count it only finds at run time,
    // so ask (is at 1 GiB: 8 instructions per op before, as the hand loop's
    // 4.75 with it).
    if (SteadyUnroll > 1) {
      LLVMContext &Ctx = S.Ctx;
      Metadata *Count = MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.unroll.count"),
                                          ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), SteadyUnroll))});
      MDNode *Id = MDNode::getDistinct(Ctx, {nullptr, Count});
      Id->replaceOperandWith(0, Id);
      cast<Instruction>(VMap[StepTest])->setMetadata(LLVMContext::MD_loop, Id);
    }
    // The prologue enters the copy once every stage has an iteration.
    IRBuilder<> B(StepTest);
    B.SetCurrentDebugLocation(S.Loc);
    auto *Enter = BasicBlock::Create(S.Ctx, "memcoro.steady", &S.F, S.Done);
    Value *T = cast<ICmpInst>(StepTest->getCondition())->getOperand(0);
    StepTest->setSuccessor(0, Enter);
    IRBuilder<> EB(Enter);
    EB.SetCurrentDebugLocation(S.Loc);
    EB.CreateCondBr(EB.CreateICmpUGE(T, Depth),
                    cast<BasicBlock>(VMap[S.Launch]), S.Launch);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({Step, S.SlotIndex});
  }

private:
  /// J*d: how many steps phase J runs behind phase 0.
  Value *behind(IRBuilder<> &B, unsigned J) { return J == 1 ? Distance : B.CreateMul(Distance, B.getInt64(J)); }

  /// The block that runs phase \p J of iteration t - J*d, or skips it.
  BasicBlock *stage(unsigned J) {
    if (Stages.empty())
      for (unsigned I = 1; I <= S.NumSuspensions; ++I)
        Stages.push_back(BasicBlock::Create(S.Ctx, "memcoro.stage." + Twine(I), &S.F, S.Next));
    return Stages[J - 1];
  }

  BasicBlock *Drain() const { return StepTest->getSuccessor(1); }

  /// M - 1, M the slots for the most iterations in flight.
  const uint64_t Mask;
  /// i64: d, and S*d.
  Value *Distance = nullptr, *Depth = nullptr;
  /// t: the iteration whose first phase this step runs.
  AllocaInst *Step = nullptr;
  SmallVector<BasicBlock *, 4> Stages;
  /// Phase j's resume block, and next's test for another launch.
  SmallVector<BasicBlock *, 4> Resumes;
  BranchInst *StepTest = nullptr;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createPipelineScheduler(Skeleton &S) {
  return std::make_unique<PipelineScheduler>(S);
}
