//===- SplitPlan.cpp - where a marked loop's iterations suspend ------------===//
//
// The second step of memcoro-split (see SplitInternal.h), on a loop legality
// accepted: which remote accesses become suspension points, which share one
// (coalescing), which need none because an earlier access of the same phase
// already fetched their line, and which dispatch style runs the result. The
// outcome is a LoopPlan: data, not code; nothing here changes the IR, so a
// plan can be printed without transforming the loop:
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
// Coalescing (CoroAMU III-C), greedy within a basic block: a later remote
// access whose address can be computed at an earlier suspension (its pure
// address arithmetic hoisted there, recorded as a Hoist) is prefetched at that
// suspension instead of yielding again: several fields of one record
// (spatial), or a[x[i]] and b[y[i]] (independent).
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "NestedCalls.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

enum class ForcedStyle { Auto, Ring, Lockstep, Pipeline };
static cl::opt<ForcedStyle> ForcedDispatch(
    "memcoro-dispatch", cl::Hidden, cl::init(ForcedStyle::Auto),
    cl::desc("Dispatch style of transformed loops (lockstep and pipeline only where legal)"),
    cl::values(clEnumValN(ForcedStyle::Auto, "auto", "pipelined lockstep where legal, else ring"),
               clEnumValN(ForcedStyle::Ring, "ring", "always the ring scheduler"),
               clEnumValN(ForcedStyle::Lockstep, "lockstep", "lockstep in groups where legal"),
               clEnumValN(ForcedStyle::Pipeline, "pipeline", "pipelined lockstep where legal")));

static cl::opt<unsigned> DefaultParallelism(
    "memcoro-default-parallelism", cl::Hidden, cl::init(32),
    cl::desc("Iterations in flight when the pragma gives no parallel(N)"));

LoopPlan::LoopPlan(Loop &L) : L(L) {
  // An unmarked loop is planned only to be prefetched in order (an adapting
  // loop's serial copy, PrefetchSerialCopy.cpp): it has no N.
  unsigned Marked = getMarkedParallelism(L).value_or(0);
  ParallelismChosen = Marked == 0;
  Parallelism = std::max(1u, ParallelismChosen ? DefaultParallelism.getValue() : Marked);
}

DebugLoc memcoro::remarkLocation(const Instruction *I, const Loop &L) {
  if (I && I->getDebugLoc() && I->getDebugLoc().getLine())
    return userPlace(I->getDebugLoc());
  return L.getStartLoc();
}

StringRef memcoro::dispatchName(Dispatch D) {
  switch (D) {
  case Dispatch::Ring:
    return "ring";
  case Dispatch::Lockstep:
    return "lockstep";
  case Dispatch::Pipeline:
    return "pipeline";
  case Dispatch::AmuGetfin:
    return "AMU getfin";
  case Dispatch::AmuBafin:
    return "AMU bafin";
  }
  llvm_unreachable("every dispatch has a name");
}

std::optional<APInt> memcoro::constantStepIn(ScalarEvolution &SE, const Loop &L, Value *V) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(V));
  if (!AR || !AR->isAffine() || AR->getLoop() != &L)
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  return Step ? std::optional<APInt>(Step->getAPInt()) : std::nullopt;
}

std::optional<int64_t> memcoro::byteDistance(const Value *A, const Value *B, const DataLayout &DL) {
  if (A == B)
    return 0;
  int64_t OffA = 0, OffB = 0;
  const Value *BaseA = GetPointerBaseWithConstantOffset(A, OffA, DL);
  const Value *BaseB = GetPointerBaseWithConstantOffset(B, OffB, DL);
  if (BaseA != BaseB)
    return std::nullopt;
  return OffB - OffA;
}

