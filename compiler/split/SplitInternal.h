//===- SplitInternal.h - memcoro-split's parts and what they share -*- C++ -*-===//
//
// memcoro-split is laid out as LLVM lays out its coroutine and vectoriser
// passes (Coroutines/CoroInternal.h, LoopVectorizationLegality, VPlan): one
// file per step of the transformation, and here the data they hand on.
//
//   Split.cpp               the pass: takes each marked loop through the steps
//   split/SplitLegality.cpp may the loop be interleaved, and if not, why
//   split/SplitPlan.cpp     where it suspends, what is coalesced, which
//                           dispatch: a LoopPlan, printed by print<memcoro-plan>
//   split/SplitCost.cpp     the plan's cost model: remote accesses whose
//                           latency the hardware hides get no suspension
//   split/SplitFrame.cpp    what a slot holds: saved, preserved and
//                           rematerialised values, private stack memory
//   split/SplitOrdered.cpp  what must run in iteration order (ordered
//                           regions, appends, first-writer-wins tests),
//                           and the turn an iteration waits for
//   split/SplitLowering.cpp the coroutine skeleton every scheduler shares
//   split/RingScheduler.cpp, split/LockstepScheduler.cpp,
//   split/PipelineScheduler.cpp, split/CompactRingScheduler.cpp,
//   split/Amu*Scheduler.cpp one code generator per scheduler, behind
//                           SchedulerCodeGen
//   split/PrefetchAhead.cpp the loop kept in serial order, its misses
//                           prefetched ahead instead of interleaved
//   split/PrefetchEdges.cpp the same for an overlapped inner loop: its
//                           element stream prefetched ahead across rows
//   split/OverlappedGathers.cpp which loops of short independent gathers
//                           the core overlaps: kept in order, prefetched ahead
//   split/PrefetchSwitch.cpp, split/PrefetchSwitchRanges.cpp the prefetching
//                           loop and the loop as written, switched at run
//                           time by windows of work or ranges of iterations
//   split/PrefetchSerialCopy.cpp an adapting ring's serial copy, prefetched
//                           ahead (and switched) once the function is lowered
//   split/SplitCheck.cpp    -memcoro-check: every access reported to the
//                           checking runtime with its iteration
//
// Private to the compiler plugin.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_COMPILER_SPLIT_SPLITINTERNAL_H
#define MEMCORO_COMPILER_SPLIT_SPLITINTERNAL_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class AAResults;
class AssumptionCache;
class DependenceInfo;
class IntrinsicInst;
class DominatorTree;
class Loop;
class LoopInfo;
class MemoryLocation;
class OptimizationRemarkEmitter;
class SCEV;
class ScalarEvolution;
class TargetLibraryInfo;
class TargetTransformInfo;
class raw_ostream;
} // namespace llvm

namespace memcoro {

class RemoteAccessInfo;

/// The analyses every step reads, gathered once by the pass.
struct SplitAnalyses {
  llvm::Function &F;
  llvm::LoopInfo &LI;
  llvm::DominatorTree &DT;
  llvm::ScalarEvolution &SE;
  llvm::AssumptionCache &AC;
  llvm::DependenceInfo &DI;
  const RemoteAccessInfo &RAI;
  const llvm::DataLayout &DL;
  llvm::AAResults &AA;
};

/// An associative, commutative update of a header phi: the iteration computes
/// its contribution from the identity, and the contribution is folded into a
/// shared accumulator when the iteration ends.
struct Reduction {
  llvm::PHINode *Phi = nullptr;
  llvm::Value *LatchValue = nullptr;
  /// Instruction::Add/Mul/And/Or/Xor/FAdd/FMul, or an Intrinsic ID for min/max.
  unsigned Opcode = 0;
  bool IsIntrinsic = false;
  llvm::Constant *Identity = nullptr;
  llvm::Instruction *ReassocSource = nullptr; ///< carries the fast-math flags of FP updates
  /// Stores of the running total to one loop-invariant place in every
  /// iteration; the lowering replaces them with one store of the total.
  llvm::SmallVector<llvm::StoreInst *, 1> Mirrors;
  llvm::Value *MirrorPlace = nullptr;
  /// A sanitizer's overflow check of the update (-fsanitize=undefined): it
  /// checks each iteration's part, started from the identity.
  llvm::Instruction *OverflowCheck = nullptr;
};

/// Remote accesses sharing one suspension: the first is where the iteration
/// yields; the others' addresses are ready by then and are prefetched with it.
struct Suspension {
  llvm::Instruction *At = nullptr;
  llvm::SmallVector<llvm::Instruction *, 2> Accesses;
  /// Addresses to prefetch, each with whether it will be written.
  llvm::SmallVector<std::pair<llvm::Value *, bool>, 2> Prefetch;
  /// Lines of fields read later without a suspension of their own (a node's
  /// value after its key, FetchedLines.cpp): an address plus a byte offset.
  llvm::SmallVector<std::pair<llvm::Value *, int64_t>, 1> PrefetchFields;
};

/// Pure address arithmetic that coalescing moves above an earlier suspension,
/// so that a later access's address can be prefetched there. The planner only
/// records the move; the lowering makes it, so a loop left serial is untouched.
struct Hoist {
  llvm::Instruction *I;
  llvm::Instruction *Before;
};

/// A loop-carried counter used only as the index of stores and incremented
/// by loop-invariant amounts: the append idiom `next[n++] = v`. It lives in
/// one shared scalar, read and incremented in iteration order.
struct AppendCounter {
  llvm::PHINode *Phi = nullptr;
  /// The counter's values in the loop: header and inner phis, increments.
  llvm::SmallVector<llvm::Instruction *, 8> Closure;
  /// The increments (`n + c`), and the instructions that read the counter
  /// for an address (a GEP index, or a cast feeding one).
  llvm::SmallVector<llvm::Instruction *, 2> Increments;
  llvm::SmallVector<llvm::Instruction *, 2> Reads;
  /// A buffer's counter or bump pointer kept in a register (RegisterAppend.cpp):
  /// its phis' uses, of any kind (the capacity test, the flush's length), are
  /// the Reads; Assigned, each phi and incoming block where it takes a value
  /// of its own (`in + 1`, `in = 0` at the flush, a new block from malloc),
  /// stored at that block's end. It runs in order from its first read on
  /// each path to the iteration's end (LoopPlan::RegisterAppendStarts).
  bool Buffered = false;
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::BasicBlock *>, 2> Assigned;
  /// Buffered, and read and assigned only inside ordered regions (`h = h *
  /// 31 + v` under `#pragma memcoro ordered`): no append, and no ordered
  /// point of its own (OrderedValues.cpp).
  bool InOrderedRegion = false;
};

/// A header phi that hands a load to the next iteration (`off[u + 1]` as the
/// next `off[u]`): each iteration reads it again (CarriedLoad.cpp).
struct CarriedLoad {
  llvm::PHINode *Phi = nullptr;
  /// The load in the loop whose value the latch hands on.
  llvm::LoadInst *Next = nullptr;
  /// A counter by one: which iteration this is (unused when the address
  /// does not change in the loop).
  llvm::PHINode *Counter = nullptr;
  /// The address iteration 0 reads it from, one step before Next's.
  const llvm::SCEV *Before = nullptr;
  /// A store that may write the address, assumed apart on the pragma's word.
  llvm::Instruction *Assumed = nullptr;
  /// Instead of Before, an address the loop reads from memory that does not
  /// change (`codes_.data()` through a reference member): its loads and
  /// offsets, operands first, evaluated once before the loop.
  llvm::SmallVector<llvm::Instruction *, 2> AddressChain;
};

/// Code that must run in iteration order: iteration k may run it only after
/// every iteration before k has run its own (CoroAMU's sequential category).
struct OrderedPoint {
  enum Kind { Region, Append, FirstWriterWins, BufferAppend, RegisterAppend, InputOutput, OrderedUpdate };
  Kind What;
  /// The first instruction that needs the turn: a region's marker, the first
  /// read or increment of a counter in its block, the test's load.
  llvm::Instruction *At = nullptr;
  /// For the remark: the store of an append or of a test-and-set.
  llvm::Instruction *Store = nullptr;
  /// A first-writer-wins test that reads before the turn and waits only to
  /// claim (SpeculativeTest.cpp).
  bool BeforeTurn = false;
  /// Where the iteration waits for its turn when a lock may be held at At:
  /// in front of the first lock on the way (TurnBeforeLocks.cpp); null: At.
  llvm::Instruction *WaitAt = nullptr;
};


/// Ring and lockstep reach far memory through the cache (prefetch, or under
/// -memcoro-amu an aload then a wait: the static scheduler); the AMU
/// schedulers resume whatever the software AMU reports done (Amu*.cpp).
/// Pipeline is lockstep as a software pipeline (PipelineScheduler.cpp).
enum class Dispatch { Ring, Lockstep, AmuGetfin, AmuBafin, Pipeline };
llvm::StringRef dispatchName(Dispatch D);

/// Two accesses of the loop, at least one a store, that may touch the same
/// memory in different iterations where the compiler cannot tell (indirect or
/// possibly aliasing addresses): the pragma asserts that they do not, and
/// -fmemcoro-check verifies it at run time.
struct AssumedIndependent {
  llvm::Instruction *Store;
  llvm::Instruction *Other;
};

/// A remote access the cost model leaves without a suspension, and why
/// (SplitCost.cpp).
struct NotSuspended {
  enum Kind { AffineStream, IndexArithmetic, Invariant, SmallObject, OverlappedInnerLoop };
  llvm::Instruction *Access;
  Kind What;
  /// SmallObject: the object's size.
  uint64_t Bytes = 0;
  /// The reason in the remark's words.
  std::string describe() const;
};

/// What an access-latency profile (-memcoro-profile-use) says about one
/// candidate suspension point, and the numbers it says it with.
struct ProfiledAccess {
  enum Verdict { Kept, Dropped, TooFewSamples, FetchedBefore };
  llvm::Instruction *Access = nullptr;
  Verdict What = Kept;
  uint64_t Samples = 0, Executions = 0;
  double MissFraction = 0, MeanNs = 0, MeanMissNs = 0;
  /// FetchedBefore: the dropped load that read the line just before.
  llvm::Instruction *By = nullptr;
};

/// A remote access whose line a loop kept in serial order prefetches ahead
/// (PrefetchAhead.cpp): its address computed from the value a sequence load
/// reads Distance iterations of the sequence's loop ahead.
struct AheadPrefetch {
  llvm::Instruction *Access = nullptr;
  llvm::LoadInst *Stream = nullptr;
  unsigned Distance = 0;
  /// Loads made ahead on the way to the address, the sequence's included.
  unsigned Loads = 1;
  /// The read ahead is bounded by the loop's last element (its trip count is
  /// known when it starts), not to the page of the element just read.
  bool ClampedToTripCount = false;
  /// And the loop does not write the sequence: the value read ahead is the
  /// loop's own, and may address further loads ahead.
  bool ValueKnown = false;
  /// Lines prefetched from the address on: a row the iteration reads whole
  /// (an embedding row of 64 floats, 4 lines), or just the access's own.
  unsigned Lines = 1;
  /// For a sequence read only on some paths (`arc->tail` under `if
  /// (arc->ident > 0)`): an access of every iteration at a constant distance
  /// from it (`arc->ident`). The read ahead goes after it, bounded by its
  /// last element and within the page of its element ahead.
  llvm::Instruction *Guard = nullptr;
  /// The sequence's address minus the guard's, in bytes.
  int64_t GuardOffset = 0;
};
/// A cache line of the targets memcoro runs on.
inline constexpr int64_t LineBytes = 64;
/// A row the iteration reads whole, chosen by a loaded index (an embedding
/// row of 64 floats: 4 lines), is prefetched whole up to this many lines
/// (StreamStarts.cpp, PrefetchAhead.cpp); the hardware prefetcher catches up
/// with the rest of a longer one.
inline constexpr int64_t MaxRowLines = 8;
/// Why the planner kept a loop in serial order with prefetches ahead.
enum class PrefetchAheadReason { Turns, Overlapped, Gathers, NotInterleavable, SerialCopy };

/// An inner loop whose rows [Start, End) tile one stream (CSR rows), its
/// remote accesses prefetched Elements ahead along the stream, from the
/// marked loop's body (PrefetchEdges.cpp).
struct EdgePrefetch {
  llvm::Loop *Inner = nullptr;
  /// The inner loop's induction variable, its value on entry and its bound.
  llvm::PHINode *IV = nullptr;
  llvm::Value *Start = nullptr, *End = nullptr;
  /// The sequence load of the marked loop End is computed from.
  llvm::LoadInst *EndLoad = nullptr;
  /// The block the inner loop is entered from, in every iteration whose row is not empty.
  llvm::BasicBlock *At = nullptr;
  llvm::SmallVector<llvm::Instruction *, 2> Accesses;
  /// The inner loop's exit test compares signed.
  bool Signed = false;
  unsigned Elements = 0;
};

/// Why a marked loop stays serial: what its missed remark says, and where.
struct SerialReason {
  const char *Tag;
  std::string Text;
  const llvm::Instruction *At = nullptr;
  /// A copy of a marked loop that loop versioning or unswitching made and that
  /// has no remote access: the cache-resident special case, worth no remark.
  bool Quiet = false;
  /// Where the remark goes when not at \p At's own line: the statement of
  /// the loop's function an STL member inlined into it came from.
  llvm::DebugLoc Loc = llvm::DebugLoc();
};

/// Everything memcoro-split decided about one marked loop. Legality fills in
/// the loop's shape, the planner its suspension points and dispatch; the
/// lowering carries it out; print<memcoro-plan> shows it.
struct LoopPlan {
  explicit LoopPlan(llvm::Loop &L);

