//===- AmuBafinScheduler.cpp - resume where the completed request says -----===//
//
// CoroAMU's full configuration (CoroAMU-Full) on the software AMU: each
// request registers the phase its slot resumes at as the request's resume
// target (aload with a target, as the paper's bafin carries the PC offset),
// and the scheduler jumps to the phase bafin hands back with the completed
// id. Nothing is looked up in the slot to find where it stands: the slot
// holds only saved values and the request buffer. Independent far accesses
// of one suspension (coalesced by the planner) are one aset group.
//
//   preheader: amu = the thread's AMU; slot 0 launches (phase 0)
//   sched: switch phase          (the phase of the slot that runs now)
//     0       launch: k = next++; k < TC ? iter.start : retire
//     j       resume.j (the lowering's)
//   a suspension issues its aload(s) under id s with target j, and yields
//   iter.end -> launch: the slot takes the next iteration at once
//   retire: live--
//   next:   live == 0 ? done : cursor < N ? (s = cursor++, phase = 0, sched) : poll
//   poll:   (id, j) = bafin(); none ? poll : (s = id, phase = j, sched)
//
// The id is the slot's index, so the slot's address is base + id * size: the
// handler aconfig would configure; the generated code computes it itself.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-amu -memcoro-scheduler=bafin -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/AmuRequests.h"

#include "llvm/IR/Module.h"

using namespace llvm;
using namespace memcoro;

namespace {

class AmuBafinScheduler final : public AmuCompletionScheduler {
public:
  using AmuCompletionScheduler::AmuCompletionScheduler;

  void createState(IRBuilder<> &Entry) override {
    createLaunchState(Entry);
    Phase = Entry.CreateAlloca(Entry.getInt32Ty(), nullptr, "memcoro.phase");
    Requests.createState(Entry);
  }

  void initState(IRBuilder<> &B) override {
    initLaunchState(B);
    B.CreateStore(B.getInt32(0), Phase);
    Requests.initState(B);
  }

  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override { Requests.addBufferField(Fields); }

  /// The phase comes with the completion, not from the slot.
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override {
    return B.CreateLoad(B.getInt32Ty(), Phase, "memcoro.state");
  }

  /// Each request names the phase that resumes it: j + 1 for suspension j.
  void emitEarlyAccess(IRBuilder<> &B, const Suspension &Sp) override {
    unsigned J = &Sp - S.Plan->Suspensions.data();
    Value *Target = B.CreateIntToPtr(B.getInt64(J + 1), PointerType::get(S.Ctx, 0));
    Requests.emitRequests(B, Sp, amuId(B, B.CreateLoad(B.getInt64Ty(), S.SlotIndex)), Target);
  }

  void emitNext(IRBuilder<> &B, Value *) override {
    Type *I64 = B.getInt64Ty();
    auto *More = BasicBlock::Create(S.Ctx, "memcoro.more", &S.F, S.Done);
    auto *Spawn = BasicBlock::Create(S.Ctx, "memcoro.spawn", &S.F, S.Done);
    auto *Poll = BasicBlock::Create(S.Ctx, "memcoro.poll", &S.F, S.Done);
    auto *Got = BasicBlock::Create(S.Ctx, "memcoro.ready", &S.F, S.Done);
    B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I64, Live), B.getInt64(0)), S.Done, More);

    IRBuilder<> MB(More);
    MB.SetCurrentDebugLocation(S.Loc);
    MB.CreateCondBr(MB.CreateICmpULT(MB.CreateLoad(I64, Cursor), MB.getInt64(S.N)), Spawn, Poll);

    IRBuilder<> SB(Spawn);
    SB.SetCurrentDebugLocation(S.Loc);
    emitSpawn(SB);
    SB.CreateStore(SB.getInt32(0), Phase);
    SB.CreateBr(S.Sched);

    IRBuilder<> PB(Poll);
    PB.SetCurrentDebugLocation(S.Loc);
    Value *Fin = Requests.call(PB, "memcoro_amu__cc_bafin", I64, {Requests.amu(PB)});
    PB.CreateCondBr(PB.CreateICmpSGE(Fin, PB.getInt64(0)), Got, Poll);

    IRBuilder<> GB(Got);
    GB.SetCurrentDebugLocation(S.Loc);
    GB.CreateStore(GB.CreateAnd(Fin, GB.getInt64(0xffffffff)), S.SlotIndex);
    GB.CreateStore(GB.CreateTrunc(GB.CreateLShr(Fin, 32), GB.getInt32Ty()), Phase);
    GB.CreateBr(S.Sched);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({NextIter, Live, Cursor, Phase, S.SlotIndex, Requests.state()});
  }

private:
  /// The phase the running slot resumes at: 0 for a new slot, else from bafin.
  AllocaInst *Phase = nullptr;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createAmuBafinScheduler(Skeleton &S) {
  return std::make_unique<AmuBafinScheduler>(S);
}