/// Whether the iteration may yield after \p Early and before \p Late: a
/// suspension point other than \p Ignore lies in between, on a path through
/// the innermost loop holding both that does not go round that loop's back
/// edge.
bool memcoro::suspendsBetween(const LoopPlan &Plan, const LoopInfo &LI, Instruction *Early, Instruction *Late,
                              const Instruction *Ignore) {
  auto yieldsAt = [&](const Instruction *I) {
    return I != Ignore && any_of(Plan.Suspensions, [&](const Suspension &S) { return S.At == I; });
  };
  auto yieldsIn = [&](Instruction *First, Instruction *Last) {
    for (Instruction *I = First; I; I = I == Last ? nullptr : I->getNextNode())
      if (yieldsAt(I))
        return true;
    return false;
  };
  BasicBlock *From = Early->getParent(), *To = Late->getParent();
  if (From == To)
    return Early != Late && yieldsIn(Early->getNextNode(), Late);
  if (yieldsIn(Early->getNextNode(), nullptr) || yieldsIn(&To->front(), Late))
    return true;
  Loop *Around = LI.getLoopFor(From);
  while (!Around->contains(To))
    Around = Around->getParentLoop();
  auto walk = [&](BasicBlock *Start, bool Forward) {
    SmallPtrSet<BasicBlock *, 16> Seen;
    SmallVector<BasicBlock *, 8> Work = {Start};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second || (BB != Start && (BB == From || BB == To)))
        continue;
      if (Forward) {
        for (BasicBlock *Succ : successors(BB))
          if (Around->contains(Succ) && Succ != Around->getHeader())
            Work.push_back(Succ);
      } else if (BB != Around->getHeader()) {
        for (BasicBlock *Pred : predecessors(BB))
          if (Around->contains(Pred))
            Work.push_back(Pred);
      }
    }
    return Seen;
  };
  SmallPtrSet<BasicBlock *, 16> After = walk(From, true), Before = walk(To, false);
  for (BasicBlock *BB : After)
    if (BB != From && BB != To && Before.contains(BB) && yieldsIn(&BB->front(), nullptr))
      return true;
  return false;
}

namespace {

class SuspensionPlanner {
public:
  SuspensionPlanner(const SplitAnalyses &A, LoopPlan &Plan) : A(A), Plan(Plan) {}
  std::optional<SerialReason> run(bool HasTwin);

private:
  bool makeAvailableAt(Value *V, Instruction *At, unsigned Depth);
  void dropCoveredSuspensions();
  bool everyIterationSuspendsAlike() const;

  const SplitAnalyses &A;
  LoopPlan &Plan;
  /// Instructions the plan hoists, each now available in its block from the
  /// suspension it was hoisted above.
  SmallPtrSet<Instruction *, 8> Hoisted;
};

} // namespace

