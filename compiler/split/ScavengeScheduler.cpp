//===- ScavengeScheduler.cpp - hand lone stalls to the thread's scavengers -===//
//
// Scavenger mode (memcoro-cc -fmemcoro-scavenge[=NS], -memcoro-scavenge=NS),
// after MSH: a marked loop that has nothing else to interleave at a
// suspension point -- parallel(1), or a ring whose other slots have all
// retired (the loop's last iteration) -- would only wait for its prefetch.
// (A lockstep group of several slots is never alone: it is not scavenged.)
// Instead it calls memcoro_scavenge(NS) (include/memcoro/scavenger.h): the
// thread's registered scavengers run for about NS nanoseconds, the
// inter-yield distance MSH exposes, and the loop resumes with its line in the
// cache. Called from a scavenger, the same call is the scavenger's own stall
// yield, so a loop compiled this way also serves as a scavenger. With no
// scavenger registered the call returns at once.
//
// A decorator of the static scheduler (ring or lockstep), which it leaves as
// it is; only a suspension gains the call, after its prefetch and saves:
//
//   suspend.j:  prefetch; save; [N > 1: live == 1 ?]
//                 memcoro.scavenge.j: call memcoro_scavenge(NS)
//               resume = j; -> next
//
// Wait points (turns, locks) issue no prefetch and do not scavenge. Under
// -memcoro-amu the loop keeps its AMU scheduler: far accesses there are
// requests, not stalls.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-scavenge=300 -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumScavengeLoops, "Number of transformed loops that hand lone stalls to scavengers");
STATISTIC(NumScavengeStalls, "Number of suspension points that may run scavengers");

static cl::opt<unsigned> ScavengeNs(
    "memcoro-scavenge", cl::Hidden, cl::init(0),
    cl::desc("At a suspension point with no other iteration to run, run the thread's scavengers for "
             "up to this many nanoseconds (0: off)"));

void memcoro::chooseScavenging(LoopPlan &Plan) {
  if (!ScavengeNs)
    return;
  if (Plan.ThroughAmu) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no scavenging in loop " << Plan.Header->getName()
                      << ": its far accesses are AMU requests\n");
    Plan.ScavengeSkipped = "its far accesses are requests to the AMU, not stalls";
    return;
  }
  // Only the ring counts its live slots; lockstep groups never run alone.
  if (Plan.Parallelism != 1 && Plan.Style != Dispatch::Ring) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no scavenging in loop " << Plan.Header->getName() << ": "
                      << dispatchName(Plan.Style) << " dispatch with " << Plan.Parallelism
                      << " slots cannot tell when one runs alone\n");
    Plan.ScavengeSkipped = "a lockstep group of several iterations never runs alone";
    return;
  }
  Plan.ScavengeNs = ScavengeNs;
}

namespace {

class ScavengeScheduler final : public SchedulerCodeGen {
public:
  ScavengeScheduler(Skeleton &S, std::unique_ptr<SchedulerCodeGen> Inner)
      : SchedulerCodeGen(S), Inner(std::move(Inner)) {
    ++NumScavengeLoops;
  }

  void createState(IRBuilder<> &Entry) override { Inner->createState(Entry); }
  void initState(IRBuilder<> &B) override { Inner->initState(B); }
  Value *emitLaunch(IRBuilder<> &B) override { return Inner->emitLaunch(B); }
  void emitIterationStart(IRBuilder<> &B, Value *K) override { Inner->emitIterationStart(B, K); }
  BasicBlock *afterIteration() override { return Inner->afterIteration(); }
  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override { Inner->addHeaderFields(Fields); }
  void initSlots(IRBuilder<> &B) override { Inner->initSlots(B); }
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override { return Inner->emitResumeState(B, Slot); }
  void emitSchedulerBlocks() override { Inner->emitSchedulerBlocks(); }
  void emitEarlyAccess(IRBuilder<> &B, const Suspension &Sp) override { Inner->emitEarlyAccess(B, Sp); }
  void emitResume(IRBuilder<> &B, Value *Slot, unsigned J) override { Inner->emitResume(B, Slot, J); }
  void emitNext(IRBuilder<> &B, Value *NextSlot) override { Inner->emitNext(B, NextSlot); }
  Value *emitLiveSlots(IRBuilder<> &B) override { return Inner->emitLiveSlots(B); }
  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override { Inner->promotableState(Allocas); }
  void finishLowering() override { Inner->finishLowering(); }

  /// After the prefetch and the saves: nothing else can hide this stall when
  /// the loop has one slot, or when every other slot has retired.
  void emitSuspend(IRBuilder<> &B, Value *Slot, unsigned J) override {
    if (J < S.Plan->Suspensions.size())
      emitStall(B, J);
    Inner->emitSuspend(B, Slot, J);
  }

private:
  void emitStall(IRBuilder<> &B, unsigned J) {
    Value *Live = S.N == 1 ? nullptr : Inner->emitLiveSlots(B);
    assert((S.N == 1 || Live) && "chooseScavenging admits only schedulers that count live slots");
    ++NumScavengeStalls;
    FunctionCallee Scavenge = S.F.getParent()->getOrInsertFunction(
        "memcoro_scavenge", FunctionType::get(B.getVoidTy(), {B.getInt64Ty()}, false));
    if (auto *Decl = dyn_cast<Function>(Scavenge.getCallee()))
      Decl->addFnAttr(Attribute::NoUnwind);
    if (!Live) {
      B.CreateCall(Scavenge, {B.getInt64(S.Plan->ScavengeNs)});
      return;
    }
    BasicBlock *Here = B.GetInsertBlock();
    auto *Call = BasicBlock::Create(S.Ctx, "memcoro.scavenge." + Twine(J + 1), &S.F, Here->getNextNode());
    auto *Stalled = BasicBlock::Create(S.Ctx, "memcoro.stalled." + Twine(J + 1), &S.F, Call->getNextNode());
    B.CreateCondBr(B.CreateICmpEQ(Live, B.getInt64(1)), Call, Stalled);
    B.SetInsertPoint(Call);
    B.CreateCall(Scavenge, {B.getInt64(S.Plan->ScavengeNs)});
    B.CreateBr(Stalled);
    B.SetInsertPoint(Stalled);
  }

  std::unique_ptr<SchedulerCodeGen> Inner;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createScavengeScheduler(Skeleton &S,
                                                                  std::unique_ptr<SchedulerCodeGen> Static) {
  return std::make_unique<ScavengeScheduler>(S, std::move(Static));
}
