//===- SplitProfile.cpp - the plan's profile-use step ---------------------===//
//
// Part of the plan (SplitPlan.cpp calls applyProfile once, before it builds
// suspension points): under -memcoro-profile-use=FILE (the driver's
// -fmemcoro-profile-use=FILE), a candidate suspension point whose samples say
// it rarely misses stays a plain access, as in MSH, which yields only at
// loads that profiling shows to miss. A candidate pays for its suspension
// when the latency it hides per execution, its mean latency beyond an L1
// hit, is at least what a suspension costs (-memcoro-profile-switch-ns,
// measured on the machine: docs/compiler.md). A loop whose candidates all
// stay plain stays serial. A loop whose serial run already kept as many
// accesses in flight as parallel(N) would (-memcoro-profile-overlap) gets
// more coroutines (-memcoro-profile-max-n), or stays serial when even those
// would not clearly exceed the serial loop's overlap.
//
// The cost model (SplitCost.cpp) has judged the candidates first. Where it
// guessed where the data lives (an object that fits in the cache, an address
// the same in every iteration), the profile measured it, and its verdict
// replaces the guess. Where the model says the hardware overlaps an access
// (a stream the prefetcher serves, an inner loop's independent loads), a
// sample of the access's own latency cannot tell whether the loop waits for
// it, and the model stands: lbm's streams, kept by their samples, ran at
// 0.5x serial interleaved. A candidate the profile has no verdict on (no
// entry, too few samples) keeps the static decision.
//
// The profile comes from a run of the -fmemcoro-profile-generate build
// (ProfileInstrument.cpp; names and file format in Profile.h). An unreadable
// or garbage file, or one that does not match the loop (the source changed
// since), is a warning, never an error.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -memcoro-profile-use=x.profile -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "Profile.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumProfileKept, "Number of candidate suspension points a profile kept");
STATISTIC(NumProfileDropped, "Number of candidate suspension points a profile turned into plain accesses");
STATISTIC(NumProfileSerial, "Number of marked loops left serial because their profile says every access hits");
STATISTIC(NumProfileRaisedN, "Number of marked loops given more coroutines because their serial run overlapped misses");

static cl::opt<std::string> ProfileUse(
    "memcoro-profile-use", cl::Hidden, cl::init(""), cl::value_desc("file"),
    cl::desc("Suspend only at accesses this access-latency profile says miss often enough to pay for a "
             "switch (-fmemcoro-profile-use)"));

static cl::opt<double> SwitchNs(
    "memcoro-profile-switch-ns", cl::Hidden, cl::init(2.0),
    cl::desc("The mean latency beyond an L1 hit below which a candidate does not pay for its suspension, in "
             "ns"));

static cl::opt<double> OverlapFraction(
    "memcoro-profile-overlap", cl::Hidden, cl::init(0.4),
    cl::desc("A loop stays serial when its serial run already kept this fraction of parallel(N) misses in "
             "flight, by its profile"));

// The mixed loop s += hot[ix[i]] * cold[iy[i]] keeps about 10 misses in
// flight serially; with one suspension point as a pipeline it ran at 0.87x
// serial with N = 16, 1.17x with 32 and 1.47x with 64, as the hand-written
// prefetch-distance loop at its best distance (docs/bench.md). 64 is also the
// top of run-time adaptation's ladder.
static cl::opt<unsigned> MaxParallelism(
    "memcoro-profile-max-n", cl::Hidden, cl::init(64),
    cl::desc("Coroutines a profile gives a loop whose serial run already overlaps its misses as parallel(N) "
             "would"));

static cl::opt<unsigned> MinSamples(
    "memcoro-profile-min-samples", cl::Hidden, cl::init(16),
    cl::desc("Samples a profile needs of a candidate to decide about it"));

namespace {

/// Warns once per profile and per text: a file used by many functions of a
/// module says what is wrong with it once.
void warn(const Function &F, const DebugLoc &Loc, const Twine &Message) {
  static StringSet<> Said;
  std::string Text = Message.str();
  if (!Said.insert(Text).second)
    return;
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Text, Loc, DS_Warning));
}

