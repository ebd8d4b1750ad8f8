//===- SplitCheck.cpp - the checking build: every access, with its iteration ===//
//
// Under -memcoro-check (the driver's -fmemcoro-check), every loop that
// memcoro-split transforms reports to the runtime (runtime/check/check.c)
// each byte its iterations load or store, with the iteration's number k, so
// that the runtime can tell when two iterations touched the same bytes in an
// order the serial loop would not have: the pragma's contract (iterations do
// not depend on each other through memory, except through reductions and
// atomics) checked at run time, as -fsanitize=thread checks a program's.
//
// The lowering calls instrumentForCheck() once, at iter.start, before it cuts
// the body at its suspension points. So the instrumentation sees only the
// loop's own accesses (not the slots' saves and restores, which do not exist
// yet), and k is an ordinary value of the iteration that the frame saves
// across suspensions like any other:
//
//   preheader:   __memcoro_check_enter()             a new execution
//   iter.start:  %k.check = freeze i64 %k            k, defined in the iteration
//   body:        %v = load i32, ptr %p
//                __memcoro_check_access(@site, %k.check, %p, 4)
//
// Each call follows its access with no suspension in between, so the runtime
// sees the accesses in the order they ran. Accesses to the iteration's
// private stack memory are not reported: each slot has its own copy, which
// only the slot's successive iterations use, in order. The loop and each site
// (file:line:col, load or store, atomic) are constant data; their layout is
// the runtime's struct memcoro_check_loop and memcoro_check_site
// (runtime/check/check.h).
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -memcoro-check -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/TargetParser/Triple.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCheckedLoops, "Number of interleaved loops instrumented for -memcoro-check");
STATISTIC(NumCheckedAccesses, "Number of memory accesses reported to the -memcoro-check runtime");
STATISTIC(NumUpdates, "Number of commutative read-modify-writes checked as updates");
STATISTIC(NumPrivateUnchecked, "Number of accesses to slot-private stack memory left unchecked");
STATISTIC(NumUncheckedCalls, "Number of calls in place whose writes -memcoro-check does not see");

static cl::opt<bool> CheckAccesses(
    "memcoro-check", cl::Hidden, cl::init(false),
    cl::desc("Report every memory access of an interleaved loop, with its iteration, to memcoro's "
             "runtime, which reports iterations that ran out of serial order (-fmemcoro-check)"));

namespace {

/// The runtime's MEMCORO_CHECK_READ/WRITE/ATOMIC/UPDATE (runtime/check/check.h).
enum SiteFlags : unsigned { Read = 1, Write = 2, Atomic = 4, Update = 8 };

/// One report to the runtime: after \p After, \p Bytes at \p Ptr.
struct CheckedAccess {
  Instruction *After;
  Value *Ptr;
  Value *Bytes;
  unsigned Flags;
};

class CheckInstrumenter {
public:
  CheckInstrumenter(const SplitAnalyses &A, const LoopPlan &Plan)
      : A(A), Plan(Plan), M(*A.F.getParent()), Ctx(M.getContext()), I32(Type::getInt32Ty(Ctx)),
        I64(Type::getInt64Ty(Ctx)), PtrTy(PointerType::get(Ctx, 0)) {}
  void run(IRBuilder<> &IterStart, Value *K);

private:
  void collect(Instruction &I, SmallVectorImpl<CheckedAccess> &Out);
  void findUpdates();
  void warnUncheckedCalls();
  bool expectedByExchange(const LoadInst &Load) const;
  bool isPrivate(Value *P) const;
  Constant *fileName(const DILocation *Loc);
  Constant *loopDescriptor();
  Constant *siteDescriptor(Constant *Loop, const CheckedAccess &Access);

  const SplitAnalyses &A;
  const LoopPlan &Plan;
  Module &M;
  LLVMContext &Ctx;
  Type *I32, *I64;
  PointerType *PtrTy;
  StringMap<Constant *> FileNames;
  /// Loads and stores of commutative updates (findUpdates).
  SmallPtrSet<Instruction *, 8> Updates;
};

} // namespace

/// A pointer into the iteration's own stack memory (all it may point to is a
/// private alloca).
bool CheckInstrumenter::isPrivate(Value *P) const { return inPrivateAlloca(Plan, P); }

/// A load and a later store of one location that no suspension separates run
/// as one step of the iteration, which no other iteration interrupts; when the
/// store is a commutative update of the loaded value, iterations may apply
/// theirs in any order: a reduction into memory, as `reduction(min:
/// parent[:n])` is in OpenMP. The runtime does not report two such updates.
void CheckInstrumenter::findUpdates() {
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<StoreInst *, 8> Stores;
  for (BasicBlock *BB : Plan.L.blocks())
    for (Instruction &I : *BB) {
      if (auto *Load = dyn_cast<LoadInst>(&I); Load && Load->isSimple())
        Loads.push_back(Load);
      else if (auto *Store = dyn_cast<StoreInst>(&I); Store && Store->isSimple())
        Stores.push_back(Store);
    }
  for (StoreInst *S : Stores)
    for (LoadInst *L : Loads)
      if (byteDistance(L->getPointerOperand(), S->getPointerOperand(), A.DL) == 0 &&
          L->getType() == S->getValueOperand()->getType() && A.DT.dominates(L, S) &&
          (!suspendsBetween(Plan, A.LI, L, S, nullptr) || is_contained(Plan.Locked, std::make_pair(L, S))) &&
          commutativeUpdateKind(*L, *S)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: -memcoro-check: commutative update, not reported against another "
                             "iteration's:"
                          << *L << " /" << *S << "\n");
        Updates.insert(L);
        Updates.insert(S);
        ++NumUpdates;
      }
}

