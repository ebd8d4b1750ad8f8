//===- Split.cpp - memcoro-split: marked loops become coroutines ----------===//
//
// The heart of memcoro, run at the vectorizer-start extension point, after
// the O2 simplification pipeline has made the marked loop simple (rotated,
// LCSSA, one induction variable, invariants hoisted) and before unrolling or
// vectorisation. Each iteration of a marked loop becomes a stackless
// coroutine; N of them run interleaved, each yielding at its long-latency
// accesses while the others run (CoroAMU, Fig. 6). A loop that cannot be
// interleaved with the serial loop's answer stays serial, and a missed remark
// says why.
//
// This file only wires the steps together, one marked loop at a time; each
// step has its own file under split/ (SplitInternal.h maps them):
//
//   legality   split/SplitLegality.cpp   may the loop be interleaved?
//   plan       split/SplitPlan.cpp       suspension points, coalescing,
//                                        dispatch style (print<memcoro-plan>)
//   frame      split/SplitFrame.cpp      what a slot holds
//   lowering   split/SplitLowering.cpp   the coroutine skeleton, and one
//              split/RingScheduler.cpp   code generator per scheduler
//              split/LockstepScheduler.cpp
//              split/PipelineScheduler.cpp
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "Split.h"
#include "MemcoroInternal.h"
#include "NestedCalls.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumLoopsRejected, "Number of marked loops left serial");
STATISTIC(NumLoopsNotInterleaved, "Number of marked loops that cannot be interleaved, kept in serial order with "
                                  "prefetches ahead");

