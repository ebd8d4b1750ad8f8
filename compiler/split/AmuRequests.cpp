//===- AmuRequests.cpp - far accesses as requests to the software AMU ------===//
//
// Under -memcoro-amu (memcoro-cc -fmemcoro-amu) a transformed loop reaches
// far memory through the thread's software AMU (include/memcoro/amu.h,
// docs/amu.md) instead of prefetching. At each suspension every far address
// of the suspension becomes an aload of the access's bytes into the slot's
// request buffer, tagged with the slot's id. Addresses of one suspension
// that lie within one line's span of each other (fields of one record, keys
// of one bucket) are one request over their byte range, the paper's
// coarse-grained request; the remaining requests (coalesced by the planner)
// form one aset group, so the id completes once, when all have arrived. After the id has completed, the access itself reads or
// writes the line the request brought in, as a near access: its answer is
// the serial loop's, because no other iteration writes that memory (the
// pragma's contract), and its cost is that of reading the buffer.
//
// -memcoro-scheduler picks the code generator:
//   static   ring or lockstep as planned, aload at the suspension and
//            memcoro_amu_wait on resume (this file, AmuStatic)
//   dynamic  resume whichever slot getfin returns (AmuGetfinScheduler.cpp,
//            CoroAMU-D), concurrency adapted from polling feedback
//   bafin    resume at the phase the completed request registered
//            (AmuBafinScheduler.cpp, CoroAMU-Full)
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-amu -memcoro-scheduler=dynamic -S in.ll
//
//===----------------------------------------------------------------------===//
#include "AmuFarAccesses.h"
#include "MemcoroInternal.h"
#include "split/AmuRequests.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumAmuRequests, "Number of AMU requests (aload) generated at suspension points");
STATISTIC(NumAmuLineMerged, "Number of far addresses served by another address's request over their line");
STATISTIC(NumAmuInlined, "Number of AMU request-path calls inlined into generated loops");
STATISTIC(NumAmuOrderedStatic, "Number of loops with code in iteration order kept on the static AMU scheduler");

namespace {
enum class AmuScheduler { Static, Dynamic, Bafin };
} // namespace

static cl::opt<AmuScheduler> Scheduler(
    "memcoro-scheduler", cl::Hidden, cl::init(AmuScheduler::Dynamic),
    cl::desc("Scheduler of transformed loops under -memcoro-amu"),
    cl::values(clEnumValN(AmuScheduler::Static, "static", "ring or lockstep: aload, then wait on resume"),
               clEnumValN(AmuScheduler::Dynamic, "dynamic", "resume the slot getfin returns (CoroAMU-D)"),
               clEnumValN(AmuScheduler::Bafin, "bafin",
                          "resume at the phase bafin returns, aset coalescing (CoroAMU-Full)")));

static cl::opt<bool> InlineRequests(
    "memcoro-amu-inline", cl::Hidden, cl::init(true),
    cl::desc("Inline the AMU's request path into generated loops (false: calls, so that a profiler counts "
             "each AMU operation as one call, as one instruction of the hardware AMU)"));

void memcoro::chooseAmuScheduler(LoopPlan &Plan) {
  if (amuEnabled())
    Plan.ThroughAmu = true;
}

bool memcoro::chooseAmuDispatch(LoopPlan &Plan) {
  if (!Plan.ThroughAmu || Scheduler == AmuScheduler::Static)
    return false;
  if (!Plan.Ordered.empty()) {
    ++NumAmuOrderedStatic;
    LLVM_DEBUG(dbgs() << "memcoro-split: code in iteration order: the static AMU scheduler instead of "
                      << (Scheduler == AmuScheduler::Dynamic ? "dynamic" : "bafin") << "\n");
    return true;
  }
  Plan.Style = Scheduler == AmuScheduler::Dynamic ? Dispatch::AmuGetfin : Dispatch::AmuBafin;
  return false;
}

Value *memcoro::amuId(IRBuilder<> &B, Value *Slot) { return B.CreateTrunc(Slot, B.getInt32Ty(), "memcoro.amu.id"); }

/// Bytes the request for \p Ptr moves: those of the access through it, else
/// one word (an address the planner hoisted for a later access of the line).
static uint64_t requestBytes(const Suspension &Sp, Value *Ptr, const DataLayout &DL) {
  for (Instruction *I : Sp.Accesses)
    if (accessedPointer(*I) == Ptr) {
      Type *T = isa<LoadInst>(I)            ? I->getType()
                : isa<StoreInst>(I)         ? cast<StoreInst>(I)->getValueOperand()->getType()
                : isa<AtomicRMWInst>(I)     ? cast<AtomicRMWInst>(I)->getValOperand()->getType()
                                            : cast<AtomicCmpXchgInst>(I)->getNewValOperand()->getType();
      return std::max<uint64_t>(1, DL.getTypeStoreSize(T).getFixedValue());
    }
  return 8;
}

/// Bytes one coarse-grained request may span: a cache line, what the
/// hand-written kernels request for a record or a bucket.
static constexpr int64_t RequestBytes = LineBytes;