/// Whether \p Load reads the value a compare-and-swap of the same place
/// expects (GAP's `set_bit_atomic`: `old = w[i]; new = old | bit;` retried
/// until the exchange finds `old` there): the exchange checks what the read
/// saw, so the read is part of the atomic update, as legality takes it
/// (checkUpdatesNotSplit), and meets other iterations' atomics freely.
bool CheckInstrumenter::expectedByExchange(const LoadInst &Load) const {
  // The exchange expects the value read, or a retry loop's phi of it.
  auto expects = [&](const User *U, const Value *Expected) {
    auto *CX = dyn_cast<AtomicCmpXchgInst>(U);
    return CX && CX->getCompareOperand() == Expected &&
           byteDistance(CX->getPointerOperand(), Load.getPointerOperand(), A.DL) == 0;
  };
  return any_of(Load.users(), [&](const User *U) {
    auto *Phi = dyn_cast<PHINode>(U);
    return expects(U, &Load) || (Phi && any_of(Phi->users(), [&](const User *V) { return expects(V, Phi); }));
  });
}

void CheckInstrumenter::collect(Instruction &I, SmallVectorImpl<CheckedAccess> &Out) {
  const DataLayout &DL = A.DL;
  auto bytesOf = [&](Type *Ty) { return ConstantInt::get(I64, DL.getTypeStoreSize(Ty).getFixedValue()); };
  // A test read before the iteration's turn is read again in turn
  // (SpeculativeTest.cpp): that re-read is the access the serial order has.
  if (I.hasMetadata("memcoro.speculative"))
    return;
  if (auto *Load = dyn_cast<LoadInst>(&I))
    Out.push_back({&I, Load->getPointerOperand(), bytesOf(Load->getType()),
                   Read | (Load->isAtomic() || expectedByExchange(*Load) ? Atomic : 0u)});
  else if (auto *Store = dyn_cast<StoreInst>(&I))
    Out.push_back({&I, Store->getPointerOperand(), bytesOf(Store->getValueOperand()->getType()),
                   Write | (Store->isAtomic() ? Atomic : 0u)});
  else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    Out.push_back({&I, RMW->getPointerOperand(), bytesOf(RMW->getValOperand()->getType()), Read | Write | Atomic});
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    // A failed exchange writes nothing; as both sides of the pair are atomic
    // the difference never decides a report.
    Out.push_back({&I, CX->getPointerOperand(), bytesOf(CX->getNewValOperand()->getType()), Read | Write | Atomic});
  else if (auto *Transfer = dyn_cast<MemTransferInst>(&I)) {
    Out.push_back({&I, Transfer->getSource(), Transfer->getLength(), Read});
    Out.push_back({&I, Transfer->getDest(), Transfer->getLength(), Write});
  } else if (auto *Set = dyn_cast<MemSetInst>(&I))
    Out.push_back({&I, Set->getDest(), Set->getLength(), Write});
}

Constant *CheckInstrumenter::fileName(const DILocation *Loc) {
  StringRef Name = Loc ? Loc->getFilename() : StringRef("<unknown>");
  Constant *&Str = FileNames[Name];
  if (!Str) {
    auto *GV = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), Name.size() + 1), true,
                                  GlobalValue::PrivateLinkage, ConstantDataArray::getString(Ctx, Name),
                                  "memcoro.check.file");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    GV->setAlignment(Align(1));
    Str = GV;
  }
  return Str;
}

/// struct memcoro_check_loop { const char *file; uint32_t line, parallel;
/// const char *dispatch; }
Constant *CheckInstrumenter::loopDescriptor() {
  DebugLoc Loc = Plan.L.getStartLoc();
  StringRef Dispatch = dispatchName(Plan.Style);
  auto *DispatchName = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), Dispatch.size() + 1), true,
                                          GlobalValue::PrivateLinkage, ConstantDataArray::getString(Ctx, Dispatch),
                                          "memcoro.check.dispatch");
  DispatchName->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  auto *Ty = StructType::get(Ctx, {PtrTy, I32, I32, PtrTy});
  Constant *Init = ConstantStruct::get(
      Ty, {fileName(Loc.get()), ConstantInt::get(I32, Loc ? Loc.getLine() : 0),
           ConstantInt::get(I32, Plan.Parallelism), DispatchName});
  auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage, Init, "memcoro.check.loop");
  return GV;
}