  llvm::Loop &L;
  /// Iterations in flight: the pragma's parallel(N), or memcoro's default.
  unsigned Parallelism = 0;
  bool ParallelismChosen = false;

  // The loop's shape (SplitLegality.cpp).
  llvm::BasicBlock *Preheader = nullptr;
  llvm::BasicBlock *Header = nullptr;
  llvm::BasicBlock *Latch = nullptr;
  llvm::BasicBlock *Exit = nullptr;
  const llvm::SCEV *BackedgeTakenCount = nullptr;
  /// The exit test's bound was read through memory in every iteration and is
  /// now evaluated once, before the loop, as OpenMP does.
  bool BoundEvaluatedOnce = false;
  /// A call in the loop may throw, and the exception would end the program
  /// (TerminateOnThrow.cpp) instead of leaving the loop.
  bool ThrowTerminates = false;
  llvm::SmallVector<llvm::PHINode *, 4> Inductions;
  llvm::SmallVector<Reduction, 2> Reductions;
  /// A floating-point reduction is reassociated because an OpenMP reduction
  /// clause on the loop permits it, not the file's fast-math flags.
  bool ReassociatedByOpenMP = false;
  /// Edges out of the loop other than the latch's (break, return): the
  /// exiting block and where it goes. The first exiting iteration in
  /// iteration order wins (EarlyExits.cpp).
  llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, 1> EarlyExits;
  /// Why the exits made the loop run on another dispatch than the planner's,
  /// for an analysis remark; empty when they did not.
  std::string ExitsChangedDispatch;
  /// The latch's exit test depends on data the loop reads (`key[i] != 0`,
  /// `while (p)`): it runs at launch, in iteration order (LaunchExit.cpp).
  /// The computation of the test and of the values the next iteration
  /// starts from, operands first; the header phis it carries from one
  /// iteration to the next; and those of its instructions nothing else uses.
  bool ExitAtLaunch = false;
  llvm::SmallVector<llvm::Instruction *, 8> LaunchSlice;
  llvm::SmallVector<llvm::PHINode *, 1> LaunchChains;
  llvm::SmallPtrSet<llvm::Instruction *, 8> LaunchOnly;
  /// Values used after the loop that are affine in it: their exit value.
  llvm::SmallVector<std::pair<llvm::PHINode *, const llvm::SCEV *>, 2> ExitValues;
  /// Stack objects private to an iteration (declared in the loop body; LLVM
  /// hoisted them to the function entry): each slot gets its own copy.
  llvm::SmallVector<llvm::AllocaInst *, 2> PrivateAllocas;
  /// Calls that may access memory and run in place, inside the phase that
  /// reaches them (CallsInPlace.cpp); one of them may take a lock.
  llvm::SmallVector<llvm::CallBase *, 2> CallsInPlace;
  bool TakesLock = false;
  /// Far accesses that may run while such a lock is held: no suspension.
  llvm::SmallVector<llvm::Instruction *, 1> UnderLock;
  /// Pairs of accesses whose independence rests on the pragma alone.
  llvm::SmallVector<AssumedIndependent, 4> Assumed;
  /// Read-modify-writes split by a suspension that other iterations may also
  /// apply (commutative updates): each is kept atomic by the lock table
  /// (split/LockTable.cpp), the load waiting while another slot holds the
  /// address, the store releasing it.
  llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::StoreInst *>, 1> Locked;

  /// Append counters (legality recognises them, SplitOrdered.cpp).
  llvm::SmallVector<AppendCounter, 1> Counters;
  /// Whether \p V is one of an append counter's values, the iteration's
  /// only once it holds the turn.
  bool isCounterValue(const llvm::Value *V) const {
    return llvm::any_of(Counters, [&](const AppendCounter &C) { return llvm::is_contained(C.Closure, V); });
  }
  /// Appends through a counter in memory (`lq.push_back(v)`, BufferAppend.cpp):
  /// the first reads of the counter, from which the iteration runs in
  /// iteration order.
  llvm::SmallVector<llvm::Instruction *, 1> BufferAppendStarts;
  /// The same for a buffer's counter kept in a register (RegisterAppend.cpp).
  llvm::SmallVector<llvm::Instruction *, 1> RegisterAppendStarts;
  /// Header phis that carry a load (the buffer's address, forwarded by GVN
  /// past the flush call) to where only ordered code uses it: read again
  /// there instead (BufferAppend.cpp).
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::LoadInst *>, 1> Reloaded;
  /// Header phis that carry a load from an address affine in the counter:
  /// read again by each iteration (CarriedLoad.cpp).
  llvm::SmallVector<CarriedLoad, 1> CarriedLoads;

  // What runs in iteration order (SplitOrdered.cpp).
  llvm::SmallVector<OrderedPoint, 2> Ordered;
  /// The dispatch cannot keep the order by itself (ring): an iteration waits
  /// for its turn at each ordered point and at its end.
  bool WaitsForTurn = false;

  // What to do with it (SplitPlan.cpp).
  llvm::SmallVector<Suspension, 4> Suspensions;
  llvm::SmallVector<Hoist, 4> Hoists;
  /// Remote accesses that need no suspension: an earlier access of the same
  /// iteration already fetched their line.
  llvm::SmallVector<llvm::Instruction *, 2> Covered;
  /// Remote accesses the cost model judged not worth a suspension.
  llvm::SmallVector<NotSuspended, 2> NotWorth;
  /// Accesses that share another's suspension, and suspensions dropped because
  /// their line was fetched earlier in the same iteration.
  unsigned Coalesced = 0;
  /// The profile's verdict on each candidate it has samples of
  /// (split/SplitProfile.cpp); a dropped candidate stays a plain access.
  llvm::SmallVector<ProfiledAccess, 2> Profiled;
  /// The N the profile raised Parallelism from, because the serial loop
  /// already kept ProfileInFlight accesses in flight (SplitProfile.cpp); 0:
  /// the profile left N alone.
  unsigned ProfileRaisedFrom = 0;
  double ProfileInFlight = 0;
  Dispatch Style = Dispatch::Ring;
  /// Far accesses are requests to the thread's software AMU (-memcoro-amu).
  bool ThroughAmu = false;
  /// The static AMU scheduler runs the loop although another was asked for:
  /// it has code in iteration order (chooseAmuDispatch).
  bool AmuKeptStatic = false;
  /// Not interleaved at all: the loop keeps its order, its misses prefetched
  /// ahead (PrefetchAhead.cpp); the rest of the plan is not carried out.
  llvm::SmallVector<AheadPrefetch, 2> PrefetchAhead;
  PrefetchAheadReason PrefetchAheadWhy = PrefetchAheadReason::Turns;
  /// Why the loop cannot be interleaved, when it is kept in serial order for
  /// that reason (NotInterleavable), for the missed remark.
  std::optional<SerialReason> NotInterleavedWhy;
  /// Or an inner loop's stream prefetched across rows (PrefetchEdges.cpp).
  std::optional<EdgePrefetch> Edges;
  bool prefetchesAhead() const { return !PrefetchAhead.empty() || Edges; }
  /// -memcoro-scavenge: nanoseconds a suspension with no other iteration to
  /// run hands to the thread's scavengers (ScavengeScheduler.cpp); 0: none.
  unsigned ScavengeNs = 0;
  /// Why -memcoro-scavenge does not apply to this loop, for the remark.
  llvm::StringRef ScavengeSkipped;

  /// At most this many iterations in flight, at any N (0: no limit): the loop
  /// spans the nest around it (FlattenNest.cpp), and iteration k + M must
  /// not start before iteration k has ended.
  unsigned MaxInFlight = 0;
  /// The iterations of one round of a flattened nest (0: not flattened).
  unsigned NestTrips = 0;

  /// Slots of the slot array: Parallelism, except for the pipeline, which
  /// keeps every iteration between its first and last phase in a slot.
  unsigned slotCount() const;
  /// The slots for \p InFlight iterations in flight (run-time N's maximum).
  unsigned slotsFor(unsigned InFlight) const;