/// Plans the hoist of the pure address computation \p V above \p At when its
/// operands allow, so that several accesses can be prefetched at one
/// suspension. A hoist planned for an operand stays planned even when a later
/// operand cannot move: it is harmless, and it is what the lowering carries out.
bool SuspensionPlanner::makeAvailableAt(Value *V, Instruction *At, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || (Hoisted.contains(I) && I->getParent() == At->getParent()) || A.DT.dominates(I, At))
    return true;
  if (Depth == 0 || I->getParent() != At->getParent() || isa<PHINode>(I) ||
      !(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  // An append counter's value is the iteration's only once it holds the
  // turn: a slot computed from it above the suspension (to prefetch the
  // store `out[pos] = v; pos = (pos + 3) % n`) would be read too early.
  if (any_of(I->operands(), [&](Value *Op) { return Plan.isCounterValue(Op); }))
    return false;
  for (Value *Op : I->operands())
    if (!makeAvailableAt(Op, At, Depth - 1))
      return false;
  Plan.Hoists.push_back({I, At});
  Hoisted.insert(I);
  return true;
}

std::optional<SerialReason> SuspensionPlanner::run(bool HasTwin) {
  Loop &L = Plan.L;
  const auto *Remote = A.RAI.lookup(&L);
  // Where the iteration waits for a callee of another unit it resumes
  // (NestedCalls.cpp): suspensions with nothing to prefetch.
  SmallVector<CallInst *, 2> Yields = getNestedYields(L);
  if ((!Remote || Remote->empty()) && Yields.empty()) {
    if (HasTwin) {
      LLVM_DEBUG(dbgs() << "memcoro-split: a copy of a marked loop without remote accesses stays serial\n");
      return SerialReason{"NoSuspension", "the loop is a copy without remote accesses", nullptr,
                          /*Quiet=*/true};
    }
    SerialReason Why{"NoSuspension",
                     "no access in the loop looks long-latency: name the far data in remote(...), type it "
                     "__remote, or index it through a loaded value"};
    // A callee's own far accesses are not suspension points: say so, since
    // the user may think of them as the loop's.
    if (std::string Calls = callsInPlaceSummary(Plan); !Calls.empty())
      Why.Text += "; memcoro does not suspend inside called functions, and " + Calls;
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " in " << A.F.getName()
                      << " left serial: " << Why.Text << "\n");
    return Why;
  }
  SmallPtrSet<Instruction *, 16> IsRemote;
  if (Remote)
    for (const RemoteAccess &RA : *Remote)
      IsRemote.insert(RA.Access);
  // An exit test run at launch reads its data there, in iteration order,
  // and brings in the lines of what it reads (p->key beside p->next).
  for (Instruction *I : Plan.LaunchOnly)
    IsRemote.erase(I);
  // A catch handler of the body runs whole: from __cxa_begin_catch to
  // __cxa_end_catch the C++ runtime keeps the exception on the thread's
  // stack of caught exceptions, and another iteration's catch in between
  // would end this one's (`e.what()` then read a freed exception).
  for (BasicBlock *BB : L.blocks())
    if (BB->isLandingPad())
      for (Instruction *I : SmallVector<Instruction *, 8>(IsRemote.begin(), IsRemote.end()))
        if (A.DT.dominates(BB, I->getParent())) {
          LLVM_DEBUG(dbgs() << "memcoro-split: no suspension in a landing pad's code:" << *I << "\n");
          IsRemote.erase(I);
        }
  // Covered in program order, not the set's: its order follows addresses, and
  // the plan (and the AMU's near casts) list Covered in order.
  for (Instruction *I : Plan.LaunchSlice)
    if (auto *Load = dyn_cast<LoadInst>(I); Load && Remote)
      for (const RemoteAccess &RA : *Remote)
        if (Instruction *C = RA.Access; IsRemote.contains(C) &&
                                        accessedPointer(*C)->getType()->getPointerAddressSpace() == 0 &&
                                        sameLine(accessedPointer(*C), Load->getPointerOperand(), A.DL)) {
          IsRemote.erase(C);
          Plan.Covered.push_back(C);
        }
  // The cost model first; a profile then judges what is left, and may
  // overrule the model where the model guessed what the profile measured
  // (applyProfile). When nothing is left, the model's reason is the first.
  std::optional<SerialReason> CostWhy = applyCostModel(A, Plan, IsRemote);
  if (Remote)
    if (std::optional<SerialReason> Why = applyProfile(A, Plan, IsRemote))
      return CostWhy && StringRef(Why->Tag) == "ProfileHits" ? CostWhy : Why;
  if (IsRemote.empty() && Yields.empty() && !startsGatheredRows(A, Plan))
    return CostWhy;

  for (BasicBlock *BB : L.getBlocksVector()) {
    Suspension *Open = nullptr;
    for (Instruction &I : *BB) {
      if (!IsRemote.contains(&I))
        continue;
      Value *Ptr = accessedPointer(I);
      bool Write = !isa<LoadInst>(&I);
      if (Open && makeAvailableAt(Ptr, Open->At, 6)) {
        ++Plan.Coalesced;
        Open->Accesses.push_back(&I);
        // A field in the granule of one already prefetched needs no prefetch
        // of its own (ptrchase's c->next beside c->value: one per cell).
        auto Same = find_if(Open->Prefetch,
                            [&](auto &P) { return P.first == Ptr || withinOneGranule(P.first, Ptr, A.DL); });
        if (Same == Open->Prefetch.end())
          Open->Prefetch.push_back({Ptr, Write});
        else
          Same->second |= Write;
        continue;
      }
      Plan.Suspensions.emplace_back();
      Open = &Plan.Suspensions.back();
      Open->At = &I;
      Open->Accesses.push_back(&I);
      Open->Prefetch.push_back({Ptr, Write});
    }
  }
  dropCoveredSuspensions();
  planStreamStarts(A, Plan);
  for (CallInst *Yield : Yields) {
    Plan.Suspensions.emplace_back();
    Plan.Suspensions.back().At = Yield;
    Plan.Suspensions.back().Accesses.push_back(Yield);
  }
  if (ForcedDispatch == ForcedStyle::Ring || !everyIterationSuspendsAlike())
    Plan.Style = Dispatch::Ring;
  else
    Plan.Style = ForcedDispatch == ForcedStyle::Lockstep ? Dispatch::Lockstep : Dispatch::Pipeline;
  chooseAmuScheduler(Plan);
  // The AMU's static scheduler names requests by slot and waits for them when
  // the dispatch comes back to the slot; the pipeline has no such visit.
  if (Plan.ThroughAmu && Plan.Style == Dispatch::Pipeline)
    Plan.Style = Dispatch::Lockstep;
  // The pipeline's steady state is a copy of the body's blocks; an unwind
  // edge out of them (a buffer's flush that may throw) would need its
  // landing pad's phis copied too.
  if (Plan.Style == Dispatch::Pipeline && any_of(L.blocks(), [](BasicBlock *BB) {
        auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator());
        return Invoke && (!unwindEndsProgram(*Invoke) || isa<PHINode>(Invoke->getUnwindDest()->front()));
      })) {
    LLVM_DEBUG(dbgs() << "memcoro-split: lockstep, not pipeline: the body has an unwind edge\n");
    Plan.Style = Dispatch::Lockstep;
  }
  return std::nullopt;
}