/// struct memcoro_check_site { const struct memcoro_check_loop *loop;
/// const char *file; uint32_t line, column, flags; }
Constant *CheckInstrumenter::siteDescriptor(Constant *Loop, const CheckedAccess &Access) {
  const DILocation *Loc = Access.After->getDebugLoc().get();
  auto *Ty = StructType::get(Ctx, {PtrTy, PtrTy, I32, I32, I32});
  Constant *Init = ConstantStruct::get(Ty, {Loop, fileName(Loc), ConstantInt::get(I32, Loc ? Loc->getLine() : 0),
                                            ConstantInt::get(I32, Loc ? Loc->getColumn() : 0),
                                            ConstantInt::get(I32, Access.Flags)});
  return new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage, Init, "memcoro.check.site");
}

void CheckInstrumenter::run(IRBuilder<> &IB, Value *K) {
  // Collected first: the calls added below are not accesses to report.
  SmallVector<CheckedAccess, 16> Accesses;
  for (BasicBlock *BB : Plan.L.blocks())
    for (Instruction &I : *BB)
      collect(I, Accesses);
  findUpdates();
  for (CheckedAccess &Access : Accesses)
    if (Updates.contains(Access.After))
      Access.Flags |= Update;

  Constant *Loop = loopDescriptor();
  FunctionCallee Enter = M.getOrInsertFunction("__memcoro_check_enter", Type::getVoidTy(Ctx));
  FunctionCallee Report = M.getOrInsertFunction("__memcoro_check_access", Type::getVoidTy(Ctx), PtrTy, I64, PtrTy, I64);
  // The runtime's shadow state is memory no access of the program can reach,
  // so the optimisations after memcoro-split treat the program's accesses
  // around these calls as they would without them. Not willreturn:
  // MEMCORO_CHECK_ABORT=1 aborts at the first report.
  for (FunctionCallee Callee : {Enter, Report})
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee())) {
      Fn->setDoesNotThrow();
      Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    }
  if (auto *Fn = dyn_cast<Function>(Report.getCallee())) {
    Fn->addParamAttr(2, Attribute::NoCapture);
    Fn->addParamAttr(2, Attribute::ReadNone);
  }

  IRBuilder<> PB(Plan.Preheader->getTerminator());
  PB.SetCurrentDebugLocation(IB.getCurrentDebugLocation());
  PB.CreateCall(Enter);
  // k comes from the scheduler's launch block, outside the iteration; a copy
  // made in the iteration is a value the frame saves across suspensions.
  Value *Iteration = IB.CreateFreeze(K, "memcoro.check.k");

  unsigned Checked = 0;
  for (const CheckedAccess &Access : Accesses) {
    if (isPrivate(Access.Ptr)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: -memcoro-check: private stack memory, not checked:" << *Access.After
                        << "\n");
      ++NumPrivateUnchecked;
      continue;
    }
    IRBuilder<> B(Access.After->getParent(), std::next(Access.After->getIterator()));
    B.SetCurrentDebugLocation(Access.After->getDebugLoc());
    Value *Address = B.CreateAddrSpaceCast(Access.Ptr, PtrTy);
    B.CreateCall(Report, {siteDescriptor(Loop, Access), Iteration, Address,
                          B.CreateZExtOrTrunc(Access.Bytes, I64)});
    ++Checked;
  }
  NumCheckedAccesses += Checked;
  ++NumCheckedLoops;
  warnUncheckedCalls();
  LLVM_DEBUG(dbgs() << "memcoro-split: -memcoro-check: loop " << Plan.Header->getName() << " in "
                    << A.F.getName() << ": " << Checked << " of " << Accesses.size()
                    << " accesses reported to the runtime\n");
}

/// A call run in place that may write memory (not only its own hidden
/// state, not input or output, which runs in iteration order, nor a lock)
/// writes what the runtime never hears of: `Get(key, &value)` into an object
/// outside the loop, a list's splice, a call through a pointer. The checking
/// build says so where it is built, rather than pass in silence. Allocating
/// and freeing are not such calls: an allocation writes a block no iteration
/// has used yet, and the runtime's own free forgets the freed bytes
/// (runtime/check/freed.c).
void CheckInstrumenter::warnUncheckedCalls() {
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII, &A.F);
  for (CallBase *Call : Plan.CallsInPlace) {
    if (Call->onlyReadsMemory() || Call->onlyAccessesInaccessibleMemory() || isInputOutputCall(*Call) ||
        takesLock(*Call) || isAllocationFn(Call, &TLI) || getFreedOperand(Call, &TLI))
      continue;
    ++NumUncheckedCalls;
    Ctx.diagnose(DiagnosticInfoOptimizationFailure(
        A.F, Call->getDebugLoc(),
        "-fmemcoro-check does not see the memory written inside the call to " + calleeName(*Call) +
            ", which runs in place in the interleaved loop: iterations that depend on each other through it "
            "are not reported"));
  }
}

void memcoro::instrumentForCheck(const SplitAnalyses &A, const LoopPlan &Plan, IRBuilder<> &IterStart, Value *K) {
  if (CheckAccesses)
    CheckInstrumenter(A, Plan).run(IterStart, K);
}
