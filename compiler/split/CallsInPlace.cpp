//===- CallsInPlace.cpp - calls that a marked loop's iterations make in place -===//
//
// Part of memcoro-split's legality (SplitInternal.h; issue 17, items 7a and
// 8). A call in a marked loop that may read or write memory and was not
// inlined (a helper in another translation unit, a noinline function, a
// function pointer, calloc on a bucket's overflow path, a lock taken through
// inline asm) runs in place: inside the phase of the iteration that reaches
// it, to its end, without suspending. What it touches is covered by the
// contract, as the body of an `omp parallel for` is, whatever it calls: no
// other iteration depends on it through memory. Values live across the call
// are ordinary values of the phase, and a suspension's prefetch is only a
// hint: the access itself still runs where the iteration reaches it, after
// any call before it.
//
// Input and output of the C library (printf, puts, fwrite, read...) run in
// place too, but in iteration order: the serial loop fixes the order of the
// lines, and interleaved they would come out in another order, which a user
// comparing outputs takes for a wrong answer (OpenMP prints them in any
// order, but memcoro promises the serial loop's output). Each such call is an
// ordered region (SplitOrdered.cpp) from the call to the iteration's end, as
// `#pragma memcoro ordered` before it would make it: a report on a rare path
// (libbloom's "bloom not initialized" in its check) costs the loop only the
// turn, and a line printed at each iteration's end still lets the loads
// before it interleave.
//
// Calls the contract cannot cover keep the loop serial, with a remark:
//   - the C library's hidden state (rand, strtok): each call's result depends
//     on every call before it, in iteration order;
//   - a call that may throw, in code without the C++ personality: the
//     exception would leave the loop with later iterations half done (in
//     C++ code TerminateOnThrow.cpp has sent its unwinding to
//     std::terminate, as OpenMP's rule for a worksharing loop says);
//   - a call that returns twice (setjmp).
// A call that takes a lock (inline asm with side effects, pthread and OpenMP
// locks, `omp critical`) runs in place too, but the iteration must not
// suspend after it: another iteration on this thread that waits for the same
// lock would never let the holder resume. A suspension after the lock in its
// block moves in front of it (lock(&b->latch); b->count: the same line);
// one on another path (a bucket's overflow) is dropped, the access waiting
// for its line with the lock held, as in the serial loop.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "NestedCalls.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCallsInPlace, "Number of calls that may access memory run in place in interleaved iterations");

namespace {
enum class LibraryCall { Other, InputOutput, HiddenState, TakesLock };
} // namespace

static LibraryCall classify(const CallBase &Call) {
  if (const auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand()))
    return Asm->hasSideEffects() ? LibraryCall::TakesLock : LibraryCall::Other;
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return LibraryCall::Other;
  StringRef Name = Callee->getName();
  // The C++ streams (std::cout << i, std::getline(std::cin, line)): the
  // members and operators of basic_ostream<char>, basic_istream<char> and
  // basic_iostream<char> as libstdc++ mangles them, and as libc++ does.
  static constexpr StringLiteral StreamPrefixes[] = {
      "_ZNSo", "_ZNSi", "_ZNSd", "_ZStls", "_ZStrs", "_ZSt16__ostream_insert", "_ZSt4endl", "_ZSt5flush",
      "_ZSt7getline", "_ZNSt3__113basic_ostream", "_ZNSt3__113basic_istream", "_ZNSt3__1lsB", "_ZNSt3__1lsI",
      "_ZNSt3__1rsI", "_ZNSt3__14endl", "_ZNSt3__15flush", "_ZNSt3__17getline", "_ZNSt3__124__put_character_sequence"};
  if (any_of(StreamPrefixes, [&](StringLiteral Prefix) { return Name.starts_with(Prefix); }))
    return LibraryCall::InputOutput;
  // _FORTIFY_SOURCE's checked versions and glibc's unlocked ones.
  Name.consume_front("__");
  Name.consume_back("_chk");
  Name.consume_back("_unlocked");
  return StringSwitch<LibraryCall>(Name)
      .Cases("printf", "fprintf", "vprintf", "vfprintf", "dprintf", "vdprintf", LibraryCall::InputOutput)
      .Cases("puts", "fputs", "putchar", "fputc", "putc", "fwrite", "fflush", LibraryCall::InputOutput)
      .Cases("write", "pwrite", "writev", "perror", "fopen", "fclose", "fseek", LibraryCall::InputOutput)
      .Cases("scanf", "fscanf", "vscanf", "vfscanf", "getchar", "getc", "fgetc", LibraryCall::InputOutput)
      .Cases("fgets", "fread", "read", "pread", "readv", "ungetc", "rewind", LibraryCall::InputOutput)
      .Cases("rand", "random", "drand48", "lrand48", "mrand48", "srand", "srandom", LibraryCall::HiddenState)
      .Cases("strtok", "getline", LibraryCall::HiddenState)
      .Cases("pthread_mutex_lock", "pthread_mutex_trylock", "pthread_spin_lock", "pthread_spin_trylock",
             LibraryCall::TakesLock)
      .Cases("pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "omp_set_lock", "omp_set_nest_lock",
             LibraryCall::TakesLock)
      .Cases("kmpc_critical", "kmpc_critical_with_hint", "omp_test_lock", LibraryCall::TakesLock)
      .Default(LibraryCall::Other);
}