std::string percent(double Fraction) {
  std::string S;
  raw_string_ostream(S) << format(Fraction < 0.01 && Fraction > 0 ? "%.2f%%" : "%.1f%%", 100 * Fraction);
  return S;
}

std::string decimal(double X) {
  std::string S;
  raw_string_ostream(S) << format("%.1f", X);
  return S;
}

std::string nanoseconds(double Ns) { return decimal(Ns) + " ns"; }

StringRef kindName(const Instruction *I) {
  return isa<LoadInst>(I) ? "load" : isa<StoreInst>(I) ? "store" : "atomic access";
}

/// The accesses the serial loop kept in flight, by its profile: the latency
/// of its kept candidates over the loop's serial time. An
/// out-of-order core overlaps the misses of independent iterations by itself
/// (a gather over precomputed indices keeps about 16 in flight on Zen 4);
/// interleaving pays only when parallel(N) overlaps clearly more, so a loop
/// whose N would not gets MaxParallelism coroutines, or stays serial when
/// even those would not.
std::optional<SerialReason> judgeOverlap(LoopPlan &Plan, const AccessProfile &Profile, const std::string &LoopKey) {
  auto It = Profile.Loops.find(LoopKey);
  if (It == Profile.Loops.end() || It->second.SerialNs <= 0)
    return std::nullopt;
  double MissNs = 0;
  for (const ProfiledAccess &P : Plan.Profiled)
    if (P.What == ProfiledAccess::Kept)
      MissNs += double(P.Executions) * P.MeanNs;
  double InFlight = MissNs / It->second.SerialNs;
  if (InFlight < OverlapFraction * Plan.Parallelism)
    return std::nullopt;
  // parallel(1) asks for one iteration at a time: a latency-critical primary
  // whose stalls go to scavengers (ScavengeScheduler.cpp) keeps its N.
  bool MayRaise = Plan.Parallelism > 1 && Plan.Parallelism < MaxParallelism;
  if (MayRaise && InFlight < OverlapFraction * MaxParallelism) {
    ++NumProfileRaisedN;
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << ": " << InFlight
                      << " accesses in flight serially, " << MaxParallelism << " coroutines instead of "
                      << Plan.Parallelism << "\n");
    Plan.ProfileRaisedFrom = Plan.Parallelism;
    Plan.ProfileInFlight = InFlight;
    Plan.Parallelism = MaxParallelism;
    return std::nullopt;
  }
  ++NumProfileSerial;
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << " left serial: " << InFlight
                    << " accesses in flight serially\n");
  std::string Text;
  raw_string_ostream(Text) << "the profile '" << Profile.Path << "' says the serial loop already keeps "
                           << format("%.1f", InFlight) << " accesses in flight ("
                           << format("%.1f", MissNs / 1e6) << " ms of their latency in "
                           << format("%.1f", It->second.SerialNs / 1e6) << " ms), which ";
  if (MayRaise)
    Text += "even " + std::to_string(MaxParallelism) + " coroutines would not clearly exceed";
  else
    Text += "parallel(" + std::to_string(Plan.Parallelism) + ") would not clearly exceed";
  return SerialReason{"ProfileOverlapped", Text};
}

} // namespace

