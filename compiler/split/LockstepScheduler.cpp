//===- LockstepScheduler.cpp - groups of iterations stepped phase by phase -===//
//
// The scheduler memcoro-split picks when every iteration meets the same
// suspension points in the same order (each outside the loop's inner loops,
// on every path through the body: gather, GUPS, struct fields, dependent
// loads). Groups of N iterations are stepped phase by phase (group
// prefetching): slot s of the group runs phase p, then slot s + 1 runs phase
// p; after the last slot, phase p + 1 from slot 0; after the last phase, the
// next N iterations. The slot holds only saved values, and the one switch is
// on the group's phase, the same for N slots in a row, so it predicts
// perfectly: the software counterpart of the misprediction CoroAMU's bafin
// removes in hardware.
//
//   sched: switch phase
//     0   launch: k = base + s
//     j   resume.j (the lowering's)
//   iter.end -> next: the slot waits for the group
//   next:       ++s < size ? sched : next.phase
//   next.phase: s = 0; ++phase <= S ? sched : next.group
//   next.group: phase = 0; base += size; size = min(TC - base, N);
//               base < TC ? sched : done
//
// Where it runs: SplitLowering.cpp;
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

using namespace llvm;
using namespace memcoro;

namespace {

class LockstepScheduler final : public SchedulerCodeGen {
public:
  using SchedulerCodeGen::SchedulerCodeGen;

  void createState(IRBuilder<> &Entry) override {
    GroupBase = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.group.base");
    GroupSize = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.group.size");
    Phase = Entry.CreateAlloca(Entry.getInt32Ty(), nullptr, "memcoro.phase");
  }

  void initState(IRBuilder<> &B) override {
    B.CreateStore(B.getInt64(0), GroupBase);
    B.CreateStore(B.CreateBinaryIntrinsic(Intrinsic::umin, S.TripCount, S.activeSlots(B)), GroupSize);
    B.CreateStore(B.getInt32(0), Phase);
  }

  Value *emitLaunch(IRBuilder<> &B) override {
    Value *K = B.CreateAdd(B.CreateLoad(B.getInt64Ty(), GroupBase), B.CreateLoad(B.getInt64Ty(), S.SlotIndex),
                           "memcoro.k");
    B.CreateBr(S.IterStart);
    return K;
  }

  /// The group's next slot runs its last phase.
  BasicBlock *afterIteration() override { return S.Next; }

  /// The same phase for a whole group: the switch predicts perfectly.
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override {
    return B.CreateLoad(B.getInt32Ty(), Phase, "memcoro.state");
  }

  /// The group's next slot in this phase; then the next phase from slot 0;
  /// after the last phase, the next group of N iterations.
  void emitNext(IRBuilder<> &B, Value *NextSlot) override {
    auto *NextPhase = BasicBlock::Create(S.Ctx, "memcoro.next.phase", &S.F, S.Done);
    auto *NextGroup = BasicBlock::Create(S.Ctx, "memcoro.next.group", &S.F, S.Done);
    B.CreateStore(NextSlot, S.SlotIndex);
    B.CreateCondBr(B.CreateICmpULT(NextSlot, B.CreateLoad(B.getInt64Ty(), GroupSize)), S.Sched, NextPhase);

    IRBuilder<> PB(NextPhase);
    PB.SetCurrentDebugLocation(S.Loc);
    PB.CreateStore(PB.getInt64(0), S.SlotIndex);
    Value *NextP = PB.CreateAdd(PB.CreateLoad(PB.getInt32Ty(), Phase), PB.getInt32(1));
    PB.CreateStore(NextP, Phase);
    PB.CreateCondBr(PB.CreateICmpULE(NextP, PB.getInt32(S.NumSuspensions)), S.Sched, NextGroup);

    IRBuilder<> GB(NextGroup);
    GB.SetCurrentDebugLocation(S.Loc);
    GB.CreateStore(GB.getInt32(0), Phase);
    Value *Base = GB.CreateAdd(GB.CreateLoad(GB.getInt64Ty(), GroupBase), GB.CreateLoad(GB.getInt64Ty(), GroupSize));
    GB.CreateStore(Base, GroupBase);
    GB.CreateStore(GB.CreateBinaryIntrinsic(Intrinsic::umin, GB.CreateSub(S.TripCount, Base), S.activeSlots(GB)),
                   GroupSize);
    GB.CreateCondBr(GB.CreateICmpULT(Base, S.TripCount), S.Sched, S.Done);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({GroupBase, GroupSize, S.SlotIndex, Phase});
  }

private:
  /// The group's first iteration, its size (N, or fewer at the end), and the
  /// phase all its slots run next.
  AllocaInst *GroupBase = nullptr;
  AllocaInst *GroupSize = nullptr;
  AllocaInst *Phase = nullptr;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createLockstepScheduler(Skeleton &S) {
  return std::make_unique<LockstepScheduler>(S);
}
