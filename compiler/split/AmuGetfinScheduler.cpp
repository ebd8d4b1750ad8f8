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
// By default all N slots run from the start (limit = N, idle polls again).
// -memcoro-amu-adapt adapts concurrency from polling feedback (the paper's
// return block, III-A): the loop starts with -memcoro-amu-start slots and
// launches one more each time a poll finds nothing complete, that is, each
// time the core would otherwise wait, up to parallel(N); it settles where a
// completion is ready whenever the core asks.
//
// -memcoro-amu-shrink adapts both ways: when `limit` polls in a row (times
// -memcoro-amu-shrink-rounds) have each found a completion waiting, the core
// is the bottleneck and one slot fewer would keep it as busy, so
// limit = max(limit - 1, 1). A slot whose iteration ends while more slots run
// than the limit allows parks (its index goes on a stack) instead of taking
// the next iteration; a new slot is a parked one when there is one:
//   iter.end: live > limit ? (slot[s].resume = 0, push s, live--, next) : launch
//   next:   live == 0 ? done
//           : live < limit && (parked || cursor < N) ? (s = pop or cursor++, live++, sched)
//           : poll
//   ready:  hits++; hits >= limit * rounds ? (limit = max(limit - 1, 1), hits = 0)
//   idle:   hits = 0; limit = min(limit + 1, N); ...
// Both are off by default: against all N at once, growing was 5-9% slower
// with fixed latency and 2-3% faster with bimodal latency, shrinking slower
// still (docs/amu.md, "Adapting concurrency"); the emulated AMU charges
// nothing for requests in flight, so more of them never hurt.
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

static cl::opt<bool> Adapt("memcoro-amu-adapt", cl::Hidden, cl::init(false),
                           cl::desc("Dynamic AMU scheduler: start with few slots and grow concurrency when a poll "
                                    "finds nothing done"));
static cl::opt<bool> Shrink("memcoro-amu-shrink", cl::Hidden, cl::init(false),
                            cl::desc("Dynamic AMU scheduler: adapt concurrency both ways, also lowering it "
                                     "when polls keep finding completions waiting"));
static cl::opt<unsigned> ShrinkRounds("memcoro-amu-shrink-rounds", cl::Hidden, cl::init(1),
                                      cl::desc("Dynamic AMU scheduler with -memcoro-amu-shrink: rounds of polls "
                                               "(limit polls each) that must all find a completion to lower it"));
static cl::opt<unsigned> AdaptStart("memcoro-amu-start", cl::Hidden, cl::init(4),
                                    cl::desc("Dynamic AMU scheduler: slots at the start when adapting"));

namespace {

class AmuGetfinScheduler final : public AmuCompletionScheduler {
public:
  using AmuCompletionScheduler::AmuCompletionScheduler;

  void createState(IRBuilder<> &Entry) override {
    createLaunchState(Entry);
    Limit = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.limit");
    if (shrinks()) {
      Hits = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.hits");
      NParked = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.nparked");
      Parked = Entry.CreateAlloca(ArrayType::get(Entry.getInt64Ty(), S.N), nullptr, "memcoro.parked");
    }
    Requests.createState(Entry);
  }

  /// Slots are launched up to the limit.
  void initState(IRBuilder<> &B) override {
    initLaunchState(B);
    unsigned Start = adapts() ? std::clamp(AdaptStart.getValue(), 1u, S.N) : S.N;
    B.CreateStore(B.getInt64(Start), Limit);
    if (shrinks()) {
      B.CreateStore(B.getInt64(0), Hits);
      B.CreateStore(B.getInt64(0), NParked);
    }
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

  /// With shrinking, a slot over the limit parks instead of launching
  /// (the blocks are filled in once the slots are laid out).
  BasicBlock *afterIteration() override {
    if (!shrinks())
      return S.Launch;
    Over = BasicBlock::Create(S.Ctx, "memcoro.over", &S.F, S.Next);
    return Over;
  }

  void emitSchedulerBlocks() override {
    AmuCompletionScheduler::emitSchedulerBlocks();
    if (!Over)
      return;
    Type *I64 = Type::getInt64Ty(S.Ctx);
    auto *Park = BasicBlock::Create(S.Ctx, "memcoro.park", &S.F, S.Next);
    IRBuilder<> CB(Over);
    CB.SetCurrentDebugLocation(S.Loc);
    Value *Launched = CB.CreateLoad(I64, Live);
    CB.CreateCondBr(CB.CreateICmpUGT(Launched, CB.CreateLoad(I64, Limit)), Park, S.Launch);
    IRBuilder<> PB(Park);
    PB.SetCurrentDebugLocation(S.Loc);
    Value *Slot = PB.CreateLoad(I64, S.SlotIndex);
    PB.CreateStore(PB.getInt32(0), S.Frame.fieldPtr(PB, Slot, ResumeField));
    Value *Top = PB.CreateLoad(I64, NParked);
    PB.CreateStore(Slot, PB.CreateInBoundsGEP(Parked->getAllocatedType(), Parked, {PB.getInt64(0), Top}));
    PB.CreateStore(PB.CreateAdd(Top, PB.getInt64(1)), NParked);
    PB.CreateStore(PB.CreateSub(PB.CreateLoad(I64, Live), PB.getInt64(1)), Live);
    PB.CreateBr(S.Next);
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
    B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(I64, Live), B.getInt64(0)), S.Done, More);