namespace {
/// One aload: from Far, the lowest address of its group, over Bytes.
struct Request {
  Value *Far;
  uint64_t Bytes;
};
} // namespace

/// The requests of \p Sp: its far addresses grouped so that each group's
/// accesses lie within RequestBytes of each other (a constant distance from one
/// base), one request per group over the group's byte range, in the order of
/// each group's first address.
static SmallVector<Request, 2> requestsOf(const Suspension &Sp, const DataLayout &DL) {
  struct Group {
    Value *Anchor; ///< the first address of the group; offsets are from it
    int64_t Lo, Hi;
    Value *LoPtr; ///< the address at offset Lo
  };
  SmallVector<Group, 2> Groups;
  for (auto &[Ptr, Write] : Sp.Prefetch) {
    int64_t Size = requestBytes(Sp, Ptr, DL);
    bool Merged = false;
    for (Group &G : Groups) {
      std::optional<int64_t> D = byteDistance(G.Anchor, Ptr, DL);
      if (!D)
        continue;
      int64_t Lo = std::min(G.Lo, *D), Hi = std::max(G.Hi, *D + Size);
      if (Hi - Lo > RequestBytes)
        continue;
      if (*D < G.Lo)
        G.LoPtr = Ptr;
      G.Lo = Lo;
      G.Hi = Hi;
      Merged = true;
      break;
    }
    if (!Merged)
      Groups.push_back({Ptr, 0, Size, Ptr});
  }
  SmallVector<Request, 2> Requests;
  for (const Group &G : Groups)
    Requests.push_back({G.LoPtr, uint64_t(G.Hi - G.Lo)});
  return Requests;
}

void AmuRequests::createState(IRBuilder<> &Entry) {
  Amu = Entry.CreateAlloca(PointerType::get(S.Ctx, 0), nullptr, "memcoro.amu");
}

void AmuRequests::initState(IRBuilder<> &B) {
  B.CreateStore(call(B, "memcoro_amu__cc_current", PointerType::get(S.Ctx, 0), {}), Amu);
}

Value *AmuRequests::amu(IRBuilder<> &B) { return B.CreateLoad(PointerType::get(S.Ctx, 0), Amu, "memcoro.amu"); }

void AmuRequests::addBufferField(SmallVectorImpl<Type *> &Fields) {
  const DataLayout &DL = S.F.getParent()->getDataLayout();
  size_t Entries = 1;
  for (const Suspension &Sp : S.Plan->Suspensions) {
    SmallVector<Request, 2> Requests = requestsOf(Sp, DL);
    Entries = std::max(Entries, Requests.size());
    for (const Request &R : Requests)
      EntryBytes = std::max<unsigned>(EntryBytes, alignTo(R.Bytes, 8));
  }
  BufferField = Fields.size();
  Fields.push_back(ArrayType::get(ArrayType::get(Type::getInt64Ty(S.Ctx), EntryBytes / 8), Entries));
}

CallInst *AmuRequests::call(IRBuilder<> &B, StringRef Name, Type *Ret, ArrayRef<Value *> Args) {
  SmallVector<Type *, 6> Params;
  for (Value *V : Args)
    Params.push_back(V->getType());
  FunctionCallee Callee = S.F.getParent()->getOrInsertFunction(Name, FunctionType::get(Ret, Params, false));
  CallInst *CI = B.CreateCall(Callee, Args);
  Calls.push_back(CI);
  return CI;
}

void AmuRequests::emitRequests(IRBuilder<> &B, const Suspension &Sp, Value *Id, Value *Resume) {
  const DataLayout &DL = S.F.getParent()->getDataLayout();
  Type *Ptr0 = PointerType::get(S.Ctx, 0);
  Value *A = amu(B);
  SmallVector<Request, 2> Requests = requestsOf(Sp, DL);
  NumAmuLineMerged += Sp.Prefetch.size() - Requests.size();
  if (Requests.size() > 1)
    call(B, "memcoro_amu__cc_aset", B.getVoidTy(), {A, Id, B.getInt32(Requests.size())});
  Value *Slot = B.CreateLoad(B.getInt64Ty(), S.SlotIndex);
  Value *Buffer = S.Frame.fieldPtr(B, Slot, BufferField);
  for (unsigned E = 0; E < Requests.size(); ++E) {
    Value *Dst = B.CreateConstInBoundsGEP2_32(
        ArrayType::get(Type::getInt64Ty(S.Ctx), EntryBytes / 8), Buffer, E, 0, "memcoro.amu.buf");
    call(B, "memcoro_amu__cc_aload", B.getVoidTy(),
         {A, Id, Dst, B.CreateAddrSpaceCast(Requests[E].Far, Ptr0), B.getInt64(Requests[E].Bytes),
          Resume ? Resume : ConstantPointerNull::get(cast<PointerType>(Ptr0))});
    ++NumAmuRequests;
  }
}