/// A suspension whose accesses all touch a line that an earlier access of the
/// same iteration already brought in (the conditional store of `if (u < p[v])
/// p[v] = u`, e->next after e->key, a bucket's tuples after its count) must
/// not yield: the line is there (issue 15: one suspension per line, across
/// blocks), and yielding between a read and its write would let another
/// iteration update the location in between, which the serial loop never does.
void SuspensionPlanner::dropCoveredSuspensions() {
  // Fields of one record (e->key, then e->next in the latch; a bucket's
  // count, its tuples[j] in the inner loop, its next; a tree node's child
  // chosen by a select): same base, and every byte they may touch within a
  // cache line.
  // A plain load only needs its line in the cache, which the earlier access
  // of the same iteration brought in however many yields ago (offsets[u + 1]
  // re-read inside the edge loop after a store that may alias it). A store
  // must also not be separated from the earlier read by a yield.
  auto coveredBy = [&](Instruction *Late, Instruction *Early, const Instruction *Deciding) {
    if (!sameLine(accessedPointer(*Late), accessedPointer(*Early), A.DL) || !A.DT.dominates(Early, Late))
      return false;
    auto *Load = dyn_cast<LoadInst>(Late);
    if (Load && Load->isSimple())
      return true;
    return A.LI.getLoopFor(Early->getParent()) == A.LI.getLoopFor(Late->getParent()) &&
           !suspendsBetween(Plan, A.LI, Early, Late, Deciding);
  };
  SmallVector<Instruction *, 16> AllAccesses;
  for (Suspension &S : Plan.Suspensions)
    append_range(AllAccesses, S.Accesses);
  // Dropping one suspension removes a yield that may have stood between
  // another pair, so repeat until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Plan.Suspensions.begin(); It != Plan.Suspensions.end(); ++It) {
      SmallVector<FetchedField, 2> Extra;
      auto isCovered = [&](Instruction *Access) {
        for (Instruction *E : AllAccesses)
          if (E != Access && coveredBy(Access, E, It->At)) {
            noteOtherGranules(fieldOffsets(accessedPointer(*Access), A.DL), E, A.DL, Extra);
            return true;
          }
        return fetchedEarlierInIteration(A, Plan, Access, Extra);
      };
      bool Covered = all_of(It->Accesses, isCovered);
      if (!Covered && It->Accesses.size() > 1 && isCovered(It->At)) {
        // The yield itself would split a read-modify-write (the store of
        // `if (p[v] < 0) p[v] = u`, with a later access coalesced into its
        // suspension): the iteration yields at the next access instead.
        LLVM_DEBUG(dbgs() << "memcoro-split: suspension moves past" << *It->At
                          << ": its line was fetched earlier in the iteration\n");
        Plan.Covered.push_back(It->At);
        It->Accesses.erase(It->Accesses.begin());
        It->At = It->Accesses.front();
        It->Prefetch.clear();
        for (Instruction *Access : It->Accesses) {
          Value *Ptr = accessedPointer(*Access);
          bool Write = !isa<LoadInst>(Access);
          auto Same = find_if(It->Prefetch, [&](auto &P) { return P.first == Ptr; });
          if (Same == It->Prefetch.end())
            It->Prefetch.push_back({Ptr, Write});
          else
            Same->second |= Write;
        }
        Changed = true;
        break;
      }
      if (!Covered)
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *It->At
                        << ": its line was fetched earlier in the iteration\n");
      ++Plan.Coalesced;
      append_range(Plan.Covered, It->Accesses);
      Plan.Suspensions.erase(It);
      for (const FetchedField &F : Extra)
        for (Suspension &S : Plan.Suspensions)
          if (is_contained(S.Accesses, F.By) &&
              !is_contained(S.PrefetchFields, std::make_pair(accessedPointer(*F.By), F.Offset)))
            S.PrefetchFields.push_back({accessedPointer(*F.By), F.Offset});
      Changed = true;
      break;
    }
  }
}

