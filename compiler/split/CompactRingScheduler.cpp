//===- CompactRingScheduler.cpp - the ring without a resume state ----------===//
//
// Ring dispatch (RingScheduler.cpp) for the common case of one suspension
// point and nothing to wait for: a list walk, a binary search, a chained
// probe with one access per step. Every live slot is then suspended at that
// one point, so the slot needs no resume state, and the dispatch no switch:
// the general ring loads the state, compares, branches and stores it back at
// every suspension, and tests whether every slot has retired at every visit.
// Here the live slots are kept packed at the front, as hand-written AMAC
// keeps them: slots 0..live-1 each hold a suspended iteration, the round goes
// s = 0..live-1, and a slot that finds no iteration left to launch takes the
// last live slot's iteration (its saved values, copied) and resumes it.
//
//   preheader: live = 1, s = 0 -> sched -> launch (only this first time)
//   launch:  k = next; k < TC ? iter.start : retire
//   suspension -> next; iter.end -> launch (the slot takes the next iteration)
//   next:    ++s < live ? resume : fill
//   fill:    live < N && next < TC ? (s = live++) launch : (s = 0) resume
//   retire:  --live; s < live ? slot[s] = slot[live], resume
//                             : live == 0 ? done : (s = 0) resume
//
// Slots hold copies of the iteration's values only; a loop whose iterations
// have private stack memory (addressed by slot number) keeps the general ring.
//
// Where it runs: SplitLowering.cpp; -memcoro-ring-compact=false gives the
// general ring instead.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace memcoro;

static cl::opt<bool> CompactRing("memcoro-ring-compact", cl::Hidden, cl::init(true),
                                 cl::desc("Ring dispatch of a loop with one suspension point and no waits "
                                          "keeps its live slots packed and no resume state"));

bool memcoro::ringCanBeCompact(const LoopPlan &Plan) {
  return CompactRing && Plan.Style == Dispatch::Ring && !Plan.ThroughAmu && Plan.Suspensions.size() == 1 &&
         !Plan.WaitsForTurn && Plan.Locked.empty() && Plan.PrivateAllocas.empty();
}

namespace {

class CompactRingScheduler final : public RingLaunchCodeGen {
public:
  using RingLaunchCodeGen::RingLaunchCodeGen;

  /// Slot 0 launches iteration 0: a loop that is entered runs at least once.
  /// Live counts the slots that hold an iteration: 0..live-1.
  bool countsDown() const override { return launchLimitIsFixed(); }

  void initState(IRBuilder<> &B) override {
    initLaunches(B);
    B.CreateStore(B.getInt64(1), Live);
  }

  /// Only the preheader enters the dispatch, to launch in slot 0; every other
  /// visit goes straight to the one resume block.
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override { return B.getInt32(0); }

  /// next, fill and retire, once the lowering has made the resume block.
  void emitNext(IRBuilder<> &B, Value *NextSlot) override {
    Type *I64 = B.getInt64Ty();
    BasicBlock *Resume = cast<SwitchInst>(S.Sched->getTerminator())->findCaseValue(B.getInt32(1))->getCaseSuccessor();
    auto *Fill = BasicBlock::Create(S.Ctx, "memcoro.fill", &S.F, S.Done);
    auto *Wrap = BasicBlock::Create(S.Ctx, "memcoro.wrap", &S.F, S.Done);
    auto *Grow = BasicBlock::Create(S.Ctx, "memcoro.grow", &S.F, S.Done);

    B.CreateStore(NextSlot, S.SlotIndex);
    B.CreateCondBr(B.CreateICmpULT(NextSlot, B.CreateLoad(I64, Live)), Resume, Fill);

    IRBuilder<> FB(Fill);
    FB.SetCurrentDebugLocation(S.Loc);
    Value *Count = FB.CreateLoad(I64, Live);
    // Under run-time adaptation the window's n, not every slot allocated.
    Value *Room = FB.CreateAnd(FB.CreateICmpULT(Count, S.activeSlots(FB)),
                               emitLaunchesLeft(FB));
    FB.CreateCondBr(Room, Grow, Wrap);

    IRBuilder<> GB(Grow);
    GB.SetCurrentDebugLocation(S.Loc);
    Value *Joining = GB.CreateLoad(I64, Live);
    GB.CreateStore(Joining, S.SlotIndex);
    GB.CreateStore(GB.CreateAdd(Joining, GB.getInt64(1)), Live);
    GB.CreateBr(S.Launch);

    IRBuilder<> WB(Wrap);
    WB.SetCurrentDebugLocation(S.Loc);
    WB.CreateStore(WB.getInt64(0), S.SlotIndex);
    WB.CreateCondBr(WB.CreateICmpEQ(WB.CreateLoad(I64, Live), WB.getInt64(0)), S.Done, Resume);

    // The slot has no iteration left to launch: the last live slot's
    // iteration moves into it, so that live slots stay packed.
    auto *Move = BasicBlock::Create(S.Ctx, "memcoro.move", &S.F, S.Done);
    IRBuilder<> RB(Retire);
    RB.SetCurrentDebugLocation(S.Loc);
    Value *Last = RB.CreateSub(RB.CreateLoad(I64, Live), RB.getInt64(1));
    RB.CreateStore(Last, Live);
    Value *Slot = RB.CreateLoad(I64, S.SlotIndex);
    RB.CreateCondBr(RB.CreateICmpULT(Slot, Last), Move, Wrap);

    IRBuilder<> MB(Move);
    MB.SetCurrentDebugLocation(S.Loc);
    const DataLayout &DL = S.F.getParent()->getDataLayout();
    StructType *SlotTy = S.Frame.slotType();
    auto slotPtr = [&](Value *Index) { return MB.CreateInBoundsGEP(SlotTy, S.Frame.slots(), Index); };
    Align SlotAlign = DL.getABITypeAlign(SlotTy);
    MB.CreateMemCpy(slotPtr(Slot), SlotAlign, slotPtr(Last), SlotAlign, DL.getTypeAllocSize(SlotTy));
    MB.CreateBr(Resume);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({NextIter, Live, S.SlotIndex});
  }

};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createCompactRingScheduler(Skeleton &S) {
  return std::make_unique<CompactRingScheduler>(S);
}