void AmuRequests::finish() {
  Type *Ptr0 = PointerType::get(S.Ctx, 0);
  auto makeNear = [&](Instruction *I) {
    Value *P = accessedPointer(*I);
    if (!P || P->getType()->getPointerAddressSpace() == 0)
      return;
    auto *Cast = new AddrSpaceCastInst(P, Ptr0, P->getName() + ".near", I);
    I->replaceUsesOfWith(P, Cast);
  };
  for (const Suspension &Sp : S.Plan->Suspensions)
    for (Instruction *I : Sp.Accesses)
      makeNear(I);
  for (Instruction *I : S.Plan->Covered)
    makeNear(I);
  for (CallInst *CI : Calls) {
    Function *Callee = CI->getCalledFunction();
    if (!InlineRequests || !Callee || Callee->isDeclaration())
      continue;
    InlineFunctionInfo IFI;
    if (InlineFunction(*CI, IFI).isSuccess())
      ++NumAmuInlined;
    else
      LLVM_DEBUG(dbgs() << "memcoro-split: could not inline " << Callee->getName() << "\n");
  }
  Calls.clear();
}

namespace {

/// The static scheduler on the AMU: the planned ring or lockstep dispatch,
/// with each suspension's accesses issued as requests under the slot's id
/// and a wait for that id when the round robin comes back to the slot.
class AmuStatic final : public SchedulerCodeGen {
public:
  AmuStatic(Skeleton &S, std::unique_ptr<SchedulerCodeGen> Inner)
      : SchedulerCodeGen(S), Inner(std::move(Inner)), Requests(S) {}

  void createState(IRBuilder<> &Entry) override {
    Inner->createState(Entry);
    Requests.createState(Entry);
  }
  void initState(IRBuilder<> &B) override {
    Inner->initState(B);
    Requests.initState(B);
  }
  Value *emitLaunch(IRBuilder<> &B) override { return Inner->emitLaunch(B); }
  void emitIterationStart(IRBuilder<> &B, Value *K) override { Inner->emitIterationStart(B, K); }
  BasicBlock *afterIteration() override { return Inner->afterIteration(); }
  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override {
    Inner->addHeaderFields(Fields);
    Requests.addBufferField(Fields);
  }
  void initSlots(IRBuilder<> &B) override { Inner->initSlots(B); }
  Value *emitResumeState(IRBuilder<> &B, Value *Slot) override { return Inner->emitResumeState(B, Slot); }
  void emitSchedulerBlocks() override { Inner->emitSchedulerBlocks(); }
  void emitEarlyAccess(IRBuilder<> &B, const Suspension &Sp) override {
    Requests.emitRequests(B, Sp, amuId(B, B.CreateLoad(B.getInt64Ty(), S.SlotIndex)), nullptr);
  }
  void emitSuspend(IRBuilder<> &B, Value *Slot, unsigned J) override { Inner->emitSuspend(B, Slot, J); }
  /// The slot's turn has come: its request may still be in flight.
  void emitResume(IRBuilder<> &B, Value *Slot, unsigned J) override {
    Requests.call(B, "memcoro_amu__cc_wait", B.getVoidTy(), {Requests.amu(B), amuId(B, Slot)});
    Inner->emitResume(B, Slot, J);
  }
  void emitNext(IRBuilder<> &B, Value *NextSlot) override { Inner->emitNext(B, NextSlot); }
  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {
    Inner->promotableState(Allocas);
    Allocas.push_back(Requests.state());
  }
  void finishLowering() override {
    Inner->finishLowering();
    Requests.finish();
  }

private:
  std::unique_ptr<SchedulerCodeGen> Inner;
  AmuRequests Requests;
};

} // namespace

std::unique_ptr<SchedulerCodeGen> memcoro::createAmuStaticScheduler(Skeleton &S,
                                                                    std::unique_ptr<SchedulerCodeGen> Static) {
  return std::make_unique<AmuStatic>(S, std::move(Static));
}

void AmuCompletionScheduler::createLaunchState(IRBuilder<> &Entry) {
  RingLaunchCodeGen::createState(Entry);
  Cursor = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.cursor");
}

void AmuCompletionScheduler::initLaunchState(IRBuilder<> &B) {
  B.CreateStore(B.getInt64(0), NextIter);
  B.CreateStore(B.getInt64(1), Live);
  B.CreateStore(B.getInt64(1), Cursor);
}

void AmuCompletionScheduler::emitSchedulerBlocks() {
  IRBuilder<> B(Retire);
  B.SetCurrentDebugLocation(S.Loc);
  B.CreateStore(B.CreateSub(B.CreateLoad(B.getInt64Ty(), Live), B.getInt64(1)), Live);
  B.CreateBr(S.Next);
}

void AmuCompletionScheduler::emitSpawn(IRBuilder<> &B) {
  Type *I64 = B.getInt64Ty();
  Value *New = B.CreateLoad(I64, Cursor);
  B.CreateStore(New, S.SlotIndex);
  B.CreateStore(B.CreateAdd(New, B.getInt64(1)), Cursor);
  B.CreateStore(B.CreateAdd(B.CreateLoad(I64, Live), B.getInt64(1)), Live);
}