bool memcoro::isKnownLibraryCall(const CallBase &Call) { return classify(Call) != LibraryCall::Other; }

bool memcoro::takesLock(const CallBase &Call) { return classify(Call) == LibraryCall::TakesLock; }

bool memcoro::releasesLock(const Loop &L, const Instruction &I) {
  const auto *Store = dyn_cast<StoreInst>(&I);
  if (!Store || !isa<Constant>(Store->getValueOperand()))
    return false;
  for (const User *U : Store->getPointerOperand()->users())
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && L.contains(Call) && isa<InlineAsm>(Call->getCalledOperand()) && takesLock(*Call))
      return true;
  return false;
}

/// Whether \p F, defined in this module, makes input or output itself or
/// through the functions it calls, up to \p Depth calls down.
static bool makesInputOutput(const Function &F, unsigned Depth) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        if (classify(*Call) == LibraryCall::InputOutput ||
            (Depth && Callee && Callee != &F && !Callee->isDeclaration() && makesInputOutput(*Callee, Depth - 1)))
          return true;
      }
  return false;
}

bool memcoro::isInputOutputCall(const CallBase &Call) {
  if (classify(Call) == LibraryCall::InputOutput)
    return true;
  // A helper of the same file that prints (a log line written out of line):
  // its output comes in the order of the calls.
  const Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && makesInputOutput(*Callee, 2);
}

std::string memcoro::calleeName(const CallBase &Call) {
  if (isa<InlineAsm>(Call.getCalledOperand()))
    return "inline asm";
  if (const Function *Callee = Call.getCalledFunction())
    return "'" + demangle(Callee->getName()) + "'";
  // Clang tags the load of an object's vtable pointer: the function called
  // through a slot of that table is a virtual one.
  if (auto *Slot = dyn_cast<LoadInst>(Call.getCalledOperand()->stripPointerCasts()))
    if (auto *VPtr = dyn_cast<LoadInst>(getUnderlyingObject(Slot->getPointerOperand())))
      if (MDNode *Tag = VPtr->getMetadata(LLVMContext::MD_tbaa); Tag && Tag->getNumOperands() > 1)
        if (auto *Type = dyn_cast<MDNode>(Tag->getOperand(1)); Type && Type->getNumOperands() > 0)
          if (auto *Name = dyn_cast<MDString>(Type->getOperand(0)); Name && Name->getString() == "vtable pointer")
            return "a virtual function";
  return "a function pointer";
}

std::optional<SerialReason> memcoro::acceptCallInPlace(LoopPlan &Plan, CallBase &Call) {
  // The ramp, resume and plain calls of a callee of another unit that the
  // iteration resumes (NestedCalls.cpp), and its yield: the remark names the
  // callee instead.
  if (isNestedCallPart(Call))
    return std::nullopt;
  // A step of the exit test runs at launch, not in the body (LaunchExit.cpp).
  if (Plan.LaunchOnly.contains(&Call))
    return std::nullopt;
  auto serial = [&](const Twine &Why) -> SerialReason {
    std::string Text = ("call to " + calleeName(Call) + " " + Why).str();
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << " left serial: " << Text
                      << "\n");
    return {"Call", std::move(Text), &Call};
  };
  LibraryCall Kind = classify(Call);
  if (Kind == LibraryCall::HiddenState)
    return serial("uses hidden state of the C library, so each result depends on the calls before it in "
                  "iteration order: use a reentrant form (rand_r, strtok_r) with state per iteration");
  if (Call.hasFnAttr(Attribute::ReturnsTwice))
    return serial("returns twice (setjmp), which an iteration that suspends cannot do");
  // A try/catch in the body catches it in the iteration.
  auto *Invoke = dyn_cast<InvokeInst>(&Call);
  bool CaughtInLoop = Invoke && Plan.L.contains(Invoke->getUnwindDest());
  if (!Call.doesNotThrow() && !unwindEndsProgram(Call) && !CaughtInLoop)
    return serial("may throw an exception, which would leave the loop with later iterations half done: "
                  "declare the callee __attribute__((nothrow)) (noexcept in C++) to interleave the loop");
  Plan.CallsInPlace.push_back(&Call);
  Plan.TakesLock |= Kind == LibraryCall::TakesLock;
  ++NumCallsInPlace;
  LLVM_DEBUG(dbgs() << "memcoro-split: runs in place:" << Call << "\n");
  return std::nullopt;
}

