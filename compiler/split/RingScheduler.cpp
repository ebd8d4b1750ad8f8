//===- RingScheduler.cpp - round-robin dispatch on each slot's own state ---===//
//
// The general scheduler of memcoro-split (CoroAMU's static FIFO scheduler),
// for loops whose iterations drift out of phase: suspensions inside inner
// loops or conditionals (binary search, list walks, chained probes). Each
// slot keeps its own resume state in the first field of its slot; the
// schedule block switches on it, and the slots are visited round robin:
//
//   sched: switch slot[s].resume
//     0       launch: k = next++; k < TC ? iter.start : retire
//     j       resume.j (the lowering's)
//     S + 1   retired: skip
//   a suspension stores resume = j before it yields
//   iter.end -> launch: a finished iteration's slot takes the next one at once
//   retire: resume = S + 1, live--; live == 0 ? done : next
//   next: s = (s + 1) mod N -> sched
//
// Where it runs and how to see it: SplitLowering.cpp; force it on a loop that
// could run in lockstep with -memcoro-dispatch=ring:
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-dispatch=ring -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/IR/Module.h"

using namespace llvm;
using namespace memcoro;

void RingLaunchCodeGen::createState(IRBuilder<> &Entry) {
  NextIter = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.next.iter");
  Live = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.live");
}

/// Counting up, launch keeps k live beside k + 1, and the register
/// allocator, which sees no loop in the compact ring's visit (its cycle is
/// entered at the resume and, from launch, at the suspension), then copied
/// the counter between two registers twice per visit (ptrchase). Counting the
/// launches left down, the counter is decremented in place and k = TC - left
/// is a fresh value. The general ring, whose switch and retire paths differ,
/// keeps counting up. Not with early exits: they lower the launch limit
/// while the loop runs.
bool RingLaunchCodeGen::launchLimitIsFixed() const {
  return S.Plan->EarlyExits.empty() && !S.Plan->ExitAtLaunch;
}

void RingLaunchCodeGen::initLaunches(IRBuilder<> &B) {
  B.CreateStore(countsDown() ? S.TripCount : B.getInt64(0), NextIter);
}

Value *RingLaunchCodeGen::emitLaunchesLeft(IRBuilder<> &B) {
  Value *Counter = B.CreateLoad(B.getInt64Ty(), NextIter);
  return countsDown() ? B.CreateICmpNE(Counter, B.getInt64(0)) : B.CreateICmpULT(Counter, S.TripCount);
}

/// The slot takes the next iteration, or retires when there is none.
Value *RingLaunchCodeGen::emitLaunch(IRBuilder<> &B) {
  Retire = BasicBlock::Create(S.Ctx, "memcoro.retire", &S.F, S.Header);
  Value *Counter = B.CreateLoad(B.getInt64Ty(), NextIter, "memcoro.launches");
  Value *K = countsDown() ? B.CreateSub(S.TripCount, Counter, "memcoro.k") : Counter;
  B.CreateCondBr(emitLaunchesLeft(B), S.IterStart, Retire);
  return K;
}

void RingLaunchCodeGen::emitIterationStart(IRBuilder<> &B, Value *K) {
  B.CreateStore(countsDown() ? B.CreateSub(B.CreateLoad(B.getInt64Ty(), NextIter), B.getInt64(1))
                             : B.CreateAdd(K, B.getInt64(1)),
                NextIter);
}

namespace {

class RingScheduler final : public RingLaunchCodeGen {
public:
  using RingLaunchCodeGen::RingLaunchCodeGen;

  void initState(IRBuilder<> &B) override {
    initLaunches(B);
    B.CreateStore(S.activeSlots(B), Live);
  }

  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override { Fields.push_back(Type::getInt32Ty(S.Ctx)); }

  /// Every slot starts in state 0: launch an iteration.
  void initSlots(IRBuilder<> &B) override {
    AllocaInst *Slots = S.Frame.slots();
    B.CreateMemSet(Slots, B.getInt8(0), *Slots->getAllocationSize(S.F.getParent()->getDataLayout()), Slots->getAlign());
  }

  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override {
    return B.CreateLoad(B.getInt32Ty(), S.Frame.fieldPtr(B, Slot, ResumeField), "memcoro.state");
  }

  void emitSuspend(IRBuilder<> &B, Value *Slot, unsigned J) override {
    B.CreateStore(B.getInt32(J + 1), S.Frame.fieldPtr(B, Slot, ResumeField));
  }

  /// retire: the slot leaves the ring for good; the last one to leave ends
  /// the loop. Only here does the count of live slots fall, so only here is
  /// it tested: tested in next, it cost a compare and a branch per visit.
  void emitSchedulerBlocks() override {
    IRBuilder<> B(Retire);
    B.SetCurrentDebugLocation(S.Loc);
    Value *Slot = B.CreateLoad(B.getInt64Ty(), S.SlotIndex);
    B.CreateStore(B.getInt32(S.NumSuspensions + 1), S.Frame.fieldPtr(B, Slot, ResumeField));
    Value *Left = B.CreateSub(B.CreateLoad(B.getInt64Ty(), Live), B.getInt64(1));
    B.CreateStore(Left, Live);
    B.CreateCondBr(B.CreateICmpEQ(Left, B.getInt64(0)), S.Done, S.Next);
  }

  /// Round robin over the slots; retired slots are skipped by the dispatch.
  void emitNext(IRBuilder<> &B, Value *NextSlot) override {
    Value *Wrapped = !S.ActiveN && isPowerOf2_32(S.N)
                         ? B.CreateAnd(NextSlot, B.getInt64(S.N - 1))
                         : B.CreateSelect(B.CreateICmpEQ(NextSlot, S.activeSlots(B)), B.getInt64(0), NextSlot);
    B.CreateStore(Wrapped, S.SlotIndex);
    B.CreateBr(S.Sched);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({NextIter, Live, S.SlotIndex});
  }

private:
  static constexpr unsigned ResumeField = 0;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createRingScheduler(Skeleton &S) {
  if (ringCanBeCompact(*S.Plan))
    return createCompactRingScheduler(S);
  return std::make_unique<RingScheduler>(S);
}