namespace {

/// The id memcoro-mark gave a marked loop.
Metadata *loopId(const Loop &L) {
  const MDOperand *Id = findStringMetadataForLoop(&L, LoopIdMD).value_or(nullptr);
  return Id ? Id->get() : nullptr;
}

/// Whether another copy of the marked loop \p L (loop versioning or
/// unswitching made it) is in the function.
bool hasTwin(const LoopInfo &LI, const Loop &L) {
  Metadata *Id = loopId(L);
  return Id && count_if(LI.getLoopsInPreorder(), [&](const Loop *Other) {
           return getMarkedParallelism(*Other) && loopId(*Other) == Id;
         }) > 1;
}

/// A function as its user wrote it: an OpenMP region's outlined function
/// (and the debug twin clang inlines into it) is named after the function the
/// region is in, without its mangling.
std::string userFunctionName(StringRef Name) {
  Name.consume_back("_debug__");
  bool Region = Name.consume_back(".omp_outlined");
  std::string Base = Name.str();
  ItaniumPartialDemangler Demangler;
  if (!Demangler.partialDemangle(Base.c_str()))
    if (char *Plain = Demangler.getFunctionBaseName(nullptr, nullptr)) {
      Base = Plain;
      std::free(Plain);
    }
  return Region ? "the OpenMP region in '" + Base + "'" : "'" + Base + "'";
}

/// A function with a marked loop that is inlined into several others gives a
/// remark in each, all at the same source place: say which copy this one is.
std::string inlinedCopy(const Loop &L, const Function &F) {
  DebugLoc Loc = L.getStartLoc();
  if (!Loc || !Loc.getInlinedAt())
    return "";
  const DISubprogram *Callee = Loc->getScope()->getSubprogram();
  const DISubprogram *Caller = F.getSubprogram();
  if (!Callee || !Caller)
    return "";
  std::string In = userFunctionName(Caller->getName()), Inlined = userFunctionName(Callee->getName());
  // An OpenMP region's body inlined into its outlined function is the user's
  // one copy of the loop.
  if (In == Inlined)
    return "";
  return " [in " + In + ", where " + Inlined + " is inlined]";
}

/// Where the missed remark of \p Why goes.
DebugLoc reasonLocation(const SerialReason &Why, const Loop &L) {
  return Why.Loc ? Why.Loc : remarkLocation(Why.At, L);
}

/// Legality, then the plan, then what legality must check on the plan. A loop
/// that stays serial, or whose plan is only to be printed (\p Keep false),
/// leaves the IR as it found it.
std::optional<SerialReason> planLoop(const SplitAnalyses &A, LoopPlan &Plan, bool HasTwin, bool Keep) {
  SplitLegality Legality(A, Plan);
  std::optional<SerialReason> Why = Legality.checkLoop();
  if (!Why)
    Why = planSuspensions(A, Plan, HasTwin);
  if (!Why)
    Why = Legality.checkPlan();
  if (!Why)
    Why = planOrdered(A, Plan);
  // An ordered or overlapped loop may do better in its own order.
  if (choosePrefetchAhead(A, Plan, Why)) {
    Legality.revert();
    return std::nullopt;
  }
  if (!Why) {
    Plan.AmuKeptStatic = chooseAmuDispatch(Plan);
    planEarlyExits(A, Plan);
    chooseScavenging(Plan);
  }
  if (Why || !Keep)
    Legality.revert();
  return Why;
}

/// Transforms one marked loop, or explains in a missed remark why it stays
/// serial.
bool splitLoop(const SplitAnalyses &A, Loop &L, OptimizationRemarkEmitter &ORE, bool HasTwin) {
  PrettyStackTraceFormat StackEntry("memcoro-split: transforming the marked loop '%s' in '%s'",
                                    L.getHeader()->getName().str().c_str(), A.F.getName().str().c_str());
  // A pipeline inside a loop that only re-runs it may span that loop: the
  // plan of the loop as it is tells (split/FlattenNest.cpp).
  unsigned NestTrips =
      flattenNest(A, L, ORE, [&](LoopPlan &Dry) { return !planLoop(A, Dry, HasTwin, /*Keep=*/false); });
  LoopPlan Plan(L);
  std::optional<SerialReason> Why = planLoop(A, Plan, HasTwin, /*Keep=*/true);
  if (!Why && NestTrips)
    limitInFlightForNest(Plan, NestTrips);
  emitCostRemarks(Plan, ORE);
  emitProfileRemarks(Plan, ORE);
  if (!Why && Plan.prefetchesAhead()) {
    // Not interleaved: the loop stays a loop, and ordinary again (its copy
    // as written too).
    unmarkLoop(L);
    if (const std::optional<SerialReason> &Not = Plan.NotInterleavedWhy) {
      ++NumLoopsNotInterleaved;
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "NotInterleaved", reasonLocation(*Not, L), L.getHeader())
               << "marked loop not interleaved, kept in serial order with prefetches ahead: " << Not->Text
               << inlinedCopy(L, A.F);
      });
    }
    emitPrefetchSwitch(A, Plan, ORE, adaptsAtRunTime());
    return false;
  }
  if (Why) {
    if (Why->Quiet)
      return false;
    ++NumLoopsRejected;
    ORE.emit([&] {
      return OptimizationRemarkMissed(RemarkPass, Why->Tag, reasonLocation(*Why, L), L.getHeader())
             << "marked loop left serial: " << Why->Text << inlinedCopy(L, A.F);
    });
    return false;
  }
  // What the pragma's promise covers that the compiler could not check: one
  // remark per store, naming the accesses of other iterations it may meet;
  // said before the lowering rewrites the loop's instructions.
  for (auto It = Plan.Assumed.begin(); It != Plan.Assumed.end();) {
    Instruction *Store = It->Store;
    SmallVector<std::string, 4> Others;
    for (; It != Plan.Assumed.end() && It->Store == Store; ++It) {
      std::string Other = It->Other == Store ? std::string("this store of another iteration")
                                             : accessPlace(*It->Other);
      // Accesses at one source place (an index loaded twice) are named once.
      if (!is_contained(Others, Other))
        Others.push_back(std::move(Other));
    }
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "AssumedIndependent", remarkLocation(Store, L),
                                        Store->getParent())
             << "assumed, as the pragma asserts, that other iterations do not reach the memory this store"
             << (accessedArrayName(*Store).empty() ? "" : " to " + accessedArrayName(*Store)) << " writes with "
             << join(Others, ", ") << " (the compiler cannot tell; -fmemcoro-check verifies it at run time)";
    });
  }
  BasicBlock *Header = Plan.Header;
  if (!Plan.ExitsChangedDispatch.empty())
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "ExitDispatch", L.getStartLoc(), L.getHeader())
             << "loop " << Plan.ExitsChangedDispatch;
    });
  for (const Reduction &R : Plan.Reductions)
    if (R.OverflowCheck)
      ORE.emit([&] {
        StringRef Name = sourceVariableName(*R.Phi);
        return OptimizationRemarkAnalysis(RemarkPass, "PartsChecked", R.OverflowCheck)
               << "the sanitizer's overflow check of " << (Name.empty() ? "a reduction" : "'" + Name.str() + "'")
               << " checks each iteration's part: the parts are added up without it, so an overflow of the "
                  "running total is not reported";
      });
  if (Plan.AmuKeptStatic)
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "AmuKeptStatic", Plan.Ordered.front().At)
             << "the static AMU scheduler (aload, then wait, round robin) runs this loop instead of the one "
                "-fmemcoro-scheduler asks for: it has code that must run in iteration order, and the schedulers "
                "that resume iterations in completion order have no turn to wait for";
    });
  // What runs in iteration order, said before the lowering erases the markers.
  for (const OrderedPoint &P : Plan.Ordered)
    ORE.emit([&] {
      OptimizationRemark R(RemarkPass, "Ordered", P.At);
      switch (P.What) {
      case OrderedPoint::Region:
        if (MDNode *Last = P.At->getMetadata(LastValuesMD))
          R << "the last iteration's " << cast<MDString>(Last->getOperand(0))->getString()
            << ", read after the loop, is stored at each iteration's end in iteration order, so that the last "
               "store is the serial loop's";
        else
          R << "ordered region runs in iteration order";
        break;
      case OrderedPoint::Append: R << "append runs in iteration order: the counter is shared by the iterations"; break;
      case OrderedPoint::FirstWriterWins:
        R << "first-writer-wins test runs in iteration order, so the first iteration in serial order wins";
        break;
      case OrderedPoint::OrderedUpdate:
        if (P.At->getType()->isFloatingPointTy())
          R << "floating-point update runs in iteration order, from this read of the element to the iteration's "
               "end: other iterations may update the same element, and the rounding of a sum, or a minimum's NaN "
               "and signed zeros, make the result depend on the order (unless -ffast-math, or an OpenMP "
               "reduction clause, allows reassociation)";
        else
          R << "minimum or maximum that also writes other memory (an argmin's index) runs in iteration order, "
               "from this read of the element to the iteration's end: among equal values the first iteration "
               "in serial order wins";
        break;
      case OrderedPoint::InputOutput:
        if (auto *Call = dyn_cast<CallBase>(P.At))
          R << "call to " << calleeName(*Call)
            << " (input or output) runs in iteration order, from the call to the iteration's end, so that what "
               "it writes or reads comes in the serial loop's order";
        else
          R << "access to a stream's state (std::setw, std::hex) runs in iteration order, from here to the "
               "iteration's end, with the output it shapes";
        break;
      case OrderedPoint::BufferAppend:
        R << "append through a counter in memory runs in iteration order, from this read of the counter to the "
             "iteration's end, a call on the way (a buffer's flush) in place";
        break;
      case OrderedPoint::RegisterAppend:
        R << "append through a buffer whose counter is kept in a register: from this read of it to the "
             "iteration's end, values are appended in iteration order, the buffer's flush in place";
        break;
      }
      if (P.WaitAt)
        R << " (ring dispatch: a lock may be held here, so an iteration waits for its turn before it takes the "
             "lock)";
      else if (P.BeforeTurn)
        R << " (ring dispatch: an iteration tests before its turn, and waits for it only to claim a free "
             "location, which it tests again then)";
      else if (Plan.WaitsForTurn)
        R << " (ring dispatch: an iteration that reaches it before its turn waits)";
      else if (Plan.Style == Dispatch::Pipeline)
        R << " (pipeline dispatch runs each phase in iteration order)";
      else
        R << " (lockstep dispatch runs it in slot order, which is iteration order)";
      return R;
    });
  // Read before the lowering replaces the loop's latch and its properties.
  std::string Nested = nestedCalleesRemark(L);
  LoweredLoop Done = lowerToCoroutines(A, Plan, ORE);
  unsigned Suspensions = Plan.Suspensions.size();
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Header->getName() << " in " << A.F.getName() << ": "
                    << Suspensions << " suspension points, " << Done.SavedValues << " saved values, "
                    << Done.ContextBytes << " bytes per slot, N = " << Plan.Parallelism << "\n");
  ORE.emit([&] {
    OptimizationRemark R(RemarkPass, "Transformed", L.getStartLoc(), Header);
    R << "loop turned into " << ore::NV("Parallelism", Plan.Parallelism) << " interleaved coroutine"
      << (Plan.Parallelism == 1 ? "" : "s")
      << (Plan.ParallelismChosen ? " (parallelism chosen by memcoro)" : "") << ": "
      << ore::NV("SuspendPoints", Suspensions) << " suspension point" << (Suspensions == 1 ? "" : "s") << ", "
      << ore::NV("Dispatch", dispatchName(Plan.Style)) << " dispatch"
      << (Plan.ThroughAmu && Plan.Style != Dispatch::AmuGetfin && Plan.Style != Dispatch::AmuBafin
              ? " (static, through the AMU: aload, then wait)"
              : "")
      << ", "
      << ore::NV("ContextBytes", Done.ContextBytes) << " bytes of context per slot";
    if (!Plan.Ordered.empty())
      R << ", " << ore::NV("OrderedPoints", unsigned(Plan.Ordered.size())) << " run in iteration order";
    if (!Plan.Locked.empty())
      R << "; a read-modify-write split by a suspension kept whole by a lock table";
    if (Plan.ScavengeNs)
      R << "; at a suspension with no other iteration to run, the thread's scavengers run for up to "
        << ore::NV("ScavengeNs", Plan.ScavengeNs) << " ns";
    else if (!Plan.ScavengeSkipped.empty())
      R << "; its stalls are not lent to scavengers: " << Plan.ScavengeSkipped;
    if (Plan.ReassociatedByOpenMP)
      R << "; floating-point reductions reassociated, as the reduction clause permits";
    if (Plan.ExitAtLaunch)
      R << "; exit test evaluated at launch, in iteration order (a serial chain): the rest of the body "
           "interleaves";
    if (!Plan.EarlyExits.empty())
      R << "; early exit: the first exiting iteration in iteration order wins, iterations after it leave no "
           "effect and no iteration past it is launched (the up to N - 1 already started run their loads, as "
           "under omp cancel for: what they read must be readable)"
        << (Plan.WaitsForTurn && Plan.Ordered.empty() ? " (iterations end in iteration order, for the reductions)"
                                                      : "");
    if (Plan.BoundEvaluatedOnce)
      R << "; its bound, read through memory, evaluated once before the loop, as OpenMP does";
    if (Plan.ThrowTerminates)
      R << "; an exception thrown in it and not caught there terminates the program, as one leaving an OpenMP "
           "parallel for does";
    if (!Nested.empty())
      R << "; " << Nested;
    if (std::string Calls = callsInPlaceSummary(Plan); !Calls.empty())
      R << "; " << Calls;
    R << inlinedCopy(L, A.F);
    return R;
  });
  return true;
}

} // namespace