/// Whether \p Later may run after \p First in one iteration of \p L.
static bool mayRunAfter(const Loop &L, const Instruction *First, const Instruction *Later) {
  const BasicBlock *From = First->getParent(), *To = Later->getParent();
  if (From == To && First->comesBefore(Later))
    return true;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 8> Work(succ_begin(From), succ_end(From));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == L.getHeader() || !L.contains(BB) || !Seen.insert(BB).second)
      continue;
    if (BB == To)
      return true;
    append_range(Work, successors(BB));
  }
  return false;
}

/// Plans the move of \p V's pure address arithmetic up to \p At (a Hoist, as
/// coalescing records them), when At dominates it.
static bool availableAt(const SplitAnalyses &A, Value *V, Instruction *At, unsigned Depth,
                        SmallVectorImpl<Hoist> &Moves) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || A.DT.dominates(I, At))
    return true;
  if (Depth == 0 || !A.DT.dominates(At, I) || isa<PHINode>(I) ||
      !(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!availableAt(A, Op, At, Depth - 1, Moves))
      return false;
  Moves.push_back({I, At});
  return true;
}

Instruction *memcoro::beforeLocks(const SplitAnalyses &A, const Loop &L, ArrayRef<Instruction *> Before) {
  Instruction *Place = nullptr;
  for (Instruction *Lock : Before)
    if (all_of(Before, [&](Instruction *Other) { return Other == Lock || A.DT.dominates(Lock, Other); }))
      Place = Lock;
  // A lock copied onto two paths (a sanitizer's check of the lock word
  // before it, which jump threading duplicates the lock across): the yield
  // goes where the paths part.
  if (!Place && !Before.empty()) {
    BasicBlock *Common = Before.front()->getParent();
    for (Instruction *Lock : Before)
      Common = A.DT.findNearestCommonDominator(Common, Lock->getParent());
    if (Common && L.contains(Common) && A.LI.getLoopFor(Common) == &L)
      return Common->getTerminator();
  }
  if (Place)
    if (Loop *Spin = A.LI.getLoopFor(Place->getParent()); Spin != &L) {
      while (Spin->getParentLoop() != &L)
        Spin = Spin->getParentLoop();
      BasicBlock *Entry = Spin->getLoopPreheader();
      Place = Entry ? Entry->getTerminator() : nullptr;
    }
  return Place;
}

/// Whether \p Cond is computed from \p Atomic's result (its success flag,
/// or the old value compared), through a few steps.
static bool decidedBy(const Value *Cond, const Instruction *Atomic, unsigned Depth = 4) {
  if (Cond == Atomic)
    return true;
  const auto *I = dyn_cast<Instruction>(Cond);
  if (!I || Depth == 0 || !(isa<ExtractValueInst>(I) || isa<CmpInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)))
    return false;
  return any_of(I->operands(), [&](const Value *Op) { return decidedBy(Op, Atomic, Depth - 1); });
}

/// A compare-and-swap or exchange that a spin loop inside \p L repeats until
/// it succeeds (`while (!__sync_bool_compare_and_swap(&lock, 0, 1));`, GAP's
/// compare_and_swap): it takes a lock as a locking call does. A claim tested
/// once (`if (compare_and_swap(parent[v], -1, u))`) is no lock, and neither
/// is an update retried from what it read until it succeeds or is no longer
/// wanted (GAP's SSSP: `while (new_dist < old_dist) { if (compare_and_swap(
/// dist[v], old_dist, new_dist)) break; old_dist = dist[v]; }`, which the
/// inliner leaves a loop of its own under UBSan): it expects a value it read
/// and stores one it computed, not a lock's constants, and the loop has a way
/// out that the atomic does not decide.
static bool acquiresSpinLock(const LoopInfo &LI, const Loop &L, const Instruction &I) {
  const auto *RMW = dyn_cast<AtomicRMWInst>(&I);
  const auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I);
  if (!CAS && !(RMW && RMW->getOperation() == AtomicRMWInst::Xchg))
    return false;
  const Loop *Spin = LI.getLoopFor(I.getParent());
  if (!Spin || Spin == &L || !L.contains(Spin))
    return false;
  // A lock word stays put while the loop spins; a retry loop that computes
  // where to swap afresh each time (a union-find's hook of the root it finds
  // again) holds nothing between its tries.
  if (CAS && !Spin->isLoopInvariant(CAS->getPointerOperand()))
    return false;
  SmallVector<BasicBlock *, 2> Exiting;
  Spin->getExitingBlocks(Exiting);
  auto decidedByAtomic = [&](BasicBlock *BB) {
    const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    return Br && Br->isConditional() && decidedBy(Br->getCondition(), &I);
  };
  if (!any_of(Exiting, decidedByAtomic))
    return false;
  bool RetriedUpdate = CAS && !isa<Constant>(CAS->getCompareOperand()) && !isa<Constant>(CAS->getNewValOperand()) &&
                       !all_of(Exiting, decidedByAtomic);
  return !RetriedUpdate;
}