std::optional<SerialReason> memcoro::applyProfile(const SplitAnalyses &A, LoopPlan &Plan,
                                                  SmallPtrSetImpl<Instruction *> &Candidates) {
  if (ProfileUse.empty())
    return std::nullopt;
  const AccessProfile &Profile = readAccessProfile(ProfileUse);
  if (!Profile.Error.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: profile " << Profile.Path << " ignored: " << Profile.Error << "\n");
    warn(A.F, DebugLoc(),
         "memcoro: ignoring the profile '" + Profile.Path + "' (" + Profile.Error +
             "): marked loops keep memcoro's own choice of suspension points");
    return std::nullopt;
  }
  const auto *Remote = A.RAI.lookup(&Plan.L);
  SmallVector<ProfileSite, 8> Sites = profileSites(A.F, Plan.L, *Remote);
  unsigned Missing = 0;
  for (unsigned J = 0; J < Remote->size(); ++J) {
    Instruction *Access = (*Remote)[J].Access;
    auto It = Profile.Sites.find(Sites[J].key());
    if (It == Profile.Sites.end()) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no profile entry '" << Sites[J].key() << "' for" << *Access << "\n");
      ++Missing;
      continue;
    }
    // Of the accesses the cost model took away, the profile judges again
    // only those whose data the model guessed to be in the cache.
    auto Guess = find_if(Plan.NotWorth, [&](const NotSuspended &N) { return N.Access == Access; });
    bool Guessed = Guess != Plan.NotWorth.end() &&
                   (Guess->What == NotSuspended::SmallObject || Guess->What == NotSuspended::Invariant);
    if (!Candidates.contains(Access) && !Guessed)
      continue;
    const SiteSamples &S = It->second;
    ProfiledAccess P{Access, ProfiledAccess::Kept, S.Samples, S.Executions, S.MissFraction, S.MeanNs, S.MeanMissNs};
    if (S.Samples < MinSamples)
      P.What = ProfiledAccess::TooFewSamples;
    else if (S.MeanNs < SwitchNs)
      P.What = ProfiledAccess::Dropped;
    if (P.What == ProfiledAccess::Dropped) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the profile says this access rarely misses, no suspension:" << *Access
                        << "\n");
      Candidates.erase(Access);
      ++NumProfileDropped;
    }
    if (Guessed && P.What != ProfiledAccess::TooFewSamples) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the profile's verdict replaces the cost model's:" << *Access << "\n");
      if (P.What == ProfiledAccess::Kept)
        Candidates.insert(Access);
      Plan.NotWorth.erase(Guess);
    }
    Plan.Profiled.push_back(P);
  }
  // A store or atomic update of the line a dropped load has just read (the
  // store of h[k] += v) finds it in the cache whatever its own samples say,
  // and a suspension between the two would split the read-modify-write.
  for (ProfiledAccess &Late : Plan.Profiled) {
    if (Late.What == ProfiledAccess::Dropped || isa<LoadInst>(Late.Access))
      continue;
    for (const ProfiledAccess &Early : Plan.Profiled) {
      std::optional<int64_t> Distance =
          byteDistance(accessedPointer(*Early.Access), accessedPointer(*Late.Access), A.DL);
      if (Early.What != ProfiledAccess::Dropped || !Distance || std::abs(*Distance) >= 64 ||
          !A.DT.dominates(Early.Access, Late.Access) ||
          A.LI.getLoopFor(Early.Access->getParent()) != A.LI.getLoopFor(Late.Access->getParent()))
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension, the line was read just before:" << *Late.Access << "\n");
      Late.What = ProfiledAccess::FetchedBefore;
      Late.By = Early.Access;
      Candidates.erase(Late.Access);
      ++NumProfileDropped;
      break;
    }
  }
  // Entries for this loop that name no candidate, or candidates without an
  // entry: the profile was made from other source (or other flags).
  NumProfileKept += count_if(Plan.Profiled, [](const ProfiledAccess &P) { return P.What == ProfiledAccess::Kept; });
  unsigned Matched = Remote->size() - Missing;
  unsigned Unmatched = Profile.SitesPerLoop.lookup(Sites.front().loopKey()) - Matched;
  if (Missing || Unmatched)
    warn(A.F, Plan.L.getStartLoc(),
         "memcoro: the profile '" + Profile.Path + "' does not match the marked loop in '" + A.F.getName() +
             "': it has no entry for " + Twine(Missing) + " of the loop's " + Twine(Remote->size()) +
             " candidate accesses" +
             (Unmatched ? " and " + Twine(Unmatched) + " that name none of them" : Twine()) +
             "; was it made from other source? Accesses without an entry keep memcoro's own choice");
  if (std::optional<SerialReason> Why = judgeOverlap(Plan, Profile, Sites.front().loopKey()))
    return Why;
  if (Candidates.empty()) {
    ++NumProfileSerial;
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << " in " << A.F.getName()
                      << " left serial: the profile says every access hits\n");
    return SerialReason{"ProfileHits",
                        "the profile '" + Profile.Path +
                            "' says its accesses rarely miss in the cache: no suspension would pay for its switch"};
  }
  return std::nullopt;
}

