//===- AmuGetfinScheduler.cpp - resume the slot the AMU says is ready ------===//
//
// CoroAMU's dynamic scheduler (CoroAMU-D) on the software AMU: a suspension
// issues its far accesses as aloads under the slot's id (AmuRequests.cpp)
// and yields; the scheduler resumes whichever slot getfin returns, so a slow
// request holds up only its own iteration. Each slot keeps its resume state
// in the first field of its slot.
//
//   preheader: amu = the thread's AMU; slot 0 launches; limit = start
//   sched: switch slot[s].resume
//     0       launch: k = next++; k < TC ? iter.start : retire
//     j       resume.j (the lowering's)
//   a suspension issues its aload(s) under id s, stores resume = j, yields
//   iter.end -> launch: the slot takes the next iteration at once
//   retire: live--
//   next:   live == 0 ? done
//           : cursor < limit ? (s = cursor++, live++, sched)   a new slot
//           : poll
//   poll:   id = getfin(); id >= 0 ? (s = id, sched) : idle
//   idle:   limit = min(limit + 1, N); cursor < limit ? next : poll
//
// Concurrency adapts from polling feedback (the paper's return block, III-A):
// the loop starts with -memcoro-amu-start slots and launches one more each
// time a poll finds nothing complete, that is, each time the core would
// otherwise wait, up to parallel(N); it settles where a completion is ready
// whenever the core asks. -memcoro-amu-adapt=false starts all N at once.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-amu -memcoro-scheduler=dynamic -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/AmuRequests.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace memcoro;

static cl::opt<bool> Adapt("memcoro-amu-adapt", cl::Hidden, cl::init(true),
                           cl::desc("Dynamic AMU scheduler: grow concurrency when a poll finds nothing done"));
static cl::opt<unsigned> AdaptStart("memcoro-amu-start", cl::Hidden, cl::init(4),
                                    cl::desc("Dynamic AMU scheduler: slots at the start when adapting"));

namespace {

class AmuGetfinScheduler final : public AmuCompletionScheduler {
public:
  using AmuCompletionScheduler::AmuCompletionScheduler;

  void createState(IRBuilder<> &Entry) override {
    createLaunchState(Entry);
    Limit = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.limit");
    Requests.createState(Entry);
  }

  /// Slots are launched up to the limit.
  void initState(IRBuilder<> &B) override {
    initLaunchState(B);
    unsigned Start = Adapt ? std::clamp(AdaptStart.getValue(), 1u, S.N) : S.N;
    B.CreateStore(B.getInt64(Start), Limit);
    Requests.initState(B);
  }

  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override {
    Fields.push_back(Type::getInt32Ty(S.Ctx));
    Requests.addBufferField(Fields);
  }

  void initSlots(IRBuilder<> &B) override {
    AllocaInst *Slots = S.Frame.slots();
    B.CreateMemSet(Slots, B.getInt8(0), *Slots->getAllocationSize(S.F.getParent()->getDataLayout()),
                   Slots->getAlign());
  }

  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override {
    return B.CreateLoad(B.getInt32Ty(), S.Frame.fieldPtr(B, Slot, ResumeField), "memcoro.state");
  }

  void emitEarlyAccess(IRBuilder<> &B, const Suspension &Sp) override {
    Requests.emitRequests(B, Sp, amuId(B, B.CreateLoad(B.getInt64Ty(), S.SlotIndex)), nullptr);
  }

  void emitSuspend(IRBuilder<> &B, Value *Slot, unsigned J) override {
    B.CreateStore(B.getInt32(J + 1), S.Frame.fieldPtr(B, Slot, ResumeField));
  }

  void emitNext(IRBuilder<> &B, Value *) override {
    Type *I64 = B.getInt64Ty();
    auto *More = BasicBlock::Create(S.Ctx, "memcoro.more", &S.F, S.Done);
    auto *Spawn = BasicBlock::Create(S.Ctx, "memcoro.spawn", &S.F, S.Done);
    auto *Poll = BasicBlock::Create(S.Ctx, "memcoro.poll", &S.F, S.Done);
    auto *Got = BasicBlock::Create(S.Ctx, "memcoro.ready", &S.F, S.Done);
    auto *Idle = BasicBlock::Create(S.Ctx, "memcoro.idle", &S.F, S.Done);
    B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I64, LiveSlots), B.getInt64(0)), S.Done, More);

    IRBuilder<> MB(More);
    MB.SetCurrentDebugLocation(S.Loc);
    Value *C = MB.CreateLoad(I64, Cursor);
    MB.CreateCondBr(MB.CreateICmpULT(C, MB.CreateLoad(I64, Limit)), Spawn, Poll);

    // A slot not used yet: its state is 0, so sched launches an iteration.
    IRBuilder<> SB(Spawn);
    SB.SetCurrentDebugLocation(S.Loc);
    emitSpawn(SB);
    SB.CreateBr(S.Sched);

    IRBuilder<> PB(Poll);
    PB.SetCurrentDebugLocation(S.Loc);
    Value *Id = Requests.call(PB, "memcoro_amu__cc_getfin", PB.getInt32Ty(), {Requests.amu(PB)});
    PB.CreateCondBr(PB.CreateICmpSGE(Id, PB.getInt32(0)), Got, Idle);

    IRBuilder<> GB(Got);
    GB.SetCurrentDebugLocation(S.Loc);
    GB.CreateStore(GB.CreateZExt(Id, I64), S.SlotIndex);
    GB.CreateBr(S.Sched);

    // Nothing done: the core would wait, so more requests should be in
    // flight. Launch another slot if parallel(N) allows.
    IRBuilder<> IB(Idle);
    IB.SetCurrentDebugLocation(S.Loc);
    if (Adapt) {
      Value *Grown = IB.CreateBinaryIntrinsic(Intrinsic::umin,
                                              IB.CreateAdd(IB.CreateLoad(I64, Limit), IB.getInt64(1)),
                                              IB.getInt64(S.N));
      IB.CreateStore(Grown, Limit);
      IB.CreateCondBr(IB.CreateICmpULT(IB.CreateLoad(I64, Cursor), Grown), Spawn, Poll);
    } else {
      IB.CreateBr(Poll);
    }
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({NextIter, LiveSlots, Cursor, Limit, S.SlotIndex, Requests.state()});
  }

private:
  static constexpr unsigned ResumeField = 0;
  /// How many slots may run now (adapted).
  AllocaInst *Limit = nullptr;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createAmuGetfinScheduler(Skeleton &S) {
  return std::make_unique<AmuGetfinScheduler>(S);
}