  void print(llvm::raw_ostream &OS) const;
};

/// May this loop be interleaved? checkLoop() looks at the loop as it is and
/// fills in the plan's shape; checkPlan() looks again once the suspension
/// points are known. Each returns the reason the loop must stay serial.
class SplitLegality {
public:
  SplitLegality(const SplitAnalyses &A, LoopPlan &Plan) : A(A), Plan(Plan), L(Plan.L) {}
  std::optional<SerialReason> checkLoop();
  std::optional<SerialReason> checkPlan();
  /// Undoes what checkLoop changed in the IR (a bound evaluated once), for a
  /// loop that stays serial after all, or whose plan was only printed.
  void revert();

private:
  std::optional<SerialReason> checkExits();
  std::optional<SerialReason> checkTripCount();
  bool evaluateBoundOnce();
  bool reloadWhereRead(const llvm::SmallDenseMap<llvm::PHINode *, std::pair<llvm::Value *, llvm::LoadInst *>, 2> &Reloaded,
                       llvm::ArrayRef<llvm::Instruction *> Chain);
  std::optional<SerialReason> classifyHeaderPhis();
  bool recogniseReduction(llvm::PHINode *Phi, Reduction &R);
  bool clausePermitsReassociation(char Kind) const;
  std::optional<SerialReason> checkCallsAndControlFlow();
  std::optional<SerialReason> checkLocalMemory();
  std::optional<SerialReason> checkLiveOuts();
  std::optional<SerialReason> checkUpdatesNotSplit();
  std::optional<SerialReason> checkMemoryDependences();
  bool updatesMayReach(llvm::Instruction *Store, llvm::function_ref<bool(unsigned Kind)> Counts);
  bool otherIterationsMayUpdate(llvm::Instruction *Store);
  bool onlyUpdatesOfItsKind(llvm::StoreInst *Store);
  SerialReason serial(const char *Tag, const llvm::Twine &Why, const llvm::Instruction *At = nullptr) const;
  SerialReason carriedValue(llvm::PHINode &Phi) const;