void memcoro::emitProfileRemarks(const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  for (const ProfiledAccess &P : Plan.Profiled)
    ORE.emit([&] {
      OptimizationRemark R(RemarkPass, "Profile", remarkLocation(P.Access, Plan.L), P.Access->getParent());
      if (P.What == ProfiledAccess::FetchedBefore) {
        R << "not a suspension point: this " << kindName(P.Access) << " touches the line the load at "
          << sourcePlace(*P.By) << " reads just before, which the profile says rarely misses";
        return R;
      }
      if (P.What == ProfiledAccess::TooFewSamples) {
        R << "the profile has " << ore::NV("Samples", P.Samples) << " samples of this " << kindName(P.Access)
          << ", fewer than " << Twine(MinSamples).str() << ": memcoro's own choice stands";
        return R;
      }
      R << (P.What == ProfiledAccess::Kept ? "suspension point kept: " : "not a suspension point: ")
        << "the profile says this " << kindName(P.Access) << " takes " << ore::NV("MeanNs", nanoseconds(P.MeanNs))
        << " beyond an L1 hit on average (" << ore::NV("Samples", P.Samples) << " samples, "
        << ore::NV("MissPercent", percent(P.MissFraction)) << " of them cache misses of "
        << nanoseconds(P.MeanMissNs) << "): " << (P.What == ProfiledAccess::Kept ? "at least" : "less than")
        << " what a suspension costs (" << nanoseconds(SwitchNs) << ")";
      if (P.What == ProfiledAccess::Dropped)
        R << "; it stays a plain " << kindName(P.Access);
      return R;
    });
  if (Plan.ProfileRaisedFrom)
    ORE.emit([&] {
      return OptimizationRemark(RemarkPass, "ProfileParallelism", Plan.L.getStartLoc(), Plan.L.getHeader())
             << "the profile '" << ProfileUse << "' says the serial loop already keeps "
             << ore::NV("InFlight", decimal(Plan.ProfileInFlight)) << " accesses in flight, which "
             << (Plan.ParallelismChosen ? "memcoro's default of " + Twine(Plan.ProfileRaisedFrom) + " coroutines"
                                        : "parallel(" + Twine(Plan.ProfileRaisedFrom) + ")")
                    .str()
             << " would not clearly exceed: " << ore::NV("Parallelism", Plan.Parallelism) << " coroutines instead";
    });
}

void memcoro::printProfileVerdicts(const LoopPlan &Plan, raw_ostream &OS) {
  if (Plan.ProfileRaisedFrom)
    OS << "  profile raises parallel(" << Plan.ProfileRaisedFrom << ") to " << Plan.Parallelism << ": "
       << decimal(Plan.ProfileInFlight) << " accesses in flight serially\n";
  for (const ProfiledAccess &P : Plan.Profiled)
    OS << "  profile "
       << (P.What == ProfiledAccess::Kept      ? "keeps"
           : P.What == ProfiledAccess::Dropped ? "drops"
           : P.What == ProfiledAccess::FetchedBefore ? "drops, line read just before,"
                                               : "has too few samples of")
       << ":" << *P.Access << " (" << P.Samples << " samples, " << percent(P.MissFraction) << " miss, "
       << nanoseconds(P.MeanMissNs) << " per miss)\n";
}