SmallVector<Instruction *, 2> memcoro::locksTaken(const SplitAnalyses &A, const LoopPlan &Plan) {
  SmallVector<Instruction *, 2> Locks;
  for (CallBase *Call : Plan.CallsInPlace)
    if (classify(*Call) == LibraryCall::TakesLock)
      Locks.push_back(Call);
  for (BasicBlock *BB : Plan.L.blocks())
    for (Instruction &I : *BB)
      if (acquiresSpinLock(A.LI, Plan.L, I))
        Locks.push_back(&I);
  return Locks;
}

std::string memcoro::lockName(const Instruction &Lock) {
  if (const auto *Call = dyn_cast<CallBase>(&Lock))
    return "the call to " + calleeName(*Call);
  return (isa<AtomicCmpXchgInst>(Lock) ? "the compare-and-swap at " : "the atomic exchange at ") + sourcePlace(Lock);
}

std::optional<SerialReason> memcoro::placeSuspensionsOutsideLocks(const SplitAnalyses &A, LoopPlan &Plan) {
  SmallVector<Instruction *, 2> Locks = locksTaken(A, Plan);
  if (Locks.empty())
    return std::nullopt;
  for (auto It = Plan.Suspensions.begin(); It != Plan.Suspensions.end();) {
    SmallVector<Instruction *, 2> Before;
    for (Instruction *Lock : Locks)
      if (mayRunAfter(Plan.L, Lock, It->At))
        Before.push_back(Lock);
    if (Before.empty()) {
      ++It;
      continue;
    }
    // The yield moves in front of the first lock, or of the spin loop that
    // takes it: the lock's own word and the record it guards
    // (lock(&b->latch); n = b->count) are usually the line the suspension
    // prefetches. The move needs every lock, and no other yield, between
    // the new place and the old, and the addresses computable there.
    Instruction *Place = beforeLocks(A, Plan.L, Before);
    SmallVector<Hoist, 4> Moves;
    bool Movable =
        Place && A.DT.dominates(Place, It->At) &&
        all_of(Before, [&](Instruction *Lock) { return Lock == Place || A.DT.dominates(Place, Lock); }) &&
        none_of(Plan.Suspensions, [&](const Suspension &Other) { return Other.At == Place; }) &&
        !suspendsBetween(Plan, A.LI, Place, It->At, It->At);
    for (const auto &[Ptr, Write] : It->Prefetch)
      Movable = Movable && availableAt(A, Ptr, Place, 6, Moves);
    for (const auto &[Ptr, Offset] : It->PrefetchFields)
      Movable = Movable && availableAt(A, Ptr, Place, 6, Moves);
    if (Movable) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the suspension at" << *It->At << " moves before" << *Place << "\n");
      append_range(Plan.Hoists, Moves);
      It->At = Place;
      ++It;
      continue;
    }
    // On another path (a bucket's overflow), the access waits for its line
    // with the lock held, as in the serial loop.
    LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *It->At << ": a lock may be held there\n");
    append_range(Plan.UnderLock, It->Accesses);
    It = Plan.Suspensions.erase(It);
  }
  if (!Plan.Suspensions.empty())
    return std::nullopt;
  std::string Text = "every far access of the loop may run while the lock taken by " + lockName(*Locks.front()) +
                     " is held, where an iteration must not suspend (another iteration of this thread waiting "
                     "for the same lock would never let it resume): access the far data before taking the lock";
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << " left serial: " << Text
                    << "\n");
  return SerialReason{"SuspendsUnderLock", std::move(Text), Locks.front()};
}

std::string memcoro::callsInPlaceSummary(const LoopPlan &Plan) {
  // Input and output have their own remark, as code run in iteration order.
  SmallVector<std::string, 4> Names;
  for (const CallBase *Call : Plan.CallsInPlace)
    if (std::string Name = calleeName(*Call); !isInputOutputCall(*Call) && !is_contained(Names, Name))
      Names.push_back(Name);
  if (Names.empty())
    return "";
  std::string Text = Names.size() == 1 ? "the call to " : "the calls to ";
  for (unsigned K = 0; K < Names.size(); ++K)
    Text += (K == 0 ? "" : K + 1 == Names.size() ? " and " : ", ") + Names[K];
  return Text + (Names.size() == 1 ? " runs" : " run") + " in place, inside the iteration's phase, under the loop's contract";
}