/// Puts the marked loop \p L in simplified form with the latch the plan reads
/// its count off (LatchShape.cpp, RotatedSearch.cpp) and its last values
/// passed in iteration order (LastValues.cpp), shared by the pass and its
/// printer; each step that changes the loop is followed by the simplified
/// form again.
static void reshapeMarkedLoop(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC,
                              Function &F, FunctionAnalysisManager &FAM) {
  prepareMarkedLoop(L, LI, DT, SE, AC);
  if (shapeLatch(L, LI, DT, SE, AC))
    prepareMarkedLoop(L, LI, DT, SE, AC);
  if (rotateWhileSearch(L, LI, DT, SE, AC, FAM.getResult<TargetIRAnalysis>(F), FAM.getResult<TargetLibraryAnalysis>(F)))
    prepareMarkedLoop(L, LI, DT, SE, AC);
  if (keepLastValuesInOrder(L, SE))
    prepareMarkedLoop(L, LI, DT, SE, AC);
}

/// The steps before legality that rewrite what the plan sees, shared by the
/// pass and its printer: unwind edges to std::terminate (TerminateOnThrow.cpp),
/// values re-read only after a deallocation taken as they enter
/// (FreedReloads.cpp), small copies as loads and stores (CopiesAsAccesses.cpp),
/// small equality compares as loads (ComparesAsAccesses.cpp) and counters
/// carried through an inner loop read again (ForwardedUpdates.cpp). All run.
static bool exposeCallsAndCopies(Loop &L, LoopInfo &LI, DominatorTree &DT, Function &F,
                                 FunctionAnalysisManager &FAM) {
  bool Changed = terminateEscapingExceptions(L, LI, DT);
  // The cleanups the loop no longer unwinds to (a local vector's delete of
  // its storage) would still read the loop's values, through LCSSA phis.
  if (Changed) {
    // A cleanup inside the loop (a sanitized std::function's, which unwinds
    // back into the body) goes too: LoopInfo must not keep it as a block of
    // the loop.
    // Only those: removeUnreachableBlocks would also fold branches (a
    // sanitizer's `br i1 true`) and delete blocks LoopInfo still holds.
    df_iterator_default_set<BasicBlock *> Reachable;
    for (BasicBlock *BB : depth_first_ext(&F.getEntryBlock(), Reachable))
      (void)BB;
    SmallVector<BasicBlock *, 8> Unreachable;
    for (BasicBlock &BB : F)
      if (!Reachable.contains(&BB)) {
        LI.removeBlock(&BB);
        Unreachable.push_back(&BB);
      }
    DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
    DeleteDeadBlocks(Unreachable, &DTU);
    SmallVector<BasicBlock *, 4> Exits;
    L.getExitBlocks(Exits);
    for (BasicBlock *Exit : Exits)
      for (PHINode &Phi : make_early_inc_range(Exit->phis()))
        RecursivelyDeleteDeadPHINode(&Phi);
  }
  // Before the copies lose their type-based alias tags to plain stores.
  Changed |= forwardReloadsAcrossFrees(L, FAM.getResult<AAManager>(F), FAM.getResult<TargetLibraryAnalysis>(F));
  Changed |= expandSmallCopies(L);
  Changed |= expandSmallCompares(L);
  Changed |= readForwardedUpdatesAgain(L);
  return Changed;
}