/// Lockstep needs every iteration to meet the same suspension points in the
/// same order: each one outside the loop's inner loops and on every path
/// through the body (its block dominates the latch; there are no early exits).
bool SuspensionPlanner::everyIterationSuspendsAlike() const {
  return all_of(Plan.Suspensions, [&](const Suspension &S) {
    BasicBlock *BB = S.At->getParent();
    return A.LI.getLoopFor(BB) == &Plan.L && A.DT.dominates(BB, Plan.Latch);
  });
}

std::optional<SerialReason> memcoro::planSuspensions(const SplitAnalyses &A, LoopPlan &Plan, bool HasTwin) {
  return SuspensionPlanner(A, Plan).run(HasTwin);
}

unsigned LoopPlan::slotsFor(unsigned InFlight) const {
  return Style == Dispatch::Pipeline ? pipelineSlots(InFlight, Suspensions.size()) : InFlight;
}

unsigned LoopPlan::slotCount() const { return slotsFor(Parallelism); }

void LoopPlan::print(raw_ostream &OS) const {
  auto name = [&](const Value *V) {
    std::string S;
    raw_string_ostream NS(S);
    V->printAsOperand(NS, /*PrintType=*/false);
    return S;
  };
  OS << "  parallel(" << Parallelism << ")" << (ParallelismChosen ? ", chosen by memcoro" : "") << "\n";
  if (BoundEvaluatedOnce)
    OS << "  bound evaluated once, before the loop\n";
  if (!Inductions.empty()) {
    OS << "  inductions:";
    for (const PHINode *Phi : Inductions)
      OS << " " << name(Phi);
    OS << "\n";
  }
  for (const Reduction &R : Reductions)
    OS << "  reduction: " << name(R.Phi) << " "
       << (R.IsIntrinsic ? Intrinsic::getBaseName(R.Opcode) : StringRef(Instruction::getOpcodeName(R.Opcode)))
       << " from " << name(R.Identity) << "\n";
  for (const auto &[From, To] : EarlyExits)
    OS << "  early exit: " << name(From) << " -> " << name(To) << ", the lowest exiting iteration wins\n";
  for (const auto &[Phi, AtExit] : ExitValues)
    OS << "  exit value: " << name(Phi) << " = " << *AtExit << "\n";
  for (const AllocaInst *Alloca : PrivateAllocas)
    OS << "  private stack memory: " << name(Alloca) << "\n";
  for (const CallBase *Call : CallsInPlace)
    OS << "  call in place:" << *Call << "\n";
  for (const AssumedIndependent &Pair : Assumed)
    OS << "  assumed independent across iterations:" << *Pair.Store << " |" << *Pair.Other << "\n";
  for (const Hoist &H : Hoists)
    OS << "  hoist:" << *H.I << "\n";
  for (unsigned J = 0; J < Suspensions.size(); ++J) {
    const Suspension &S = Suspensions[J];
    OS << "  suspension " << J + 1 << ":" << *S.At << "\n";
    for (const Instruction *Access : ArrayRef(S.Accesses).drop_front())
      OS << "    shared by:" << *Access << "\n";
    for (const auto &[Ptr, Write] : S.Prefetch)
      OS << "    prefetch " << name(Ptr) << (Write ? " for writing" : "") << "\n";
    for (const auto &[Ptr, Offset] : S.PrefetchFields)
      OS << "    prefetch " << name(Ptr) << (Offset < 0 ? " - " : " + ") << std::abs(Offset)
         << ", a field read later\n";
  }
  for (const Instruction *Access : Covered)
    OS << "  no suspension, line fetched earlier in the iteration:" << *Access << "\n";
  for (const Instruction *Access : UnderLock)
    OS << "  no suspension, a lock may be held:" << *Access << "\n";
  printProfileVerdicts(*this, OS);
  for (const auto &[Load, Store] : Locked)
    OS << "  locked read-modify-write:" << *Load << " |" << *Store << "\n";
  for (const AppendCounter &C : Counters)
    OS << (C.InOrderedRegion ? "  value carried in an ordered region"
           : C.Buffered      ? "  append counter in a register"
                             : "  append counter")
       << ": " << name(C.Phi) << "\n";
  for (const OrderedPoint &P : Ordered) {
    OS << "  ordered "
       << (P.What == OrderedPoint::Region           ? "region"
           : P.What == OrderedPoint::Append         ? "append"
           : P.What == OrderedPoint::BufferAppend ? "append through memory"
           : P.What == OrderedPoint::RegisterAppend ? "append through a register"
           : P.What == OrderedPoint::InputOutput  ? "input or output"
           : P.What == OrderedPoint::OrderedUpdate  ? "order-sensitive update"
                                                    : "first-writer-wins")
       << (P.BeforeTurn ? " (tested before the turn)" : "") << ":" << *P.At << "\n";
    if (P.Store)
      OS << "    store:" << *P.Store << "\n";
  }
  OS << "  dispatch: " << dispatchName(Style) << (ThroughAmu ? ", far accesses through the AMU" : "");
  if (ringCanBeCompact(*this))
    OS << ", compact (live slots packed, no resume state)";
  if (Style == Dispatch::Pipeline)
    OS << ", distance " << pipelineDistance(Parallelism, Suspensions.size()) << ", " << slotCount() << " slots";
  OS << "\n";
  if (ScavengeNs)
    OS << "  scavenge: up to " << ScavengeNs << " ns at a suspension with no other iteration to run\n";
  if (!Ordered.empty())
    OS << "  order kept by: "
       << (WaitsForTurn                   ? "turns (an iteration waits for the one before it)"
           : Style == Dispatch::Pipeline ? "pipeline phase order"
                                          : "lockstep slot order")
       << "\n";
  for (const NotSuspended &N : NotWorth)
    OS << "  no suspension, " << N.describe() << ":" << *N.Access << "\n";
}