    IRBuilder<> MB(More);
    MB.SetCurrentDebugLocation(S.Loc);
    MB.CreateCondBr(mayGrow(MB, MB.CreateLoad(I64, Limit)), Spawn, Poll);

    // A slot not used yet (or parked): its state is 0, so sched launches an
    // iteration.
    IRBuilder<> SB(Spawn);
    SB.SetCurrentDebugLocation(S.Loc);
    if (shrinks()) {
      auto *Unpark = BasicBlock::Create(S.Ctx, "memcoro.unpark", &S.F, S.Done);
      auto *Fresh = BasicBlock::Create(S.Ctx, "memcoro.fresh", &S.F, S.Done);
      Value *Top = SB.CreateLoad(I64, NParked);
      SB.CreateCondBr(SB.CreateICmpNE(Top, SB.getInt64(0)), Unpark, Fresh);
      IRBuilder<> UB(Unpark);
      UB.SetCurrentDebugLocation(S.Loc);
      Value *Below = UB.CreateSub(Top, UB.getInt64(1));
      UB.CreateStore(Below, NParked);
      UB.CreateStore(UB.CreateLoad(I64, UB.CreateInBoundsGEP(Parked->getAllocatedType(), Parked,
                                                               {UB.getInt64(0), Below})),
                     S.SlotIndex);
      UB.CreateStore(UB.CreateAdd(UB.CreateLoad(I64, Live), UB.getInt64(1)), Live);
      UB.CreateBr(S.Sched);
      SB.SetInsertPoint(Fresh);
    }
    emitSpawn(SB);
    SB.CreateBr(S.Sched);

    IRBuilder<> PB(Poll);
    PB.SetCurrentDebugLocation(S.Loc);
    Value *Id = Requests.call(PB, "memcoro_amu__cc_getfin", PB.getInt32Ty(), {Requests.amu(PB)});
    PB.CreateCondBr(PB.CreateICmpSGE(Id, PB.getInt32(0)), Got, Idle);

    IRBuilder<> GB(Got);
    GB.SetCurrentDebugLocation(S.Loc);
    GB.CreateStore(GB.CreateZExt(Id, I64), S.SlotIndex);
    if (shrinks()) {
      // A full round of polls found completions waiting: one slot fewer.
      Value *H = GB.CreateAdd(GB.CreateLoad(I64, Hits), GB.getInt64(1));
      Value *L = GB.CreateLoad(I64, Limit);
      Value *Round = GB.CreateICmpUGE(H, GB.CreateMul(L, GB.getInt64(std::max(1u, ShrinkRounds.getValue()))));
      Value *Lower = GB.CreateBinaryIntrinsic(Intrinsic::umax, GB.CreateSub(L, GB.getInt64(1)), GB.getInt64(1));
      GB.CreateStore(GB.CreateSelect(Round, Lower, L), Limit);
      GB.CreateStore(GB.CreateSelect(Round, GB.getInt64(0), H), Hits);
    }
    GB.CreateBr(S.Sched);

    // Nothing done: the core would wait, so more requests should be in
    // flight. Launch another slot if parallel(N) allows.
    IRBuilder<> IB(Idle);
    IB.SetCurrentDebugLocation(S.Loc);
    if (adapts()) {
      if (shrinks())
        IB.CreateStore(IB.getInt64(0), Hits);
      Value *Grown = IB.CreateBinaryIntrinsic(Intrinsic::umin,
                                              IB.CreateAdd(IB.CreateLoad(I64, Limit), IB.getInt64(1)),
                                              IB.getInt64(S.N));
      IB.CreateStore(Grown, Limit);
      IB.CreateCondBr(mayGrow(IB, Grown), Spawn, Poll);
    } else {
      IB.CreateBr(Poll);
    }
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Allocas.append({NextIter, Live, Cursor, Limit, S.SlotIndex, Requests.state()});
    if (shrinks())
      Allocas.append({Hits, NParked});
  }

private:
  static bool adapts() { return Adapt || Shrink; }
  static bool shrinks() { return Shrink; }

  /// Whether another slot may run under \p Lim: without shrinking, slots
  /// never used are counted by the cursor alone; with it, a slot may be
  /// parked or never used.
  Value *mayGrow(IRBuilder<> &B, Value *Lim) {
    Type *I64 = B.getInt64Ty();
    if (!shrinks())
      return B.CreateICmpULT(B.CreateLoad(I64, Cursor), Lim);
    Value *Free = B.CreateOr(B.CreateICmpNE(B.CreateLoad(I64, NParked), B.getInt64(0)),
                             B.CreateICmpULT(B.CreateLoad(I64, Cursor), B.getInt64(S.N)));
    return B.CreateAnd(B.CreateICmpULT(B.CreateLoad(I64, Live), Lim), Free);
  }

  static constexpr unsigned ResumeField = 0;
  /// How many slots may run now (adapted).
  AllocaInst *Limit = nullptr;
  /// Shrinking: polls in a row that found a completion; parked slots.
  AllocaInst *Hits = nullptr, *NParked = nullptr, *Parked = nullptr;
  BasicBlock *Over = nullptr;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createAmuGetfinScheduler(Skeleton &S) {
  return std::make_unique<AmuGetfinScheduler>(S);
}