PreservedAnalyses SplitPass::run(Function &F, FunctionAnalysisManager &FAM) {
  bool Changed = false;
  Module &M = *F.getParent();
  // A copy of a marked loop (unswitching, versioning) processed before its
  // twin is no longer marked when the twin's turn comes.
  SmallPtrSet<Metadata *, 4> Processed;
  // Each transformation invalidates the loop analyses, so take one marked
  // loop at a time and recompute.
  while (true) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    SmallVector<Loop *, 8> Loops = LI.getLoopsInPreorder();
    auto Marked = find_if(Loops, [](Loop *L) { return getMarkedParallelism(*L).has_value(); });
    if (Marked == Loops.end())
      break;
    Loop *Target = *Marked;
    Metadata *Id = loopId(*Target);
    bool SeenTwin = Id && !Processed.insert(Id).second;
    bool HasTwin = SeenTwin || hasTwin(LI, *Target);

    // Whatever happens next, the loop reached memcoro-split.
    recordLoopSeen(*Target);

    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    reshapeMarkedLoop(*Target, LI, DT, SE, AC, F, FAM);
    if (hoistInvariantSanitizerChecks(*Target, LI, DT, SE, AC, FAM.getResult<TargetIRAnalysis>(F),
                                      FAM.getResult<TargetLibraryAnalysis>(F), ORE))
      prepareMarkedLoop(*Target, LI, DT, SE, AC);
    bool AccessesChanged = exposeCallsAndCopies(*Target, LI, DT, F, FAM);
    if (speculateSiblingLoads(*Target, LI, DT, AC, ORE))
      SE.forgetLoop(Target);
    AccessesChanged |= rebaseSpreadUpdates(*Target, FAM.getResult<AAManager>(F));
    if (AccessesChanged) {
      SE.forgetLoop(Target);
      // New accesses and calls, or reads moved to their stores: which of
      // them are remote is not in a result computed before.
      PreservedAnalyses KeepAllButRemote = PreservedAnalyses::all();
      KeepAllButRemote.abandon<RemoteAccessAnalysis>();
      FAM.invalidate(F, KeepAllButRemote);
    }
    auto &RAI = FAM.getResult<RemoteAccessAnalysis>(F);
    // A marked loop inside this one stops being a loop once this one is a
    // state machine (it is entered from the scheduler mid-body).
    SmallVector<std::pair<Metadata *, DebugLoc>, 2> Nested;
    for (Loop *Sub : Target->getLoopsInPreorder())
      if (Sub != Target && getMarkedParallelism(*Sub))
        if (Metadata *Id = loopId(*Sub))
          Nested.push_back({Id, Sub->getStartLoc()});
    BasicBlock *Anchor = Target->getHeader();
    auto &DI = FAM.getResult<DependenceAnalysis>(F);
    SplitAnalyses A{F, LI, DT, SE, AC, DI, RAI, M.getDataLayout(), FAM.getResult<AAManager>(F)};
    if (splitLoop(A, *Target, ORE, HasTwin)) {
      for (auto &[Id, Loc] : Nested) {
        M.getOrInsertNamedMetadata(SeenLoopsMD)->addOperand(MDNode::get(F.getContext(), {Id}));
        ORE.emit([&] {
          return OptimizationRemarkMissed(RemarkPass, "NestedMarked", Loc, Anchor)
                 << "marked loop not interleaved on its own: it is inside another marked loop, whose "
                    "iterations memcoro interleaves instead (nested interleaving is not supported)";
        });
      }
    } else {
      // Left serial: drop the markers so that the loop optimises as usual.
      unmarkLoop(*Target);
    }
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  // After every loop: the serial copies' prefetches are planned with
  // analyses of the function as lowered, and extraction changes the
  // function under the loops' plans.
  Changed |= prefetchSerialCopies(F, FAM);
  Changed |= outlineSerialCopies(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

PreservedAnalyses SplitPlanPrinterPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  // memcoro-split plans each loop after putting it back in simplified form;
  // so does its printer, for the plan to be the one the pass would carry out.
  for (Loop *L : LI.getLoopsInPreorder())
    if (getMarkedParallelism(*L)) {
      reshapeMarkedLoop(*L, LI, DT, SE, AC, F, FAM);
      if (exposeCallsAndCopies(*L, LI, DT, F, FAM))
        SE.forgetLoop(L);
    }
  auto &RAI = FAM.getResult<RemoteAccessAnalysis>(F);
  auto &DI = FAM.getResult<DependenceAnalysis>(F);
  SplitAnalyses A{F, LI, DT, SE, AC, DI, RAI, F.getParent()->getDataLayout(), FAM.getResult<AAManager>(F)};
  SmallPtrSet<const Loop *, 4> Interleaved;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!getMarkedParallelism(*L))
      continue;
    OS << "memcoro-plan: loop ";
    L->getHeader()->printAsOperand(OS, /*PrintType=*/false);
    OS << " in function '" << F.getName() << "': ";
    if (any_of(Interleaved, [&](const Loop *Outer) { return Outer->contains(L); })) {
      OS << "inside a marked loop that is interleaved instead\n";
      continue;
    }
    LoopPlan Plan(*L);
    if (std::optional<SerialReason> Why = planLoop(A, Plan, hasTwin(LI, *L), /*Keep=*/false)) {
      OS << "left serial (" << Why->Tag << "): " << Why->Text << "\n";
      continue;
    }
    if (Plan.prefetchesAhead()) {
      OS << "prefetched ahead\n";
      printPrefetchAhead(Plan, OS);
      continue;
    }
    OS << "interleaved\n";
    Plan.print(OS);
    Interleaved.insert(L);
  }
  return PreservedAnalyses::all();
}
