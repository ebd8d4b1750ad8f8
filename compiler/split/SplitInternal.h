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
//   split/SplitFrame.cpp    what a slot holds: saved, preserved and
//                           rematerialised values, private stack memory
//   split/SplitOrdered.cpp  what must run in iteration order (ordered
//                           regions, appends, first-writer-wins tests),
//                           and the turn an iteration waits for
//   split/SplitLowering.cpp the coroutine skeleton every scheduler shares
//   split/RingScheduler.cpp, split/LockstepScheduler.cpp,
//   split/Amu*Scheduler.cpp one code generator per scheduler, behind
//                           SchedulerCodeGen
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

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class AssumptionCache;
class DependenceInfo;
class DominatorTree;
class Loop;
class LoopInfo;
class OptimizationRemarkEmitter;
class SCEV;
class ScalarEvolution;
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
};

/// Remote accesses sharing one suspension: the first is where the iteration
/// yields; the others' addresses are ready by then and are prefetched with it.
struct Suspension {
  llvm::Instruction *At = nullptr;
  llvm::SmallVector<llvm::Instruction *, 2> Accesses;
  /// Addresses to prefetch, each with whether it will be written.
  llvm::SmallVector<std::pair<llvm::Value *, bool>, 2> Prefetch;
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
};

/// Code that must run in iteration order: iteration k may run it only after
/// every iteration before k has run its own (CoroAMU's sequential category).
struct OrderedPoint {
  enum Kind { Region, Append, FirstWriterWins };
  Kind What;
  /// The first instruction that needs the turn: a region's marker, the first
  /// read or increment of a counter in its block, the test's load.
  llvm::Instruction *At = nullptr;
  /// For the remark: the store of an append or of a test-and-set.
  llvm::Instruction *Store = nullptr;
};


/// Ring and lockstep reach far memory through the cache (prefetch, or under
/// -memcoro-amu an aload then a wait: the static scheduler); the AMU
/// schedulers resume whatever the software AMU reports done (Amu*.cpp).
enum class Dispatch { Ring, Lockstep, AmuGetfin, AmuBafin };
llvm::StringRef dispatchName(Dispatch D);

/// Two accesses of the loop, at least one a store, that may touch the same
/// memory in different iterations where the compiler cannot tell (indirect or
/// possibly aliasing addresses): the pragma asserts that they do not, and
/// -fmemcoro-check verifies it at run time.
struct AssumedIndependent {
  llvm::Instruction *Store;
  llvm::Instruction *Other;
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

/// Why a marked loop stays serial: what its missed remark says, and where.
struct SerialReason {
  const char *Tag;
  std::string Text;
  const llvm::Instruction *At = nullptr;
  /// A copy of a marked loop that loop versioning or unswitching made and that
  /// has no remote access: the cache-resident special case, worth no remark.
  bool Quiet = false;
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
  llvm::SmallVector<llvm::PHINode *, 4> Inductions;
  llvm::SmallVector<Reduction, 2> Reductions;
  /// A floating-point reduction is reassociated because an OpenMP reduction
  /// clause on the loop permits it, not the file's fast-math flags.
  bool ReassociatedByOpenMP = false;
  /// Values used after the loop that are affine in it: their exit value.
  llvm::SmallVector<std::pair<llvm::PHINode *, const llvm::SCEV *>, 2> ExitValues;
  /// Stack objects private to an iteration (declared in the loop body; LLVM
  /// hoisted them to the function entry): each slot gets its own copy.
  llvm::SmallVector<llvm::AllocaInst *, 2> PrivateAllocas;
  /// Pairs of accesses whose independence rests on the pragma alone.
  llvm::SmallVector<AssumedIndependent, 4> Assumed;
  /// Read-modify-writes split by a suspension that other iterations may also
  /// apply (commutative updates): each is kept atomic by the lock table
  /// (split/LockTable.cpp), the load waiting while another slot holds the
  /// address, the store releasing it.
  llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::StoreInst *>, 1> Locked;

  /// Append counters (legality recognises them, SplitOrdered.cpp).
  llvm::SmallVector<AppendCounter, 1> Counters;

  // What runs in iteration order (SplitOrdered.cpp).
  llvm::SmallVector<OrderedPoint, 2> Ordered;
  /// The dispatch cannot keep the order by itself (ring): an iteration waits
  /// for its turn at each ordered point and at its end.
  bool WaitsForTurn = false;