  const SplitAnalyses &A;
  LoopPlan &Plan;
  llvm::Loop &L;
  /// Set by recogniseReduction when only FP reassociation stands in the way.
  llvm::Instruction *FloatingPointOrderMatters = nullptr;
  /// The loads and stores of commutative updates of memory (h[k] += v), with
  /// their operation; set by checkMemoryDependences.
  llvm::DenseMap<const llvm::Instruction *, unsigned> CommutativeOp;
  /// A bound evaluated once: the copies in the preheader, and the exit test's
  /// operands they replaced. Held by value handles: legality goes on to merge
  /// congruent phis (CongruentPhis.cpp), which may delete a user of the bound
  /// or replace the value a use had, and revert() must not touch either.
  struct ReplacedUse {
    llvm::WeakVH User;
    unsigned OperandNo;
    llvm::WeakTrackingVH Original;
  };
  llvm::SmallVector<llvm::Instruction *, 4> BoundCopies;
  llvm::SmallVector<ReplacedUse, 2> BoundUses;
  void replaceUse(llvm::Use &U, llvm::Value *Instead);
};


/// Chooses the suspension points of a legal loop, coalesces them, and picks
/// the dispatch style (SplitPlan.cpp). \p HasTwin: another copy of the same
/// marked loop exists in the function.
std::optional<SerialReason> planSuspensions(const SplitAnalyses &A, LoopPlan &Plan, bool HasTwin);
/// Adds a suspension where an inner loop is entered whose stream starts at a
/// value a suspended load reads, prefetching its first lines (StreamStarts.cpp).
void planStreamStarts(const SplitAnalyses &A, LoopPlan &Plan);
/// Whether an inner loop's stream the cost model left to the prefetcher walks
/// a row chosen by a loaded index (StreamStarts.cpp): the loop then has
/// something to suspend for, where that loop is entered.
bool startsGatheredRows(const SplitAnalyses &A, const LoopPlan &Plan);
/// When the marked loop \p L, of a constant trip count M, inside a loop that
/// only re-runs it, would be a pipeline (\p PlanDry plans it without changing
/// the IR, true when it would be interleaved): makes the nest one loop of
/// N*M iterations, says so in a remark, and returns M (FlattenNest.cpp; 0:
/// the nest is left as it was, with a remark saying why).
unsigned flattenNest(const SplitAnalyses &A, llvm::Loop &L, llvm::OptimizationRemarkEmitter &ORE,
                     llvm::function_ref<bool(LoopPlan &)> PlanDry);
/// Keeps fewer than \p Trips iterations of the flattened nest in flight, at
/// the plan's N and at any N chosen at run time (Plan.MaxInFlight).
void limitInFlightForNest(LoopPlan &Plan, unsigned Trips);
/// Makes the serial copy of a loop of one block \p Header whose exit test is
/// evaluated at launch (entered from \p Ph, counted by \p K up to \p Hi in
/// \p CountLatch, leaving to \p End) test its window's count once per block
/// of iterations (SerialBlocks.cpp).
void countSerialCopyPerBlock(llvm::BasicBlock *Ph, llvm::BasicBlock *Header, llvm::BasicBlock *CountLatch,
                             llvm::BasicBlock *End, llvm::PHINode *K, llvm::Value *Hi);
/// Makes the serial copy of a flattened loop of \p Trips iterations per
/// round (Adaptation.cpp's, entered from \p Ph, iterations \p Lo to \p Hi,
/// leaving to \p End) a loop over rounds around one over the round's part.
void nestSerialCopy(llvm::BasicBlock *Ph, llvm::BasicBlock *Header, llvm::BasicBlock *Latch, llvm::BasicBlock *End,
                    llvm::Value *Lo, llvm::Value *Hi, unsigned Trips);
/// The cost model (SplitCost.cpp): takes out of \p Candidates the accesses
/// whose latency the hardware hides, recording each in Plan.NotWorth; when
/// none is left, the reason the loop stays serial.
std::optional<SerialReason> applyCostModel(const SplitAnalyses &A, LoopPlan &Plan,
                                           llvm::SmallPtrSetImpl<llvm::Instruction *> &Candidates);
/// Whether the cost model judges \p L: it is on, and the pragma does not insist.
bool costModelApplies(const llvm::Loop &L);
/// The prefetch-ahead code generator (PrefetchAhead.cpp). Given the plan and
/// why it would stay serial (\p Why), whether the loop is better kept in
/// serial order with prefetches ahead (an ordered loop waiting for turns, or
/// one whose inner loads the core overlaps); if so, fills Plan.PrefetchAhead.
bool choosePrefetchAhead(const SplitAnalyses &A, LoopPlan &Plan, const std::optional<SerialReason> &Why);
/// OverlappedGathers.cpp: whether the planned loop's iterations are short,
/// independent gathers from affine sequences (`y[row[k]] += v[k] * x[col[k]]`)
/// that the core already overlaps serially, better prefetched ahead than
/// interleaved.
bool overlapsGathers(const SplitAnalyses &A, const LoopPlan &Plan);
/// GuardedBound.cpp: when the only writes of \p Inner (an inner loop of a
/// loop kept in serial order) that may change its bound are claims guarded by
/// a test of the value they overwrite (bfs: `if (parent[v] < 0) parent[v] =
/// u` against `offsets[u + 1]`), versions it on a run-time check that no
/// claim can: \p Inner then reads its bound once (a trip count), its copy as
/// written runs otherwise. Returns whether it did.
bool versionGuardedBound(const SplitAnalyses &A, llvm::Loop &Inner, llvm::OptimizationRemarkEmitter &ORE);
/// Inserts the planned prefetches, and says so in a remark.
void emitPrefetchAhead(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// The prefetches, for print<memcoro-plan>.
void printPrefetchAhead(const LoopPlan &Plan, llvm::raw_ostream &OS);
/// Whether the loop's last iteration is known before it starts, through its
/// only exit (PrefetchAhead.cpp).
bool tripCountKnownAhead(const SplitAnalyses &A, llvm::Loop &Level);
/// Inserts at \p B a copy of \p I, one of the instructions that compute an
/// address ahead of the loop, with its operands mapped by \p Map and named
/// with \p Suffix (PrefetchAhead.cpp; PrefetchEdges.cpp too).
llvm::Instruction *cloneForReadAhead(llvm::IRBuilder<> &B, llvm::Instruction &I,
                                     llvm::function_ref<llvm::Value *(llvm::Value *)> Map, llvm::StringRef Suffix);
/// Marks \p I, a load the serial loop does not make (a read ahead of the
/// loop's own), as no sanitizer's business.
void markReadAhead(llvm::Instruction &I);
/// Whether \p Ptr points into the slots' private stack copies (Plan's
/// PrivateAllocas) on every way it may be computed: an inlined insertion sort
/// walks a local array through phis of its elements' addresses.
bool inPrivateAlloca(const LoopPlan &Plan, llvm::Value *Ptr);
/// PrefetchEdges.cpp: whether an inner loop the core overlaps walks rows of
/// one stream that can be prefetched ahead across rows; if so, fills Plan.Edges.
bool planPrefetchEdges(const SplitAnalyses &A, LoopPlan &Plan);
void emitPrefetchEdges(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
void printPrefetchEdges(const EdgePrefetch &E, llvm::raw_ostream &OS);
/// OutlineSerialCopy.cpp: marks \p Entry as where an adapting loop's serial
/// copy (or a switched loop's copy) begins; outlineSerialCopies then moves
/// every marked copy of \p F into a function of its own, named with the
/// function's name and \p Suffix. Returns whether it moved one.
void markSerialCopyEntry(llvm::BasicBlock &Entry, llvm::StringRef Suffix = "memcoro.serial");
bool outlineSerialCopies(llvm::Function &F);
/// PrefetchAhead.cpp: prefetches ahead, in \p L (an unmarked loop: an
/// adapting loop's serial copy), the accesses of \p Remote whose addresses
/// come from an affine sequence. Returns whether there was one.
bool prefetchAheadInOrder(const SplitAnalyses &A, llvm::Loop &L, llvm::ArrayRef<llvm::Instruction *> Remote,
                          llvm::OptimizationRemarkEmitter &ORE);
/// PrefetchSerialCopy.cpp: marks the serial copy an adapting loop keeps
/// (its header, and the copies of its remote accesses \p Remote) for
/// prefetchSerialCopies, which prefetches every marked copy of \p F ahead
/// once all its loops are done. Returns whether it changed \p F.
void markSerialCopyForPrefetch(llvm::BasicBlock &Header, llvm::ArrayRef<llvm::Instruction *> Remote);
bool prefetchSerialCopies(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
/// PrefetchSwitch.cpp: whether \p L can be kept twice and switched: one
/// preheader, one latch, and one exit block that only the loop reaches.
bool hasSwitchableShape(const llvm::Loop &L);
/// PrefetchSwitch.cpp: emitPrefetchAhead, and under run-time adaptation
/// (\p Adapting) a copy of the loop as written beside it, the two switched
/// between windows of iterations by the measured cycles.
void emitPrefetchSwitch(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE,
                        bool Adapting);
/// One -Rpass-analysis=memcoro remark per access the cost model left without
/// a suspension.
void emitCostRemarks(const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// Under -memcoro-profile-use (split/SplitProfile.cpp), after the cost
/// model: removes from \p Candidates the accesses the profile says miss too
/// rarely to pay for a switch, adds back those the model guessed were cached
/// and the profile says miss, records each verdict in Plan.Profiled, and
/// keeps the loop serial when none is left. An unreadable, garbage or mismatched profile is a
/// warning, and the static choice stands.
std::optional<SerialReason> applyProfile(const SplitAnalyses &A, LoopPlan &Plan,
                                         llvm::SmallPtrSetImpl<llvm::Instruction *> &Candidates);
/// One remark per verdict of Plan.Profiled, at its access.
void emitProfileRemarks(const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// The verdicts, for print<memcoro-plan>.
void printProfileVerdicts(const LoopPlan &Plan, llvm::raw_ostream &OS);
/// Under -memcoro-amu, marks the plan's far accesses as AMU requests
/// (split/AmuRequests.cpp); otherwise leaves the plan alone.
void chooseAmuScheduler(LoopPlan &Plan);
/// Once the ordered points are known: the dispatch -memcoro-scheduler names,
/// except that a loop with code in iteration order keeps the static
/// scheduler's ring or lockstep (the completion-order schedulers have no
/// turns). True when that overrode the scheduler asked for.
bool chooseAmuDispatch(LoopPlan &Plan);
/// Under -memcoro-scavenge, records the bound in the plan unless the loop
/// runs through the AMU (ScavengeScheduler.cpp).
void chooseScavenging(LoopPlan &Plan);

/// Whether \p Phi is an append counter (`next[n++] = v`); if so, records it
/// in \p Plan (SplitOrdered.cpp).
bool recogniseAppendCounter(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);

/// Whether \p Phi is a buffer's counter or bump pointer kept in a register
/// (`lq.push_back(v)` with the buffer inlined, a flush resetting it to 0); if
/// so, records it in \p Plan as a buffered append counter and where it
/// starts to run in order (RegisterAppend.cpp).
bool recogniseRegisterAppend(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);
/// Whether \p Phi, carried in a register and never an address, is another
/// field of such a buffer (a local std::vector's capacity) whose first reads
/// all hold the turn of an append already recognised; if so, records it as a
/// buffered counter too (RegisterAppend.cpp).
bool recogniseAppendCompanion(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);
/// What recogniseRegisterValue looks for: an append's counter (a store's
/// address is computed from it), a companion of such a counter, or a value
/// carried only inside ordered regions.
enum class RegisterValue { Append, Companion, InOrderedRegion };
/// Whether \p Phi is a value kept in a register that runs in iteration order
/// from its first read on each path, of kind \p Kind; a companion or a
/// value in a region must be read first only where \p TurnHeld says the
/// iteration holds its turn already. If so, records it in \p Plan as a
/// buffered counter, kept in one shared scalar (RegisterAppend.cpp).
bool recogniseRegisterValue(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi, RegisterValue Kind,
                            llvm::function_ref<bool(llvm::Instruction *)> TurnHeld);
/// Whether \p Phi is a value carried from one iteration to the next that
/// ordered regions alone read and assign (`oh = oh * 1000003 + v` under
/// `#pragma memcoro ordered`); if so, records it as such a counter
/// (OrderedValues.cpp).
bool recogniseOrderedValue(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);
/// For the missed remark of such a value \p Phi that is not one: where it is
/// read or assigned outside the loop's ordered regions, or "" when the loop
/// has none or that is not why (OrderedValues.cpp).
std::string orderedValueHint(const SplitAnalyses &A, const llvm::Loop &L, llvm::PHINode &Phi);
/// In a loop that takes a lock: an append in iteration order after a lock
/// (a bucket's overflow under its latch) takes its turn before the first
/// lock on the way, so that no iteration waits for its turn holding a lock
/// an older one needs; the reason the loop stays serial when there is no
/// such place (TurnBeforeLocks.cpp).
std::optional<SerialReason> takeTurnBeforeLocks(const SplitAnalyses &A, LoopPlan &Plan);
/// The same rule for every other ordered point, once the ring's turns are
/// planned: a region, a first-writer-wins test, input or output behind a
/// lock get OrderedPoint::WaitAt (TurnBeforeLocks.cpp).
std::optional<SerialReason> takeOrderedTurnsBeforeLocks(const SplitAnalyses &A, LoopPlan &Plan);
/// Each of \p Users reads \p C's value from its shared scalar \p Slot just
/// before it: the operands \p FromCounter picks become that load, which
/// \p ReadAt receives (SplitOrdered.cpp).
void readSharedCounter(const AppendCounter &C, llvm::AllocaInst *Slot, llvm::ArrayRef<llvm::Instruction *> Users,
                       llvm::function_ref<bool(llvm::Value *)> FromCounter,
                       llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> &ReadAt);
/// The lowering's, for such a counter \p C: each read takes the value from
/// the shared scalar \p Slot, each assignment stores it there; \p ReadAt
/// receives each read's load.
void demoteRegisterAppend(const llvm::Loop &L, const AppendCounter &C, llvm::AllocaInst *Slot,
                          llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> &ReadAt);
/// Whether the loop body can go from just after \p From to just before \p To
/// without passing \p Kill and without going round the back edge; where a
/// use uses its value: before its user, or at a phi's incoming block's end
/// (SplitOrdered.cpp).
bool reachesInIteration(const llvm::Loop &L, llvm::Instruction *From, llvm::Instruction *To, llvm::Instruction *Kill);
llvm::Instruction *usePosition(llvm::Use &U);
/// Sorts a counter's closure by block name and position, so that the plan's
/// order does not depend on where instructions sit in memory.
void sortClosure(llvm::SmallVectorImpl<llvm::Instruction *> &Closure);

/// The back-edge count of a loop whose latch leaves when a pointer or integer
/// stepped by a positive constant equals a loop invariant (an iterator loop,
/// a range-for), taking the test to reach its bound exactly, as OpenMP takes
/// a canonical loop's; null for another test (IteratorTripCount.cpp).
const llvm::SCEV *iteratorBackedgeTakenCount(llvm::ScalarEvolution &SE, const llvm::Loop &L,
                                             llvm::BasicBlock *Latch);

/// Records in \p Plan the appends through a counter in memory: a location the
/// loop does not move, read for the address of a store and written back
/// (BufferAppend.cpp).
void recogniseBufferAppends(const SplitAnalyses &A, LoopPlan &Plan);
/// Records in \p Plan the appends through a cursor array (`out[dst[idx]++] =
/// t`): a counter at a data-dependent address, incremented, whose old value is
/// used besides; from its read on, the iteration runs in order (CursorAppend.cpp).
void recogniseCursorAppends(const SplitAnalyses &A, LoopPlan &Plan);
/// Whether \p Counter's value reaches the address of a store of \p L other
/// than one into \p Cell (none: null), or a copy's destination.
bool indexesStore(const llvm::Loop &L, llvm::Instruction *Counter, llvm::Value *Cell, const llvm::DataLayout &DL);
/// Whether \p Phi carries a value loaded from one place to uses in such
/// ordered code; if so, records it for reloadForwardedLoads.
bool recogniseForwardedLoad(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);
/// Whether \p Phi hands a load to the next iteration that each iteration can
/// read again for itself; if so, records it in \p Plan (CarriedLoad.cpp).
bool recogniseCarriedLoad(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);
/// The lowering's first step: each such phi becomes a load in the header.
void readCarriedLoadsAgain(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// The lowering's: a prefetch ahead of each affine stream of the marked loop
/// that takes a cache line or more per iteration (StreamPrefetch.cpp).
void prefetchWideStreams(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// The lowering's: each use of such a phi reads its place again; returns,
/// for each user, the first load in front of it (where a wait must go).
llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> reloadForwardedLoads(const LoopPlan &Plan);
/// The phis of the loop that \p Phi's value moves through: those it merges
/// and those that merge it (BufferAppend.cpp).
llvm::SmallVector<llvm::PHINode *, 4> phiWeb(const llvm::Loop &L, llvm::PHINode *Phi);

/// Whether \p R's one store of its total, made on some paths only (an
/// OpenMP reduction's private copy updated under a condition), leaves the
/// place holding the total wherever the loop is (ReductionMirrors.cpp).
bool conditionalMirrorKeepsTotal(const SplitAnalyses &A, const llvm::Loop &L, const Reduction &R);

/// Computes each minimum or maximum kept behind a branch (`if (v > mx) mx =
/// v`, stored to an OpenMP reduction's slot on the taken path) with an
/// intrinsic the phi merges; whether any was (BranchMinMax.cpp).
bool computeBranchMinMax(llvm::Loop &L, llvm::ScalarEvolution &SE);

/// Whether each branch on \p Cmp only decides whether \p R's mirror is
/// stored: it skips a block holding nothing but mirrors, after which every
/// phi is \p R's (BranchMinMax.cpp).
bool guardsOnlyMirrors(const llvm::CmpInst &Cmp, const Reduction &R,
                       llvm::function_ref<bool(const llvm::Value *)> InReduction);

/// maxnum or minnum when \p Sel keeps the larger or the smaller of a value
/// \p InReduction holds and one it does not, by comparing the two, takes no
/// NaN, and the order in which such selects run does not matter (signed
/// zeros aside, or \p AnyOrder, a reduction clause's permission)
/// (BranchMinMax.cpp); not_intrinsic otherwise.
llvm::Intrinsic::ID floatMinMaxOf(const llvm::SelectInst &Sel,
                                  llvm::function_ref<bool(const llvm::Value *)> InReduction, bool AnyOrder);

/// Merges header phis that carry the same value as another header phi (an
/// OpenMP reduction's private copy promoted twice), with their inner phis;
/// whether any was merged (CongruentPhis.cpp).
bool mergeCongruentPhis(llvm::Loop &L, const LoopPlan &Plan, llvm::ScalarEvolution &SE);

/// Whether header phi \p Phi is a flag the iterations only set, to one
/// constant (`changed = true`); if so, fills in \p R as a reduction by & or
/// | (FlagReductions.cpp).
bool recogniseFlag(const llvm::Loop &L, llvm::PHINode *Phi, Reduction &R);

/// A bound GVN re-reads after a write (ReloadedBound.cpp). Whether no value
/// of \p Phi's web is used but by the web.
bool isDeadPhiWeb(const llvm::Loop &L, llvm::PHINode *Phi);
/// The lowering's: drops the header phis whose web is dead.
void dropDeadPhiWebs(llvm::Loop &L);
/// When \p Bound, an operand of the exit test, merges reloads of one
/// loop-invariant place (the bound re-read after a write that may alias it),
/// the value it enters the loop with; null otherwise. \p Reload, if given,
/// receives one of the reloads.
llvm::Value *boundEnteringLoop(const llvm::Loop &L, llvm::Value *Bound, const llvm::DataLayout &DL,
                               llvm::LoadInst **Reload = nullptr);
/// Whether \p I runs after the first read of such a counter, in iteration
/// order (a buffer's flush call runs in place there).
bool runsAfterBufferAppend(const LoopPlan &Plan, const llvm::DominatorTree &DT, const llvm::Instruction *I);


/// Collects what must run in iteration order (ordered regions, appends,
/// first-writer-wins tests) and whether the dispatch keeps that order by
/// itself; lockstep does when all of it lies in one phase, otherwise the loop
/// runs on the ring and waits for turns (SplitOrdered.cpp).
std::optional<SerialReason> planOrdered(const SplitAnalyses &A, LoopPlan &Plan);
/// A store through an append counter's index, or through the pointer a
/// buffer keeps in a register (a vector's end), goes to the next element of a
/// sequentially filled array: the hardware prefetcher's case, not worth a
/// yield (the remote-access analysis saw only an index that is not affine).
/// Dropped before legality looks for yields between a read and its write,
/// which such a yield would only seem to split; one coalesced with other
/// accesses leaves their suspension (SplitOrdered.cpp).
void dropAppendSuspensions(LoopPlan &Plan);

/// A call of the loop that may access memory and was not inlined: recorded in
/// Plan.CallsInPlace to run in place, or why it keeps the loop serial
/// (input/output, the C library's hidden state, may throw, returns twice;
/// CallsInPlace.cpp).
std::optional<SerialReason> acceptCallInPlace(LoopPlan &Plan, llvm::CallBase &Call);
/// Once suspensions are planned: none may follow a call that may take a lock
/// in the same iteration. One in the lock's block moves in front of it, others
/// are dropped; a loop left with none stays serial.
std::optional<SerialReason> placeSuspensionsOutsideLocks(const SplitAnalyses &A, LoopPlan &Plan);
/// Input or output of the C library: it runs in place, in iteration order
/// (CallsInPlace.cpp, SplitOrdered.cpp).
bool isInputOutputCall(const llvm::CallBase &Call);
/// Input/output, the C library's hidden state, or a lock (CallsInPlace.cpp).
bool isKnownLibraryCall(const llvm::CallBase &Call);
/// A call that may take a lock (inline asm with side effects, pthread and
/// OpenMP locks); and whether \p I, a volatile store of a constant to a word
/// such inline asm of \p L takes (`*latch = 0` after an xchg spin lock),
/// releases that lock: part of the lock, not an access whose order matters.
bool takesLock(const llvm::CallBase &Call);
/// Where an iteration can stop before every lock of \p Before (calls of \p L
/// that may run before some point): the lock that dominates the others, or
/// the end of the preheader of the spin loop that takes it; null if none.
llvm::Instruction *beforeLocks(const SplitAnalyses &A, const llvm::Loop &L,
                               llvm::ArrayRef<llvm::Instruction *> Before);
/// The locks the loop's iterations take: calls that take a lock, and the
/// compare-and-swap or exchange a spin loop repeats until it succeeds.
llvm::SmallVector<llvm::Instruction *, 2> locksTaken(const SplitAnalyses &A, const LoopPlan &Plan);
/// "the call to 'f'", "the compare-and-swap at f.c:3:5", for remarks.
std::string lockName(const llvm::Instruction &Lock);
bool releasesLock(const llvm::Loop &L, const llvm::Instruction &I);
/// 'name', "inline asm" or "a function pointer", for remarks.
std::string calleeName(const llvm::CallBase &Call);
/// "the calls to 'f' and 'g' run in place, ...", for the Transformed remark;
/// empty when the only such calls do input or output.
std::string callsInPlaceSummary(const LoopPlan &Plan);

/// Whether the iteration may yield after \p Early and before \p Late (which
/// \p Early dominates), at a suspension point of \p Plan other than \p Ignore.
bool suspendsBetween(const LoopPlan &Plan, const llvm::LoopInfo &LI, llvm::Instruction *Early,
                     llvm::Instruction *Late, const llvm::Instruction *Ignore);

/// Whether \p S stores back into what \p L loaded a commutative update of it
/// that nothing else reads: h[k] += v (also - * & | ^, FP + * with
/// reassociation), a min/max, or the keep-the-smaller test if (t < a[x])
/// a[x] = t, as a branch or a select. Two iterations applying updates of one
/// kind to a location in either order leave the same value. Returns the kind
/// (an opcode, or OtherOpsEnd + the min/max intrinsic), or 0.
unsigned commutativeUpdateKind(const llvm::LoadInst &L, const llvm::StoreInst &S);
/// Whether the block of \p S writes memory besides \p S: behind a
/// keep-the-smaller test, another write (an argmin's index) makes the update
/// depend on which iteration wins among equal values.
bool writesBesideStore(const llvm::StoreInst &S);

/// "file:line:col" of \p I, for remarks that name a second place.
std::string sourcePlace(const llvm::Instruction &I);
/// \p Loc, or, for code inlined from a library's header (the C++ standard
/// library's `*it`, `v[i]`), the user's statement it was inlined into.
llvm::DebugLoc userPlace(const llvm::DebugLoc &Loc);
/// "'a[...]'", "'g.offsets[...]'": the array \p Access reads or writes, as
/// debug info names it; empty when it does not.
std::string accessedArrayName(llvm::Instruction &Access);
/// "the load of 'a[...]' at f.c:3:9" ("the load at f.c:3:9" without a name).
std::string accessPlace(llvm::Instruction &Access);

/// The first instruction of \p L that alias analysis says may write \p Loc,
/// other than those \p Excused (writes the pragma's contract covers), or
/// null: the loop leaves what a load outside the body's order (at launch, one
/// iteration early, or read ahead) reads as it was.
llvm::Instruction *firstWriterIn(llvm::AAResults &AA, const llvm::Loop &L, const llvm::MemoryLocation &Loc,
                                 llvm::function_ref<bool(const llvm::Instruction &)> Excused = nullptr);
inline llvm::Instruction *firstWriterIn(const SplitAnalyses &A, const llvm::Loop &L, const llvm::MemoryLocation &Loc,
                                        llvm::function_ref<bool(const llvm::Instruction &)> Excused = nullptr) {
  return firstWriterIn(A.AA, L, Loc, Excused);
}

/// The name of the source variable \p V holds, when debug info says; empty
/// otherwise (the IR's own names are gone in a release clang's output).
llvm::StringRef sourceVariableName(llvm::Value &V);

/// Where a remark about \p I goes: its own line, or the loop's when it has
/// none (code LLVM made up, such as a merged load, has line 0; a remark there
/// would point at the function's first line).
llvm::DebugLoc remarkLocation(const llvm::Instruction *I, const llvm::Loop &L);

/// The constant amount by which \p V moves on each trip of \p L, when its
/// value is an affine recurrence of that loop itself (a stream's address, an
/// induction); none otherwise.
std::optional<llvm::APInt> constantStepIn(llvm::ScalarEvolution &SE, const llvm::Loop &L, llvm::Value *V);

/// Whether \p Load reads an element no other iteration of \p L touches: its
/// address moves by at least the element's size on each trip (GAP's
/// `parent[u]` for the loop's own counter u).
bool isIterationsOwnElement(const SplitAnalyses &A, const llvm::Loop &L, const llvm::LoadInst &Load);

/// How many bytes \p B lies after \p A, when both are constant offsets from
/// one base pointer.
std::optional<int64_t> byteDistance(const llvm::Value *A, const llvm::Value *B, const llvm::DataLayout &DL);

/// A pointer as a base and the constant byte offsets it may have from it
/// (one, or the choices of a select: `n + (k < key ? 24 : 16)`).
struct FieldOffsets {
  llvm::Value *Base = nullptr;
  llvm::SmallVector<int64_t, 2> Offsets;
};
FieldOffsets fieldOffsets(llvm::Value *Ptr, const llvm::DataLayout &DL);
/// Whether every byte \p Late may point at lies within a cache line of what
/// \p Early points at (split/FetchedLines.cpp): fields of one record, its
/// arrays, or a field chosen by a select of offsets. One cache line unless
/// the object straddles two, so an access through \p Early fetched it.
bool sameLine(llvm::Value *Late, llvm::Value *Early, const llvm::DataLayout &DL);

/// An access that brought in a line, and a field \p Offset bytes from its
/// address that a later access reads without a suspension of its own.
struct FetchedField {
  llvm::Instruction *By;
  int64_t Offset;
};
/// Notes in \p Extra the fields of \p Late that lie in another granule than
/// \p Early's (the object's known alignment, at most 16 bytes: they may be on
/// another line), for \p Early's suspension to prefetch.
void noteOtherGranules(const FieldOffsets &Late, llvm::Instruction *Early, const llvm::DataLayout &DL,
                       llvm::SmallVectorImpl<FetchedField> &Extra);
/// The saved values of one iteration that a resume can compute again from
/// the iteration number \p Iteration (FromIteration.cpp), with every
/// instruction that does so; \p SavedAt gives the suspensions each crosses,
/// \p Posts[J] is where suspension J resumes.
llvm::SmallPtrSet<llvm::Instruction *, 16>
recomputableFromIteration(const SplitAnalyses &A, const LoopPlan &Plan,
                          const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &Region,
                          llvm::ArrayRef<llvm::BasicBlock *> Posts, llvm::Value *Iteration,
                          llvm::ArrayRef<llvm::Instruction *> Saved,
                          llvm::function_ref<llvm::ArrayRef<unsigned>(llvm::Instruction *)> SavedAt);

/// Whether \p A and \p B are fields of one base in one granule (a block of
/// the object's known alignment, at most 16 bytes: one line), so that one
/// prefetch brings in both.
bool withinOneGranule(llvm::Value *A, llvm::Value *B, const llvm::DataLayout &DL);
/// Whether every node \p Late may access through a phi or select was accessed
/// earlier in the iteration, within a line of the same field (a container's
/// walk: FetchedLines.cpp); \p Extra receives the fields whose lines those
/// earlier accesses should prefetch as well.
bool fetchedEarlierInIteration(const SplitAnalyses &A, const LoopPlan &Plan, llvm::Instruction *Late,
                               llvm::SmallVectorImpl<FetchedField> &Extra);

/// \p Total combined with \p Part by \p R's operation (SplitFrame.cpp).
llvm::Value *emitReductionFold(llvm::IRBuilder<> &B, const Reduction &R, llvm::Value *Total, llvm::Value *Part);

/// What a slot holds (SplitFrame.cpp): the values of an iteration that live
/// across a suspension, stored in its slot or recomputed on resume; the
/// slot's private copies of the iteration's stack memory; the slot layout.
class CoroutineFrame {
public:
  CoroutineFrame(const SplitAnalyses &A, const LoopPlan &Plan) : A(A), Plan(Plan) {}

  /// Gives each slot its own copy of the iteration's stack objects, addressed
  /// from \p SlotIndex at iter.start (\p B).
  void privatizeStackMemory(llvm::IRBuilder<> &B, llvm::AllocaInst *SlotIndex);
  /// Records the values defined in the loop's inner loops, which have several
  /// instances per iteration; call while LoopInfo still describes the loop.
  void recordInnerLoopValues();
  /// Lets a suspension fold a reduction's running part into its accumulator
  /// instead of saving it (\p Accumulators[R] for Plan.Reductions[R]); call
  /// before the reductions' phis are replaced by their identity.
  void foldPartialsInto(llvm::ArrayRef<llvm::AllocaInst *> Accumulators);
  /// Decides what each suspension saves: the iteration is the blocks from
  /// \p IterStart up to \p IterEnd, suspension J resumes in \p Posts[J].
  void computeSavedValues(llvm::BasicBlock *IterStart, llvm::BasicBlock *IterEnd,
                          llvm::ArrayRef<llvm::BasicBlock *> Posts);
  /// Lays the slot out: the scheduler's \p HeaderFields, then one field per
  /// stored value; the slot array is an alloca of N slots in the entry block.
  void layOutSlots(llvm::ArrayRef<llvm::Type *> HeaderFields);
  /// The bytes of a slot's fields (the slot may be padded beyond them).
  unsigned contextBytes() const { return ContextBytes; }
  /// Slots in the array when it is not the plan's N (run-time N sizes it for
  /// the most slots it may use).
  void setSlotCount(unsigned N) { SlotCount = N; }
  /// Slots in the array: every per-slot array (the slot array, the private
  /// copies of stack objects) has this many entries.
  unsigned slotArrayLength() const { return SlotCount ? SlotCount : Plan.slotCount(); }
  llvm::Value *fieldPtr(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned Field) const;
  llvm::Value *savedFieldPtr(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned Stored) const {
    return fieldPtr(B, Slot, Stored + HeaderFieldCount);
  }
  /// At suspension \p J, before yielding: stores the values defined in inner
  /// loops (the others are stored once, at their definition).
  void emitSaves(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J);
  /// The iteration number launch gives iter.start, and whether the
  /// scheduler knows it again at every resume (emitRestores' \p Iteration):
  /// then values computed from it are recomputed, not saved (FromIteration.cpp).
  void setIteration(llvm::Value *K, bool KnownAtResume) {
    Iteration = K;
    IterationKnownAtResume = KnownAtResume;
  }
  /// At resume \p J: reloads what was saved and recomputes the rest;
  /// \p Iteration is the resumed iteration's number, when known.
  void emitRestores(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J, llvm::Value *Iteration = nullptr);
  /// Values with one instance per iteration are stored where they are defined.
  void emitOncePerIterationSaves(llvm::AllocaInst *SlotIndex);
  /// Rebuilds SSA form over the original definitions and the reloads in the
  /// resume blocks \p Resumes.
  void repairSSA(llvm::ArrayRef<llvm::BasicBlock *> Resumes);
  /// Drops the saves of values the slot still holds; after repairSSA.
  void dropPreservedSaves();

  llvm::StructType *slotType() const { return SlotTy; }
  llvm::AllocaInst *slots() const { return Slots; }
  unsigned savedCount() const { return Saved.size(); }
  bool inRegion(const llvm::BasicBlock *BB) const { return Region.contains(BB); }
  llvm::ArrayRef<llvm::BasicBlock *> regionBlocks() const { return RegionOrder; }

private:
  void chooseRematerialized();

  const SplitAnalyses &A;
  const LoopPlan &Plan;
  /// The blocks of one iteration, from iter.start to iter.end, and the same
  /// in the order they were found: slot fields and restores follow that
  /// order, so the output does not depend on where blocks sit in memory.
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> Region;
  llvm::SmallVector<llvm::BasicBlock *, 32> RegionOrder;
  /// Instructions inside the loop's inner loops: redefined within an iteration.
  llvm::SmallPtrSet<llvm::Instruction *, 32> InInnerLoop;
  /// Saved values, in slot-field order, and the suspensions each crosses.
  llvm::SetVector<llvm::Instruction *> Saved;
  llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<unsigned, 2>> SavedAt;
  /// Saved values that are stored in the slot (one field each), and those
  /// recomputed on resume from other saved values instead.
  llvm::SmallVector<llvm::Instruction *, 8> Stored;
  llvm::SmallPtrSet<llvm::Instruction *, 8> Rematerialized;
  /// Saved values recomputed from the iteration number, and the instructions
  /// that recompute them (FromIteration.cpp).
  llvm::Value *Iteration = nullptr;
  bool IterationKnownAtResume = false;
  llvm::SmallPtrSet<llvm::Instruction *, 16> FromIteration;
  llvm::DenseMap<std::pair<llvm::Instruction *, unsigned>, llvm::Instruction *> Restored;
  /// A reduction's running parts (the phis, selects and updates from its phi
  /// on) and the reduction each belongs to; those of them folded into the
  /// accumulator at the suspensions they cross instead of saved.
  llvm::DenseMap<llvm::Instruction *, unsigned> PartialOf;
  llvm::ArrayRef<llvm::AllocaInst *> Accumulators;
  llvm::SetVector<llvm::Instruction *> Folded;
  /// The stores that save a value at a suspension, with the slot field.
  llvm::SmallVector<std::pair<llvm::StoreInst *, unsigned>, 16> SaveStores;
  unsigned HeaderFieldCount = 0;
  unsigned ContextBytes = 0;
  unsigned SlotCount = 0;
  llvm::StructType *SlotTy = nullptr;
  llvm::ArrayType *SlotArrayTy = nullptr;
  llvm::AllocaInst *Slots = nullptr;
};

/// The blocks and values of the coroutine skeleton that the lowering builds
/// (SplitLowering.cpp) and every scheduler's code is written against.
struct Skeleton {
  Skeleton(llvm::Function &F, CoroutineFrame &Frame) : F(F), Ctx(F.getContext()), Frame(Frame) {}

  llvm::Function &F;
  llvm::LLVMContext &Ctx;
  CoroutineFrame &Frame;
  const LoopPlan *Plan = nullptr;
  /// Slots, and suspension points (phases 1..NumSuspensions; 0 launches).
  unsigned N = 0;
  unsigned NumSuspensions = 0;
  llvm::Value *TripCount = nullptr; ///< i64, computed in the preheader
  llvm::AllocaInst *SlotIndex = nullptr; ///< i64: the slot that runs now
  llvm::BasicBlock *Header = nullptr;
  llvm::BasicBlock *Sched = nullptr;     ///< switches on the resume state
  llvm::BasicBlock *Launch = nullptr;    ///< the slot takes iteration k
  llvm::BasicBlock *IterStart = nullptr; ///< induction variables at k
  llvm::BasicBlock *Next = nullptr;      ///< on to the next slot
  llvm::BasicBlock *Done = nullptr;      ///< every iteration has ended
  llvm::DebugLoc Loc;
  /// i64, the slots in use when run-time adaptation chooses them per window
  /// (Adaptation.cpp); null: all N.
  llvm::Value *ActiveN = nullptr;
  /// The slots in use: ActiveN, or the constant N.
  llvm::Value *activeSlots(llvm::IRBuilder<> &B) const { return ActiveN ? ActiveN : B.getInt64(N); }
};

/// One scheduler's code: how slots are launched, chosen and retired, and what
/// the dispatch switches on. The lowering calls these hooks in order while it
/// builds the skeleton; a new scheduler is a new implementation, in its own
/// file, not a branch in the lowering.
class SchedulerCodeGen {
public:
  explicit SchedulerCodeGen(Skeleton &S) : S(S) {}
  virtual ~SchedulerCodeGen();

  /// Entry-block allocas for the scheduler's state (promoted at the end).
  virtual void createState(llvm::IRBuilder<> &Entry) = 0;
  /// The state's initial values, in the preheader.
  virtual void initState(llvm::IRBuilder<> &Preheader) = 0;
  /// launch: the number k of the iteration the current slot starts; the
  /// block ends in a branch to iter.start (or retires the slot).
  virtual llvm::Value *emitLaunch(llvm::IRBuilder<> &B) = 0;
  /// iter.start, before the induction variables are set for \p K.
  virtual void emitIterationStart(llvm::IRBuilder<> &B, llvm::Value *K) {}
  /// Where a slot goes when its iteration has ended.
  virtual llvm::BasicBlock *afterIteration() = 0;
  /// Slot fields the scheduler keeps in front of the saved values.
  virtual void addHeaderFields(llvm::SmallVectorImpl<llvm::Type *> &Fields) {}
  /// Once the slot array exists, in the preheader.
  virtual void initSlots(llvm::IRBuilder<> &Preheader) {}
  /// sched: the phase to dispatch on for slot \p Slot (0 launches).
  virtual llvm::Value *emitResumeState(llvm::IRBuilder<> &B, llvm::Value *Slot) = 0;
  /// The scheduler's own blocks beyond launch, sched and next, once the slot
  /// layout and the dispatch switch exist.
  virtual void emitSchedulerBlocks() {}
  /// Before yielding at suspension \p S: start its accesses early. The
  /// static schedulers prefetch each address into the cache.
  virtual void emitEarlyAccess(llvm::IRBuilder<> &B, const Suspension &S);
  /// Before yielding at suspension \p J (counted from 0), after the saves.
  virtual void emitSuspend(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J) {}
  /// Where the iteration goes once it has yielded at suspension \p J: next,
  /// unless the scheduler knows what runs then without a dispatch.
  virtual llvm::BasicBlock *afterSuspend(unsigned J) { return S.Next; }
  /// resume.J, before the restores: make sure the access can be made (the
  /// AMU's static scheduler waits for the slot's request here).
  virtual void emitResume(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J) {}
  /// Whether the scheduler knows at every resume which iteration it resumes
  /// without reading the slot; then emitIterationAtResume gives, in
  /// resume.J, the number emitLaunch gave that iteration, and the frame
  /// recomputes values from it instead of saving them (FromIteration.cpp).
  virtual bool knowsIterationAtResume() const { return false; }
  virtual llvm::Value *emitIterationAtResume(llvm::IRBuilder<> &B, unsigned J) { return nullptr; }
  /// next: \p NextSlot is the slot index plus one; choose what runs next.
  virtual void emitNext(llvm::IRBuilder<> &B, llvm::Value *NextSlot) = 0;
  /// Once the skeleton is complete, while the scheduler state and the
  /// reductions still live in allocas: rewrites of the control flow that need
  /// no SSA repair (the pipeline's steady-state copy).
  virtual void beforePromotion() {}
  /// The allocas to promote to registers, in order.
  virtual void promotableState(llvm::SmallVectorImpl<llvm::AllocaInst *> &Allocas) = 0;
  /// i64: the slots not yet retired, or null when the scheduler does not
  /// count them (scavenger mode asks whether a slot runs alone).
  virtual llvm::Value *emitLiveSlots(llvm::IRBuilder<> &B) { return nullptr; }
  /// Once the skeleton is complete and its state promoted: last rewrites
  /// that must not disturb the frame (the AMU's helpers are inlined here).
  virtual void finishLowering() {}

protected:
  Skeleton &S;
};

/// What the general and the compact ring share (RingScheduler.cpp): a slot
/// whose iteration has ended launches the next one at once, or retires when
/// there is none left.
class RingLaunchCodeGen : public SchedulerCodeGen {
public:
  using SchedulerCodeGen::SchedulerCodeGen;
  void createState(llvm::IRBuilder<> &Entry) override;
  llvm::Value *emitLaunch(llvm::IRBuilder<> &B) override;
  void emitIterationStart(llvm::IRBuilder<> &B, llvm::Value *K) override;
  llvm::BasicBlock *afterIteration() override { return S.Launch; }
  /// Both rings count the slots that still hold an iteration.
  llvm::Value *emitLiveSlots(llvm::IRBuilder<> &B) override {
    return B.CreateLoad(B.getInt64Ty(), Live, "memcoro.live");
  }

protected:
  /// Whether the launch counter counts the launches left down (RingScheduler.cpp
  /// says why; the compact ring where the loop has no early exit) or the next
  /// iteration up (the general ring, the AMU's completion schedulers). The
  /// rings set it with initLaunches and test it with emitLaunchesLeft (i1).
  virtual bool countsDown() const { return false; }
  bool launchLimitIsFixed() const;
  void initLaunches(llvm::IRBuilder<> &B);
  llvm::Value *emitLaunchesLeft(llvm::IRBuilder<> &B);

  /// The launch counter (see countsDown), the slots not yet retired, and the
  /// block a slot goes to when no iteration is left (each ring's own).
  llvm::AllocaInst *NextIter = nullptr;
  llvm::AllocaInst *Live = nullptr;
  llvm::BasicBlock *Retire = nullptr;
};

/// Where an iteration may have to wait before it goes on (its turn at an
/// ordered point; the lock table's lock would be another): the lowering cuts
/// the body there. The iteration goes on at once when emitMayPass says so;
/// otherwise it saves what is live, yields in a wait state of its own, and on
/// every later visit tests again before restoring. The scheduler only sees
/// one more resume state. Ring dispatch only: lockstep has no per-slot state.
class WaitCodeGen {
public:
  explicit WaitCodeGen(Skeleton &S) : S(S) {}
  virtual ~WaitCodeGen();

  virtual void createState(llvm::IRBuilder<> &Entry) = 0;
  virtual void initState(llvm::IRBuilder<> &Preheader) = 0;
  /// Slot fields of its own, after the scheduler's.
  virtual void addHeaderFields(llvm::SmallVectorImpl<llvm::Type *> &Fields) {}
  /// iter.start, for iteration \p K in slot \p Slot, once the slots exist.
  virtual void emitIterationStart(llvm::IRBuilder<> &B, llvm::Value *Slot, llvm::Value *K) {}
  /// On arriving at wait point \p W, before the first test (the values of the
  /// iteration are still in registers there, not on later visits).
  virtual void emitArrive(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned W) {}
  /// Whether the iteration's end is a wait point too (the last one).
  virtual bool waitsAtIterationEnd() const { return false; }
  /// After the code that wait point \p W guards (a lock's store).
  virtual void emitLeave(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned W) {}
  /// i1: the iteration in slot \p Slot may go on past wait point \p W.
  virtual llvm::Value *emitMayPass(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned W) = 0;
  /// Right after the iteration went past wait point \p W.
  virtual void emitPassed(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned W) {}
  /// i1, or null for never: the iteration goes on at a suspension point
  /// without yielding (nothing else could run usefully meanwhile).
  virtual llvm::Value *emitSkipsSuspension(llvm::IRBuilder<> &B, llvm::Value *Slot) { return nullptr; }
  /// iter.end, after the last wait point.
  virtual void emitIterationEnd(llvm::IRBuilder<> &B, llvm::Value *Slot) {}
  virtual void promotableState(llvm::SmallVectorImpl<llvm::AllocaInst *> &Allocas) = 0;

protected:
  Skeleton &S;
};

/// The turn of CoroAMU's sequential category (SplitOrdered.cpp).
std::unique_ptr<WaitCodeGen> createTurnCodeGen(Skeleton &S);
/// The lock table of CoroAMU III-E for the plan's locked read-modify-writes
/// (LockTable.cpp).
std::unique_ptr<WaitCodeGen> createLockTableCodeGen(Skeleton &S, const LoopPlan &Plan);

/// A first-writer-wins point whose test may read before the iteration's turn
/// (the value stored fails the test, and the loaded value is used only by the
/// test and behind it); the lowering's emitTestBeforeTurn re-reads and tests
/// again behind it, and returns that re-read: where the iteration waits
/// (SpeculativeTest.cpp).
bool canTestBeforeTurn(const SplitAnalyses &A, const LoopPlan &Plan, const OrderedPoint &P);
llvm::Instruction *emitTestBeforeTurn(const SplitAnalyses &A, const LoopPlan &Plan, const OrderedPoint &P);

/// Applies each update of a location the marked loop \p L reads early and
/// stores late (`c = h[k]; ... c += v ...; h[k] = c`) to the location read
/// again at the store, the chain started from the operation's identity, when
/// nothing else in the loop may write the location (RebasedUpdates.cpp). Run
/// before the remote accesses are found; returns whether it changed the loop.
bool rebaseSpreadUpdates(llvm::Loop &L, llvm::AAResults &AA);

/// Gives the marked loop \p L the latch the plan reads its count off: a phi
/// of equal computations (each path's `v + 1`) becomes one, and a latch after
/// the exiting block whose instructions are safe to speculate is folded into
/// it (LatchShape.cpp). Run before legality; returns whether it changed the
/// loop.
bool shapeLatch(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
                llvm::AssumptionCache &AC);

/// Passes each value the marked loop \p L computes in its last iteration and
/// the code after it reads through a slot stored at the iteration's end in
/// iteration order (an ordered marker before the stores), for loops that
/// leave at the latch only (LastValues.cpp). Run before legality; returns
/// whether it changed the loop.
bool keepLastValuesInOrder(llvm::Loop &L, llvm::ScalarEvolution &SE);
/// On the ordered marker keepLastValuesInOrder adds: the names of the values,
/// for the remark.
inline constexpr llvm::StringLiteral LastValuesMD = "memcoro.last.values";

/// Rotates the marked loop \p L when it is a `while` search LoopRotate left
/// unrotated: its header exits on a counted test and its latch on the data
/// (RotatedSearch.cpp). The match becomes an early exit and the count moves
/// to the latch, the shape of the same search written as a `for`. Run before
/// legality; returns whether it changed the loop.
bool rotateWhileSearch(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
                       llvm::AssumptionCache &AC, const llvm::TargetTransformInfo &TTI,
                       const llvm::TargetLibraryInfo &TLI);

/// Makes each test of a value the marked loop \p L has just fetched that
/// guards loads of other fields of the same object branch-free: the loads
/// run before the test and the results are selected, marked unpredictable
/// (SpeculativeSelect.cpp). Run before legality; returns whether it changed
/// the loop.
bool speculateSiblingLoads(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT, llvm::AssumptionCache &AC,
                           llvm::OptimizationRemarkEmitter &ORE);

/// Turns each small constant-length memcpy/memmove in the marked loop \p L
/// (a struct copy) into loads of its chunks, then their stores, so that the
/// plan sees the copy's source and destination as accesses
/// (CopiesAsAccesses.cpp). Run before legality; returns whether it changed
/// the loop.
bool expandSmallCopies(llvm::Loop &L);
/// Turns each small constant-length bcmp, or memcmp tested only against zero,
/// into loads of both sides and an equality test, so that the plan sees the
/// compared records as accesses (ComparesAsAccesses.cpp). Run before
/// legality; returns whether it changed the loop.
bool expandSmallCompares(llvm::Loop &L);
/// The (offset, size) chunks \p Len bytes are read in: \p Widest bytes (a
/// power of two) while they last, then each smaller power of two once at most.
llvm::SmallVector<std::pair<uint64_t, unsigned>, 8> byteChunks(uint64_t Len, unsigned Widest);

/// Replaces the header phis of the marked loop \p L that merge reloads of one
/// place which only deallocations in the loop may write (ix.size() re-read
/// after a local vector's growth frees its old storage) by the value they
/// enter the loop with (FreedReloads.cpp). Run before legality; returns
/// whether it changed the loop.
bool forwardReloadsAcrossFrees(llvm::Loop &L, llvm::AAResults &AA, const llvm::TargetLibraryInfo &TLI);

/// Gives each store of a counter GVN carries through an inner loop (a
/// statistics counter bumped in a chain walk: read once, stepped through
/// phis, stored at each step) the value read again right before it, so that
/// each update is a commutative read-modify-write in one step
/// (ForwardedUpdates.cpp). Run before legality; returns whether it changed
/// the loop.
bool readForwardedUpdatesAgain(llvm::Loop &L);

/// Sends every way out of the marked loop \p L by unwinding (invokes to a
/// landing pad outside it, calls that may throw, made invokes) to one landing
/// pad that names the loop and calls std::terminate, OpenMP's rule for an
/// exception that leaves a worksharing loop (TerminateOnThrow.cpp). Run
/// before legality; only C++ functions; returns whether it changed the loop.
bool terminateEscapingExceptions(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT);
/// An invoke whose unwinding ends the program (terminateEscapingExceptions).
bool unwindEndsProgram(const llvm::Instruction &I);
/// A block that ends the program: a failed assert, abort(), a sanitizer's
/// fatal report, a throw that terminates. An edge to it leaves the loop only
/// in LoopInfo's eyes.
bool blockEndsProgram(const llvm::BasicBlock *BB);
/// Of those, a block that throws (at()'s report, a vector's length error)
/// into a landing pad that ends the program.
bool blockThrowsToTerminate(const llvm::BasicBlock *BB);

/// Runs the sanitizer checks of the marked loop \p L's invariants that split
/// its condition from its header once before the loop, and rotates it; steps
/// its counters checked for overflow without wrapping (SanitizerChecks.cpp).
/// Run before legality; returns whether it changed the loop.
bool hoistInvariantSanitizerChecks(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                                   llvm::ScalarEvolution &SE, llvm::AssumptionCache &AC,
                                   const llvm::TargetTransformInfo &TTI, const llvm::TargetLibraryInfo &TLI,
                                   llvm::OptimizationRemarkEmitter &ORE);

/// Whether \p I only passes a value to a sanitizer's report: the handler's
/// call, or a cast or LCSSA phi that only does (SanitizerChecks.cpp).
bool onlyReportedBySanitizer(const llvm::Instruction &I);
/// Whether \p I is the overflow flag of an update checked for overflow.
bool isOverflowFlag(const llvm::Instruction &I);
/// Instruction::Add or Mul for an addition or multiplication checked for
/// overflow (llvm.sadd/uadd/smul/umul.with.overflow), else 0.
unsigned checkedUpdateOpcode(const llvm::IntrinsicInst &II);

/// Replaces each append counter of \p Plan by loads and stores of one shared
/// scalar (returned, to be promoted); \p ReadAt receives, for each read or
/// increment, the load that now reads the counter in front of it.
llvm::SmallVector<llvm::AllocaInst *, 1>
demoteAppendCounters(const LoopPlan &Plan, llvm::IRBuilder<> &Entry, llvm::IRBuilder<> &Preheader,
                     llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> &ReadAt);

/// The ring; with one suspension point and nothing to wait for, the compact
/// ring (CompactRingScheduler.cpp): live slots packed, no resume state.
std::unique_ptr<SchedulerCodeGen> createRingScheduler(Skeleton &S);
bool ringCanBeCompact(const LoopPlan &Plan);
std::unique_ptr<SchedulerCodeGen> createCompactRingScheduler(Skeleton &S);
std::unique_ptr<SchedulerCodeGen> createLockstepScheduler(Skeleton &S);
/// The pipelined lockstep (PipelineScheduler.cpp): phase j of iteration k
/// runs beside phase 0 of iteration k + j * pipelineDistance.
std::unique_ptr<SchedulerCodeGen> createPipelineScheduler(Skeleton &S);
/// Steps between two phases of one iteration in the pipeline, and the slots
/// it needs, for \p Parallelism iterations in flight over \p Suspensions.
unsigned pipelineDistance(unsigned Parallelism, unsigned Suspensions);
unsigned pipelineSlots(unsigned Parallelism, unsigned Suspensions);
/// The AMU's code generators (AmuRequests.cpp, AmuGetfinScheduler.cpp, AmuBafinScheduler.cpp): the static scheduler is
/// \p Static (ring or lockstep) with its far accesses made as aload + wait.
std::unique_ptr<SchedulerCodeGen> createAmuStaticScheduler(Skeleton &S, std::unique_ptr<SchedulerCodeGen> Static);
std::unique_ptr<SchedulerCodeGen> createAmuGetfinScheduler(Skeleton &S);
std::unique_ptr<SchedulerCodeGen> createAmuBafinScheduler(Skeleton &S);
/// Scavenger mode (ScavengeScheduler.cpp): \p Static, whose suspensions with
/// no other iteration to run call memcoro_scavenge.
std::unique_ptr<SchedulerCodeGen> createScavengeScheduler(Skeleton &S, std::unique_ptr<SchedulerCodeGen> Static);

/// Under -memcoro-check (SplitCheck.cpp): reports every memory access of the
/// loop, with the iteration number \p K, to the checking runtime. Called by
/// the lowering at iter.start (\p IterStart), before the body is cut.
void instrumentForCheck(const SplitAnalyses &A, const LoopPlan &Plan, llvm::IRBuilder<> &IterStart,
                        llvm::Value *K);

/// An induction variable's start and step, expanded in the preheader.
struct InductionStart {
  llvm::PHINode *Phi;
  llvm::Value *Start;
  llvm::Value *Step;
};

/// Run-time adaptation (Adaptation.cpp): the loop runs in windows of
/// iterations, each serially (a copy of the loop as it was) or interleaved
/// with n coroutines, as the runtime's controller chooses from cycles
/// measured with the cycle counter. The lowering calls these in order.
class RunTimeAdaptation {
public:
  virtual ~RunTimeAdaptation();
  /// The slots to allocate: the most the controller may choose.
  virtual unsigned slotCount() const = 0;
  /// Builds the window loop after the preheader, where \p TripCount is
  /// computed; returns the window's trip count, for the scheduler.
  virtual llvm::Value *buildWindowLoop(llvm::Value *TripCount) = 0;
  /// Where the preheader goes, and where each window's scheduler state is
  /// initialised (before this instruction).
  virtual llvm::BasicBlock *entry() const = 0;
  virtual llvm::Instruction *windowInit() const = 0;
  /// i64: the first iteration of the window, and the slots it runs with
  /// (null: all of them).
  virtual llvm::Value *windowStart() const = 0;
  virtual llvm::Value *activeSlots() const = 0;
  /// Where the scheduler goes when the window's iterations have ended.
  virtual llvm::BasicBlock *windowEnd() const = 0;
  /// Starts the serial copy of a window at its first iteration, with the
  /// running reductions and append counters.
  virtual void connectSerialLoop(llvm::ArrayRef<InductionStart> IVs, llvm::ArrayRef<llvm::AllocaInst *> Accumulators,
                                 llvm::ArrayRef<llvm::AllocaInst *> Counters) = 0;
  /// An exit test at launch (LaunchExit.cpp): the serial copy starts from
  /// the values the launches carry (\p Cursors), leaves them for the next
  /// window, and lowers \p Limit when its test fails. Before
  /// connectSerialLoop.
  virtual void carryExitTest(llvm::ArrayRef<llvm::AllocaInst *> Cursors, llvm::AllocaInst *Limit) = 0;
  /// The last window goes to \p Done; a window starts at \p Sched.
  virtual void finish(llvm::BasicBlock *Sched, llvm::BasicBlock *Done) = 0;
};

/// Whether \p Plan's loop adapts at run time (-memcoro-adapt, -memcoro-adapt-n);
/// if so, copies the serial loop now, before the lowering changes it, and
/// says so in a remark. Null when it does not.
std::unique_ptr<RunTimeAdaptation> createRunTimeAdaptation(const SplitAnalyses &A, const LoopPlan &Plan,
                                                           llvm::OptimizationRemarkEmitter &ORE);
/// Whether loops adapt at run time (-memcoro-adapt, memcoro-cc's default).
bool adaptsAtRunTime();

/// Early exits (EarlyExits.cpp). Whether the loop's edges out other than the
/// latch's can be interleaved: nothing in the loop writes memory (iterations
/// after the exiting one must leave no visible effect); if so, records them
/// in Plan.EarlyExits. The reason it cannot, otherwise.
std::optional<SerialReason> recogniseEarlyExits(const SplitAnalyses &A, LoopPlan &Plan,
                                               llvm::ArrayRef<llvm::BasicBlock *> Exiting);
/// Whether \p Phi, outside the loop, takes \p V only on edges from early
/// exiting blocks (a reduction's running value live out through a break).
bool takenOnlyFromEarlyExits(const LoopPlan &Plan, const llvm::PHINode &Phi, const llvm::Value *V);
/// Whether the latch's exit test, without a trip count, can run at launch
/// (LaunchExit.cpp): it and the header phis it reads are computed from
/// inductions, themselves and loop invariants by loads and arithmetic that
/// every iteration runs, and no store of the loop may reach those loads. If
/// so, records it in \p Plan; otherwise the reason the loop stays serial.
std::optional<SerialReason> recogniseExitAtLaunch(const SplitAnalyses &A, LoopPlan &Plan);
/// At iter.start (\p B) of iteration \p K: the carried values from \p Cursors,
/// the test and the next iteration's values computed there, stored back; a
/// failed test limits launches to K + 1 (\p Limit).
void emitExitAtLaunch(const LoopPlan &Plan, llvm::IRBuilder<> &B, llvm::Value *K,
                      llvm::ArrayRef<llvm::AllocaInst *> Cursors, llvm::AllocaInst *Limit);

/// Once the dispatch is known: lockstep and the pipeline keep their dispatch
/// when every exit lies in the last phase (iterations end in iteration order
/// there), else the ring runs the loop; a ring with reductions ends its
/// iterations in turn, so that none after the exiting one folds its part.
void planEarlyExits(const SplitAnalyses &A, LoopPlan &Plan);

/// The lowering's side of early exits: every exit joins the iteration's end,
/// the lowest exiting iteration is recorded with the values it carries out,
/// later iterations' reduction parts are dropped, no iteration past it is
/// launched, and after the last slot the winning exit is taken.
class EarlyExitCodeGen {
public:
  virtual ~EarlyExitCodeGen();
  /// The state, and the limit on launches starting at \p TripCount.
  virtual void initState(llvm::IRBuilder<> &Entry, llvm::IRBuilder<> &Preheader, llvm::Value *TripCount) = 0;
  /// At iter.start of iteration \p K, before the header phis go: an exit
  /// test that runs at launch.
  virtual void startIteration(llvm::IRBuilder<> &B, llvm::Value *K) = 0;
  /// Once the latch branches to iter.end through \p ToIterEnd: the exits
  /// join it there, and record themselves for iteration \p K (a value of
  /// the iteration, defined at iter.start, so that the frame saves it).
  virtual void joinExits(llvm::Instruction *ToIterEnd, llvm::Value *K) = 0;
  /// What the iteration folds into reduction \p R at iter.end.
  virtual llvm::Value *contribution(llvm::IRBuilder<> &B, unsigned R) = 0;
  /// After the skeleton is built: done takes the winning exit, and launches
  /// (\p TripCount, and a window's \p WindowTrips from \p WindowStart when
  /// adapting) stop at the limit.
  virtual void finish(llvm::BasicBlock *Done, llvm::ArrayRef<llvm::AllocaInst *> Accumulators,
                      llvm::Value *TripCount, llvm::Value *WindowTrips, llvm::Value *WindowStart) = 0;
  virtual void promotableState(llvm::SmallVectorImpl<llvm::AllocaInst *> &Allocas) = 0;
  /// The values an exit test at launch carries from one launch to the next,
  /// and the limit on launches (initState makes them).
  virtual llvm::ArrayRef<llvm::AllocaInst *> launchCursors() const = 0;
  virtual llvm::AllocaInst *launchLimit() const = 0;
};
/// Null when the plan has no early exits; call before the lowering changes
/// the loop.
std::unique_ptr<EarlyExitCodeGen> createEarlyExitCodeGen(const SplitAnalyses &A, const LoopPlan &Plan);

/// What the lowering made of a loop, for the remark.
struct LoweredLoop {
  unsigned ContextBytes = 0; ///< bytes of one slot
  unsigned SavedValues = 0;
};

/// Carries out \p Plan (SplitLowering.cpp): the loop becomes Plan.Parallelism
/// interleaved coroutines driven by the plan's scheduler.
LoweredLoop lowerToCoroutines(const SplitAnalyses &A, const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);

} // namespace memcoro

#endif // MEMCORO_COMPILER_SPLIT_SPLITINTERNAL_H