  // What to do with it (SplitPlan.cpp).
  llvm::SmallVector<Suspension, 4> Suspensions;
  llvm::SmallVector<Hoist, 4> Hoists;
  /// Remote accesses that need no suspension: an earlier access of the same
  /// phase already fetched their line.
  llvm::SmallVector<llvm::Instruction *, 2> Covered;
  /// Accesses that share another's suspension, and suspensions dropped because
  /// their line was fetched earlier in the same phase.
  unsigned Coalesced = 0;
  /// The profile's verdict on each candidate it has samples of
  /// (split/SplitProfile.cpp); a dropped candidate stays a plain access.
  llvm::SmallVector<ProfiledAccess, 2> Profiled;
  Dispatch Style = Dispatch::Ring;
  /// Far accesses are requests to the thread's software AMU (-memcoro-amu).
  bool ThroughAmu = false;

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
  std::optional<SerialReason> classifyHeaderPhis();
  bool recogniseReduction(llvm::PHINode *Phi, Reduction &R);
  bool openmpPermitsReassociation(unsigned Op) const;
  std::optional<SerialReason> checkCallsAndControlFlow();
  std::optional<SerialReason> checkLocalMemory();
  std::optional<SerialReason> checkLiveOuts();
  std::optional<SerialReason> checkUpdatesNotSplit();
  std::optional<SerialReason> checkMemoryDependences();
  bool updatesMayReach(llvm::Instruction *Store, llvm::function_ref<bool(unsigned Kind)> Counts);
  bool otherIterationsMayUpdate(llvm::Instruction *Store);
  bool onlyUpdatesOfItsKind(llvm::StoreInst *Store);
  SerialReason serial(const char *Tag, const llvm::Twine &Why, const llvm::Instruction *At = nullptr) const;

  const SplitAnalyses &A;
  LoopPlan &Plan;
  llvm::Loop &L;
  /// Set by recogniseReduction when only FP reassociation stands in the way.
  llvm::Instruction *FloatingPointOrderMatters = nullptr;
  /// The loads and stores of commutative updates of memory (h[k] += v), with
  /// their operation; set by checkMemoryDependences.
  llvm::DenseMap<const llvm::Instruction *, unsigned> CommutativeOp;
  /// A bound evaluated once: the copies in the preheader, and the exit test's
  /// operands they replaced.
  llvm::SmallVector<llvm::Instruction *, 4> BoundCopies;
  llvm::SmallVector<std::pair<llvm::Use *, llvm::Value *>, 2> BoundUses;
};

/// Chooses the suspension points of a legal loop, coalesces them, and picks
/// the dispatch style (SplitPlan.cpp). \p HasTwin: another copy of the same
/// marked loop exists in the function.
std::optional<SerialReason> planSuspensions(const SplitAnalyses &A, LoopPlan &Plan, bool HasTwin);
/// Under -memcoro-profile-use (split/SplitProfile.cpp): removes from
/// \p Candidates the accesses the profile says miss too rarely to pay for a
/// switch, records each verdict in Plan.Profiled, and keeps the loop serial
/// when none is left. An unreadable, garbage or mismatched profile is a
/// warning, and the static choice stands.
std::optional<SerialReason> applyProfile(const SplitAnalyses &A, LoopPlan &Plan,
                                         llvm::SmallPtrSetImpl<llvm::Instruction *> &Candidates);
/// One remark per verdict of Plan.Profiled, at its access.
void emitProfileRemarks(const LoopPlan &Plan, llvm::OptimizationRemarkEmitter &ORE);
/// The verdicts, for print<memcoro-plan>.
void printProfileVerdicts(const LoopPlan &Plan, llvm::raw_ostream &OS);
/// Under -memcoro-amu, the scheduler -memcoro-scheduler names
/// (split/AmuRequests.cpp); otherwise leaves the plan alone.
void chooseAmuScheduler(LoopPlan &Plan);

/// Whether \p Phi is an append counter (`next[n++] = v`); if so, records it
/// in \p Plan (SplitOrdered.cpp).
bool recogniseAppendCounter(const SplitAnalyses &A, LoopPlan &Plan, llvm::PHINode *Phi);

/// Collects what must run in iteration order (ordered regions, appends,
/// first-writer-wins tests) and whether the dispatch keeps that order by
/// itself; lockstep does when all of it lies in one phase, otherwise the loop
/// runs on the ring and waits for turns (SplitOrdered.cpp).
std::optional<SerialReason> planOrdered(const SplitAnalyses &A, LoopPlan &Plan);

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

/// "file:line:col" of \p I, for remarks that name a second place.
std::string sourcePlace(const llvm::Instruction &I);

/// Where a remark about \p I goes: its own line, or the loop's when it has
/// none (code LLVM made up, such as a merged load, has line 0; a remark there
/// would point at the function's first line).
llvm::DebugLoc remarkLocation(const llvm::Instruction *I, const llvm::Loop &L);

/// How many bytes \p B lies after \p A, when both are constant offsets from
/// one base pointer.
std::optional<int64_t> byteDistance(const llvm::Value *A, const llvm::Value *B, const llvm::DataLayout &DL);

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
  /// Decides what each suspension saves: the iteration is the blocks from
  /// \p IterStart up to \p IterEnd, suspension J resumes in \p Posts[J].
  void computeSavedValues(llvm::BasicBlock *IterStart, llvm::BasicBlock *IterEnd,
                          llvm::ArrayRef<llvm::BasicBlock *> Posts);
  /// Lays the slot out: the scheduler's \p HeaderFields, then one field per
  /// stored value; the slot array is an alloca of N slots in the entry block.
  void layOutSlots(llvm::ArrayRef<llvm::Type *> HeaderFields);
  llvm::Value *fieldPtr(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned Field) const;
  llvm::Value *savedFieldPtr(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned Stored) const {
    return fieldPtr(B, Slot, Stored + HeaderFieldCount);
  }
  /// At suspension \p J, before yielding: stores the values defined in inner
  /// loops (the others are stored once, at their definition).
  void emitSaves(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J);
  /// At resume \p J: reloads what was saved and recomputes the rest.
  void emitRestores(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J);
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
  llvm::DenseMap<std::pair<llvm::Instruction *, unsigned>, llvm::Instruction *> Restored;
  /// The stores that save a value at a suspension, with the slot field.
  llvm::SmallVector<std::pair<llvm::StoreInst *, unsigned>, 16> SaveStores;
  unsigned HeaderFieldCount = 0;
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
  /// resume.J, before the restores: make sure the access can be made (the
  /// AMU's static scheduler waits for the slot's request here).
  virtual void emitResume(llvm::IRBuilder<> &B, llvm::Value *Slot, unsigned J) {}
  /// next: \p NextSlot is the slot index plus one; choose what runs next.
  virtual void emitNext(llvm::IRBuilder<> &B, llvm::Value *NextSlot) = 0;
  /// The allocas to promote to registers, in order.
  virtual void promotableState(llvm::SmallVectorImpl<llvm::AllocaInst *> &Allocas) = 0;
  /// Once the skeleton is complete and its state promoted: last rewrites
  /// that must not disturb the frame (the AMU's helpers are inlined here).
  virtual void finishLowering() {}

protected:
  Skeleton &S;
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

/// Replaces each append counter of \p Plan by loads and stores of one shared
/// scalar (returned, to be promoted); \p ReadAt receives, for each read or
/// increment, the load that now reads the counter in front of it.
llvm::SmallVector<llvm::AllocaInst *, 1>
demoteAppendCounters(const LoopPlan &Plan, llvm::IRBuilder<> &Entry, llvm::IRBuilder<> &Preheader,
                     llvm::DenseMap<llvm::Instruction *, llvm::Instruction *> &ReadAt);

std::unique_ptr<SchedulerCodeGen> createRingScheduler(Skeleton &S);
std::unique_ptr<SchedulerCodeGen> createLockstepScheduler(Skeleton &S);
/// The AMU's code generators (AmuRequests.cpp, AmuGetfinScheduler.cpp, AmuBafinScheduler.cpp): the static scheduler is
/// \p Static (ring or lockstep) with its far accesses made as aload + wait.
std::unique_ptr<SchedulerCodeGen> createAmuStaticScheduler(Skeleton &S, std::unique_ptr<SchedulerCodeGen> Static);
std::unique_ptr<SchedulerCodeGen> createAmuGetfinScheduler(Skeleton &S);
std::unique_ptr<SchedulerCodeGen> createAmuBafinScheduler(Skeleton &S);

/// Under -memcoro-check (SplitCheck.cpp): reports every memory access of the
/// loop, with the iteration number \p K, to the checking runtime. Called by
/// the lowering at iter.start (\p IterStart), before the body is cut.
void instrumentForCheck(const SplitAnalyses &A, const LoopPlan &Plan, llvm::IRBuilder<> &IterStart,
                        llvm::Value *K);

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
