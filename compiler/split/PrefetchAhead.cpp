//===- PrefetchAhead.cpp - serial order, the misses prefetched ahead -------===//
//
// A code generator of memcoro-split that interleaves nothing: the marked loop
// keeps its order and its body, and each remote access whose address is
// computed from an affine sequence (`parent[adj[e]]`, `offsets[frontier[i]]`,
// `contrib[col[k]]`) gets a prefetch of the address the loop will compute D
// iterations later, read from the sequence D elements ahead: what users write
// by hand as a prefetch distance (bench/kernels/bfs.cpp, `bfs_pfd_level`).
//
// The planner (planLoop in Split.cpp) picks it over the coroutine plan where
// no coroutine schedule beats an ordered or overlapped loop (issues 11, 15, 17):
//   - the plan's iterations wait for turns at a first-writer-wins test (bfs's
//     claim and append): the turn holds every slot behind a long iteration;
//   - the cost model keeps the loop serial because the core already
//     overlaps an inner loop's independent loads (a neighbour sum):
//     prefetching ahead fetches beyond its reorder window. Where the inner
//     loop's rows tile one stream (CSR), PrefetchEdges.cpp prefetches along
//     it from the outer body; prefetches inside the inner loop (here) cost
//     it its vectorisation, and are only made under
//     -memcoro-prefetch-overlapped.
//   - the loop's iterations are short independent gathers the core already
//     overlaps, one load away from an affine sequence (OverlappedGathers.cpp:
//     COO SpMV's `x[col[k]]`).
// The loop is not interleaved, so nothing of the contract is at stake; what
// must hold is that the added loads never fault:
//   - the sequence is read D elements ahead only when that element is at
//     most the last one the loop reads, when its trip count is known before
//     it starts (the address is then one the loop reads); else only when it lies
//     in the page of the element the loop has just read (an x86 page is at
//     least 4 KiB and mapped as a whole), and while the loop's exit test says
//     the element is in range; a sequence read on some paths only
//     (`arc->tail` under `if (arc->ident > 0)`) is read ahead beside an
//     access of every iteration a constant distance away (`arc->ident`),
//     when that access's element ahead is at most its last and the
//     sequence's element lies in its page;
//   - a value read ahead is used for a further load (`offsets[...]` on the
//     way to `adj[offsets[frontier[i + D]]]`) only when its address is one
//     the loop reads and alias analysis says the loop does not write what was
//     read, so the value is the one the loop will read: the further load is
//     then one the loop makes too. Otherwise the value only feeds prefetches,
//     which never fault.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumPrefetchAheadLoops, "Number of marked loops kept in serial order with prefetches ahead");
STATISTIC(NumPrefetchesAhead, "Number of prefetches ahead inserted");

static cl::opt<bool> UsePrefetchAhead("memcoro-prefetch-ahead", cl::Hidden, cl::init(true),
                                      cl::desc("Keep ordered loops and loops whose inner loads the core "
                                               "overlaps in serial order, prefetching their misses ahead"));

// Off by default: on NPB CG (5 nonzeros a row) and GAP's pull PageRank the
// inner loop's compare, branch and prefetch kept the core from vectorising
// and overlapping it as before: 0.67x and 0.96x serial (docs/bench.md).
// PrefetchEdges.cpp prefetches such loops from the outer body instead.
static cl::opt<bool> PrefetchOverlapped("memcoro-prefetch-overlapped", cl::Hidden, cl::init(false),
                                        cl::desc("Also keep loops whose inner loads the core overlaps in "
                                                 "serial order with prefetches ahead"));

static cl::opt<bool> UseForSerialLoops("memcoro-prefetch-serial-loops", cl::Hidden, cl::init(true),
                                       cl::desc("Keep loops that cannot be interleaved (an early exit after a "
                                                "store, a carried value) in serial order with prefetches ahead"));

static cl::opt<unsigned> ForcedDistance("memcoro-prefetch-distance", cl::Hidden, cl::init(0),
                                        cl::desc("Iterations a prefetch ahead looks ahead (0: from the "
                                                 "instructions per iteration)"));

// A miss costs about 100 ns of DRAM latency, about 1000 instructions' worth on
// Zen 4 at its usual 2-3 per cycle: a prefetch must be issued that much work
// ahead. The hand sweeps of bfs at 1 GiB found 64-128 iterations best for its
// 10-15 instruction loops (docs/bench.md).
static constexpr unsigned InstructionsPerMiss = 1024;
static constexpr unsigned MinDistance = 16, MaxDistance = 128;
// The smallest page of the targets memcoro runs on: a read within the page of
// an address the loop has just read cannot fault.
static constexpr int64_t PageBytes = 4096;

namespace {

/// One remote access's prefetch ahead, as planned: which access, through
/// which sequence load, how far, and the look-ahead loads on the way.
struct Target {
  LoadInst *Stream;
  bool Clamped;
  bool ValueKnown;
  Instruction *Guard = nullptr;
  int64_t GuardOffset = 0;
};

/// The address of an access as of a later iteration of \p Level: the
/// instructions between the sequence load \p Stream and the address, cloned
/// with the sequence read ahead. Header phis of loops inside \p Level are
/// taken at their entry (the first inner iteration's address).
class AheadChain {
public:
  AheadChain(const SplitAnalyses &A, Loop &Level, LoadInst *Stream, bool StreamTrusted)
      : A(A), Level(Level), Stream(Stream), StreamTrusted(StreamTrusted) {}

  /// Whether \p V can be computed ahead; records what to clone.
  bool visit(Value *V, unsigned Depth = 16);
  bool trusted(Value *V) const { return !Untrusted.contains(V); }
  /// Look-ahead loads, the sequence's included.
  unsigned loads() const { return Loads + 1; }
  /// Emits the clones at \p B, the sequence's value ahead being \p Ahead; returns \p V's clone.
  Value *emit(IRBuilder<> &B, Value *Ahead, Value *V);

private:
  Value *resolve(Value *V) const;

  const SplitAnalyses &A;
  Loop &Level;
  LoadInst *Stream;
  bool StreamTrusted;
  unsigned Loads = 0;
  SetVector<Instruction *> Order;
  SmallPtrSet<Value *, 8> Visited, Untrusted;
  DenseMap<Value *, Value *> Entry, Clones;
};

} // namespace

bool AheadChain::visit(Value *V, unsigned Depth) {
  if (Visited.contains(V))
    return true;
  auto done = [&](bool Trusted) {
    Visited.insert(V);
    if (!Trusted)
      Untrusted.insert(V);
    return true;
  };
  if (V == Stream)
    return done(StreamTrusted);
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !Level.contains(I))
    return done(true);
  if (Depth == 0)
    return false;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    Loop *Of = A.LI.getLoopFor(Phi->getParent());
    BasicBlock *Pre = Of ? Of->getLoopPreheader() : nullptr;
    if (Of == &Level || Of->getHeader() != Phi->getParent() || !Pre)
      return false;
    Value *In = Phi->getIncomingValueForBlock(Pre);
    if (!visit(In, Depth - 1))
      return false;
    Entry[Phi] = In;
    return done(trusted(In));
  }
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    // Loaded ahead only from an address the loop reads in a later iteration:
    // the load runs in every iteration of Level, and its address is computed
    // from values equal to the loop's own.
    Value *Ptr = Load->getPointerOperand();
    if (!Load->isSimple() || A.LI.getLoopFor(Load->getParent()) != &Level ||
        !A.DT.dominates(Load->getParent(), Level.getLoopLatch()) || !visit(Ptr, Depth - 1) || !trusted(Ptr)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no load ahead of" << *Load << ": its address is not one the loop reads\n");
      return false;
    }
    ++Loads;
    Order.insert(Load);
    Instruction *Writer = firstWriterIn(A, Level, MemoryLocation::get(Load));
    LLVM_DEBUG(if (Writer) dbgs() << "memcoro-split: the value of" << *Load
                                  << " read ahead feeds prefetches only: the loop may write it at" << *Writer
                                  << "\n");
    return done(!Writer);
  }
  if (!(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  bool Trusted = true;
  for (Value *Op : I->operands()) {
    if (!visit(Op, Depth - 1))
      return false;
    Trusted &= trusted(Op);
  }
  Order.insert(I);
  return done(Trusted);
}

Value *AheadChain::resolve(Value *V) const {
  while (Entry.contains(V))
    V = Entry.lookup(V);
  return Clones.lookup(V) ? Clones.lookup(V) : V;
}

Value *AheadChain::emit(IRBuilder<> &B, Value *Ahead, Value *V) {
  Clones[Stream] = Ahead;
  for (Instruction *I : Order) {
    if (Clones.contains(I))
      continue;
    Clones[I] = cloneForReadAhead(B, *I, [&](Value *Op) { return resolve(Op); }, ".ahead");
  }
  return resolve(V);
}

Instruction *memcoro::cloneForReadAhead(IRBuilder<> &B, Instruction &I, function_ref<Value *(Value *)> Map,
                                        StringRef Suffix) {
  Instruction *C = I.clone();
  for (Use &Op : C->operands())
    Op.set(Map(Op.get()));
  // Flags and facts true of the loop's values need not hold of values read
  // early (a value the loop may still overwrite).
  C->dropPoisonGeneratingFlags();
  C->dropPoisonGeneratingMetadata();
  C->dropUnknownNonDebugMetadata({LLVMContext::MD_tbaa});
  C->setName(I.getName() + Suffix);
  B.Insert(C);
  markReadAhead(*C);
  return C;
}

void memcoro::markReadAhead(Instruction &I) {
  // A read ahead the serial loop does not make: past the end of an array
  // within its page (no fault, as aheadInPage tests), or of a value the
  // loop may still write. A sanitizer would report what the program does not
  // do.
  if (isa<LoadInst>(I))
    I.setMetadata(LLVMContext::MD_nosanitize, MDNode::get(I.getContext(), {}));
}

bool memcoro::tripCountKnownAhead(const SplitAnalyses &A, Loop &Level) {
  if (!Level.getLoopPreheader() || Level.getExitingBlock() != Level.getLoopLatch())
    return false;
  const SCEV *BTC = A.SE.getBackedgeTakenCount(&Level);
  if (isa<SCEVCouldNotCompute>(BTC))
    return false;
  SCEVExpander Probe(A.SE, A.DL, "memcoro.ahead");
  return Probe.isSafeToExpandAt(BTC, Level.getLoopPreheader()->getTerminator());
}

namespace {

class PrefetchAheadPlanner {
public:
  PrefetchAheadPlanner(const SplitAnalyses &A, LoopPlan &Plan) : A(A), Plan(Plan), L(Plan.L) {}
  /// Plans a prefetch for each of \p Remote, the loop's far accesses.
  void run(ArrayRef<Instruction *> Remote);

private:
  std::optional<Target> targetAt(Instruction &Access, Loop &Level);
  bool isSequenceLoad(LoadInst &Load, Loop &Level) const;
  bool writtenBeforeRead(LoadInst &Stream, Loop &Level) const;
  std::optional<std::pair<Instruction *, int64_t>> guardOf(LoadInst &Stream, Loop &Level) const;
  unsigned rowLines(Instruction &Access, Loop &Level) const;

  const SplitAnalyses &A;
  LoopPlan &Plan;
  Loop &L;
};

} // namespace

/// A load of an affine sequence of \p Level, rising by a constant step, read
/// in the loop itself (not an inner one) and before the prefetch it feeds.
bool PrefetchAheadPlanner::isSequenceLoad(LoadInst &Load, Loop &Level) const {
  if (!Load.isSimple() || A.LI.getLoopFor(Load.getParent()) != &Level)
    return false;
  std::optional<APInt> Step = constantStepIn(A.SE, Level, Load.getPointerOperand());
  return Step && Step->isStrictlyPositive();
}

/// Whether the loop may write an element of the sequence before the iteration
/// that reads it: alias analysis says some store may write the sequence, and
/// it is not one the pragma's contract excludes. In the marked loop itself
/// the contract covers a store whose pair with the sequence load the compiler
/// could not tell apart (Plan.Assumed: other iterations do not reach what an
/// iteration reads), when the iteration reads its element before it stores
/// anything.
bool PrefetchAheadPlanner::writtenBeforeRead(LoadInst &Stream, Loop &Level) const {
  // Every element is read with the load's type, so its type-based facts hold.
  MemoryLocation Loc = MemoryLocation::getBeforeOrAfter(Stream.getPointerOperand(), Stream.getAAMetadata());
  bool ReadFirst = Stream.getParent() == Level.getHeader() &&
                   none_of(*Level.getHeader(), [&](Instruction &I) {
                     return I.comesBefore(&Stream) && I.mayWriteToMemory() && isModSet(A.AA.getModRefInfo(&I, Loc));
                   });
  auto assumed = [&](const Instruction &I) {
    return &Level == &L && ReadFirst && Plan.PrefetchAheadWhy != PrefetchAheadReason::NotInterleavable &&
           any_of(Plan.Assumed, [&](const AssumedIndependent &P) {
             return (P.Store == &I && P.Other == &Stream) || (P.Store == &Stream && P.Other == &I);
           });
  };
  Instruction *Writer = firstWriterIn(A, Level, Loc, assumed);
  LLVM_DEBUG(if (Writer) dbgs() << "memcoro-split: the sequence" << Stream
                                << " read ahead feeds prefetches only: the loop may write it at" << *Writer << "\n");
  return Writer != nullptr;
}

std::optional<Target> PrefetchAheadPlanner::targetAt(Instruction &Access, Loop &Level) {
  Value *Ptr = accessedPointer(Access);
  // The sequence loads the address depends on, the nearest first.
  SmallVector<LoadInst *, 4> Streams;
  SmallVector<Value *, 16> Work = {Ptr};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty() && Seen.size() < 32) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Level.contains(I) || !Seen.insert(I).second)
      continue;
    if (auto *Load = dyn_cast<LoadInst>(I); Load && I != &Access && isSequenceLoad(*Load, Level))
      Streams.push_back(Load);
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      // An inner loop's header phi at its entry; a merge inside an inner loop
      // (a CAS's path) is not an address AheadChain can take ahead.
      if (Loop *Of = A.LI.getLoopFor(Phi->getParent());
          Of != &Level && Of->getHeader() == Phi->getParent() && Of->getLoopPreheader())
        Work.push_back(Phi->getIncomingValueForBlock(Of->getLoopPreheader()));
      continue;
    }
    append_range(Work, I->operands());
  }
  for (LoadInst *Stream : Streams) {
    bool Known = tripCountKnownAhead(A, Level);
    bool Clamped = Known && A.DT.dominates(Stream->getParent(), Level.getLoopLatch());
    bool ValueKnown = Clamped && !writtenBeforeRead(*Stream, Level);
    // A sequence read on some paths only is read ahead beside an access of
    // every iteration: mcf's `arc->tail`, read where `arc->ident > 0`, was
    // prefetched ahead from that path and within the page of the arc just
    // read, which left out a third of its arcs (0.94x the hand prefetch at
    // 1 MiB). Its value then feeds prefetches only: the loop may not read it.
    std::optional<std::pair<Instruction *, int64_t>> Guard;
    if (Known && !Clamped)
      Guard = guardOf(*Stream, Level);
    AheadChain Chain(A, Level, Stream, ValueKnown);
    if (!Chain.visit(Ptr))
      continue;
    if (Guard)
      return Target{Stream, true, false, Guard->first, Guard->second};
    return Target{Stream, Clamped, ValueKnown};
  }
  return std::nullopt;
}

/// An access of every iteration of \p Level whose address keeps a constant
/// distance of less than a page from \p Stream's, the nearest: the element
/// ahead of a sequence read on some paths lies in the page of the guard's
/// element ahead (which the loop reads, if it is at most the last) unless the
/// two straddle a page boundary.
std::optional<std::pair<Instruction *, int64_t>> PrefetchAheadPlanner::guardOf(LoadInst &Stream, Loop &Level) const {
  const SCEV *At = A.SE.getSCEV(Stream.getPointerOperand());
  std::optional<std::pair<Instruction *, int64_t>> Best;
  for (BasicBlock *BB : Level.blocks()) {
    if (A.LI.getLoopFor(BB) != &Level || !A.DT.dominates(BB, Level.getLoopLatch()))
      continue;
    for (Instruction &I : *BB) {
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
        continue;
      const SCEV *Here = A.SE.getSCEV(getLoadStorePointerOperand(&I));
      auto *AR = dyn_cast<SCEVAddRecExpr>(Here);
      if (!AR || AR->getLoop() != &Level || Here->getType() != At->getType() ||
          !isa<SCEVConstant>(AR->getStepRecurrence(A.SE)))
        continue;
      auto *Apart = dyn_cast<SCEVConstant>(A.SE.getMinusSCEV(At, Here));
      if (!Apart || Apart->getAPInt().abs().sge(PageBytes))
        continue;
      int64_t Offset = Apart->getAPInt().getSExtValue();
      if (!Best || std::abs(Offset) < std::abs(Best->second))
        Best = {{&I, Offset}};
    }
  }
  return Best;
}

/// Whether one prefetch brings in both addresses, or nearly always does:
/// fields of one record, or neighbours in one array (offsets[u] and
/// offsets[u + 1], whose index differs by a constant the casts hide from
/// scalar evolution).
static bool nearby(Value *P, Value *Q, const DataLayout &DL) {
  if (sameLine(P, Q, DL))
    return true;
  auto *GP = dyn_cast<GetElementPtrInst>(P), *GQ = dyn_cast<GetElementPtrInst>(Q);
  if (!GP || !GQ || GP->getNumIndices() != 1 || GQ->getNumIndices() != 1 ||
      GP->getPointerOperand() != GQ->getPointerOperand() || GP->getSourceElementType() != GQ->getSourceElementType())
    return false;
  using namespace PatternMatch;
  auto split = [](Value *Index) {
    Value *Base = Index;
    const APInt *C = nullptr;
    match(Index, m_ZExtOrSExtOrSelf(m_Value(Base)));
    if (match(Base, m_Add(m_Value(Base), m_APInt(C))))
      return std::make_pair(Base, C->getSExtValue());
    return std::make_pair(Base, int64_t(0));
  };
  auto [BaseP, OffP] = split(GP->idx_begin()->get());
  auto [BaseQ, OffQ] = split(GQ->idx_begin()->get());
  int64_t Bytes = (OffP - OffQ) * int64_t(DL.getTypeAllocSize(GP->getSourceElementType()).getFixedValue());
  return BaseP == BaseQ && Bytes > -64 && Bytes < 64;
}

/// How many lines from \p Access's address on the iteration reads as one
/// row: the loads of \p Level at constant offsets from it (an inner loop over
/// the row, unrolled), or its own inner loop's stream when that loop has a
/// constant trip count. A row chosen by a loaded index lies anywhere, and
/// its lines after the first miss too: the prefetch ahead takes them all.
unsigned PrefetchAheadPlanner::rowLines(Instruction &Access, Loop &Level) const {
  const SCEV *Start = A.SE.getSCEV(accessedPointer(Access));
  int64_t End = int64_t(A.DL.getTypeStoreSize(getLoadStoreType(&Access)).getFixedValue());
  Loop *Inner = A.LI.getLoopFor(Access.getParent());
  if (Inner != &Level)
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(Start); AR && AR->getLoop() == Inner) {
      auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(A.SE));
      unsigned Trips = A.SE.getSmallConstantTripCount(Inner);
      if (Step && Trips && Step->getAPInt().isStrictlyPositive())
        End = std::max(End, int64_t(Trips - 1) * Step->getAPInt().getSExtValue() + End);
      Start = AR->getStart();
    }
  for (BasicBlock *BB : Level.blocks())
    for (Instruction &I : *BB) {
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load || Load == &Access || A.LI.getLoopFor(BB) != Inner)
        continue;
      const SCEV *Here = A.SE.getSCEV(Load->getPointerOperand());
      if (Here->getType() != Start->getType())
        continue;
      auto *Offset = dyn_cast<SCEVConstant>(A.SE.getMinusSCEV(Here, Start));
      if (!Offset || Offset->getAPInt().isNegative() || Offset->getAPInt().sge(MaxRowLines * LineBytes))
        continue;
      End = std::max(End, Offset->getAPInt().getSExtValue() +
                              int64_t(A.DL.getTypeStoreSize(Load->getType()).getFixedValue()));
    }
  return unsigned(std::clamp<int64_t>((End + LineBytes - 1) / LineBytes, 1, MaxRowLines));
}

void PrefetchAheadPlanner::run(ArrayRef<Instruction *> Remote) {
  auto distanceFor = [&](Loop &Level) {
    if (ForcedDistance)
      return ForcedDistance.getValue();
    // A gather's iterations wait on nothing but their own miss, so they run
    // as fast as the misses arrive, not at the core's usual pace: COO SpMV's
    // 25-instruction body, 32 ahead by the count above, ran at 1.0x serial;
    // 64 ahead at 1.05-1.35x, 128 at 1.1-1.5x, 256 at 1.37x (docs/bench.md).
    if (Plan.PrefetchAheadWhy == PrefetchAheadReason::Gathers)
      return MaxDistance;
    // An inner loop of a constant trip count (a row's) is work of every
    // iteration, as many times as it runs; one whose length varies (an edge
    // list) is left out, as the distances tuned on bfs assume.
    unsigned Work = 0;
    for (BasicBlock *BB : Level.blocks()) {
      unsigned Times = 1;
      for (Loop *In = A.LI.getLoopFor(BB); In != &Level && Times; In = In->getParentLoop())
        Times *= A.SE.getSmallConstantTripCount(In);
      for (Instruction &I : *BB)
        Work += Times * (!isa<PHINode>(I) && !I.isDebugOrPseudoInst());
    }
    return std::clamp<unsigned>(llvm::bit_floor(InstructionsPerMiss / std::max(Work, 1u)), MinDistance,
                                MaxDistance);
  };
  for (Instruction *Access : Remote) {
    if (!isa<LoadInst>(Access) && !isa<StoreInst>(Access))
      continue;
    // The innermost loop whose sequence reaches the address: the inner loop's
    // own for parent[adj[e]], the marked loop's for adj[offsets[frontier[i]]].
    for (Loop *Level = A.LI.getLoopFor(Access->getParent()); Level && L.contains(Level);
         Level = Level->getParentLoop()) {
      // A serial copy's inner loops are prefetched by nothing: YCSB's 16
      // requests a transaction, prefetched 16 ahead in their own loop, cost
      // its serial windows 1.18x (their misses the core overlaps already).
      if (Plan.PrefetchAheadWhy == PrefetchAheadReason::SerialCopy && Level != &L)
        continue;
      std::optional<Target> T = targetAt(*Access, *Level);
      if (!T)
        continue;
      AheadChain Chain(A, *Level, T->Stream, T->ValueKnown);
      Chain.visit(accessedPointer(*Access));
      bool Same = any_of(Plan.PrefetchAhead, [&](const AheadPrefetch &P) {
        return P.Stream == T->Stream && nearby(accessedPointer(*P.Access), accessedPointer(*Access), A.DL);
      });
      if (!Same)
        Plan.PrefetchAhead.push_back({Access, T->Stream, std::max(1u, distanceFor(*Level) / Chain.loads()),
                                      Chain.loads(), T->Clamped, T->ValueKnown, rowLines(*Access, *Level), T->Guard,
                                      T->GuardOffset});
      break;
    }
  }
}

/// Whether \p Why says only that iterations must not run out of order or
/// concurrently (an early exit after a store, a value carried from one
/// iteration to the next, a proven dependence, a call): the loop as written,
/// in its own order, is then still the loop, and prefetches ahead change
/// nothing of what it computes. A loop whose shape memcoro cannot handle, a
/// volatile access, or one the cost model or a profile found nothing to fetch
/// for, is not such a loop.
static bool onlyOrderForbidsInterleaving(const SerialReason &Why) {
  static constexpr StringLiteral OrderOnly[] = {
      "EarlyExit",    "LoopCarried", "MemoryDependence", "FPReduction",       "LiveOut",          "LocalMemory",
      "SplitUpdate",  "Call",        "UnknownTripCount", "NothingBeforeTurn", "UnorderedClaim", "SuspendsUnderLock"};
  return !Why.Quiet && is_contained(OrderOnly, StringRef(Why.Tag));
}

bool memcoro::choosePrefetchAhead(const SplitAnalyses &A, LoopPlan &Plan, const std::optional<SerialReason> &Why) {
  if (!UsePrefetchAhead || !costModelApplies(Plan.L))
    return false;
  const auto *Remote = A.RAI.lookup(&Plan.L);
  // Far memory of the AMU is not reached through the cache.
  if (!Remote || reachesFarMemory(*Remote))
    return false;
  bool HeldByTurn = !Why && Plan.WaitsForTurn && any_of(Plan.Ordered, [](const OrderedPoint &P) {
                      return P.What == OrderedPoint::FirstWriterWins;
                    });
  bool Gathers = !Why && !HeldByTurn && overlapsGathers(A, Plan);
  bool Overlapped = Why && StringRef(Why->Tag) == "NotWorthInterleaving" &&
                    any_of(Plan.NotWorth, [](const NotSuspended &N) { return N.What == NotSuspended::OverlappedInnerLoop; });
  // The prefetches inside the inner loop only when asked for (tests).
  if (Overlapped && !PrefetchOverlapped && !Plan.BoundEvaluatedOnce && planPrefetchEdges(A, Plan)) {
    Plan.PrefetchAheadWhy = PrefetchAheadReason::Overlapped;
    return true;
  }
  Overlapped &= PrefetchOverlapped;
  bool NotInterleavable = Why && UseForSerialLoops && onlyOrderForbidsInterleaving(*Why);
  if (!HeldByTurn && !Overlapped && !Gathers && !NotInterleavable)
    return false;
  // Trip counts are read from scalar evolution with the IR as it will stay;
  // the bound's copy goes when the plan is not carried out.
  if (Plan.BoundEvaluatedOnce) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch ahead for loop " << Plan.L.getHeader()->getName()
                      << ": its bound is read through memory\n");
    return false;
  }
  Plan.PrefetchAheadWhy = HeldByTurn         ? PrefetchAheadReason::Turns
                          : Gathers          ? PrefetchAheadReason::Gathers
                          : NotInterleavable ? PrefetchAheadReason::NotInterleavable
                                             : PrefetchAheadReason::Overlapped;
  if (NotInterleavable)
    Plan.NotInterleavedWhy = Why;
  SmallVector<Instruction *, 8> Accesses;
  for (const RemoteAccess &RA : *Remote)
    Accesses.push_back(RA.Access);
  PrefetchAheadPlanner(A, Plan).run(Accesses);
  if (Plan.PrefetchAhead.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch ahead for loop " << Plan.L.getHeader()->getName()
                      << ": no remote address is computed from an affine sequence\n");
    return false;
  }
  return true;
}

namespace {

/// The name of the array an access reads, from the debug info of its base,
/// for remarks: "'parent[...]'", or its place when there is none.
std::string accessName(Instruction &Access) {
  Value *Base = getUnderlyingObject(accessedPointer(Access));
  StringRef Name = sourceVariableName(*Base);
  if (Name.empty())
    Name = Base->getName();
  if (!Name.empty())
    return ("'" + Name + "[...]'").str();
  std::string Kind = isa<LoadInst>(Access) ? "the load" : "the store";
  return Access.getDebugLoc() && Access.getDebugLoc().getLine() ? Kind + " at " + sourcePlace(Access)
                                                                 : Kind + " of the loop without a source place";
}

/// The look-ahead address of the sequence at \p Ptr \p Distance iterations ahead.
Value *aheadAddress(const SplitAnalyses &A, IRBuilder<> &B, Value *Ptr, unsigned Distance) {
  auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Ptr));
  int64_t Step = cast<SCEVConstant>(AR->getStepRecurrence(A.SE))->getAPInt().getSExtValue();
  return B.CreatePtrAdd(Ptr, B.getInt64(Step * Distance), "memcoro.ahead.ptr");
}

/// \p S with each add recurrence {Start,+,C} of a loop around the code
/// written through a phi P = {B,+,C'} its header already has, as
/// Start - k*B + k*P (C = k*C'): expanded inside that loop, it then needs no
/// induction variable of the expander's own, which the windows of a
/// run-time switch would not carry (PrefetchSwitch.cpp wires only the phis
/// both copies have).
class ThroughExistingPhis : public SCEVRewriteVisitor<ThroughExistingPhis> {
public:
  explicit ThroughExistingPhis(ScalarEvolution &SE) : SCEVRewriteVisitor(SE) {}

  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *Expr) {
    const SCEV *Rewritten = SCEVRewriteVisitor::visitAddRecExpr(Expr);
    auto *AR = dyn_cast<SCEVAddRecExpr>(Rewritten);
    auto *Step = AR && AR->isAffine() ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)) : nullptr;
    if (!Step)
      return Rewritten;
    Type *IntTy = SE.getEffectiveSCEVType(AR->getType());
    for (PHINode &Phi : AR->getLoop()->getHeader()->phis()) {
      if (Phi.getType() != IntTy)
        continue;
      auto *PR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
      auto *PStep = PR && PR->getLoop() == AR->getLoop() && PR->isAffine()
                        ? dyn_cast<SCEVConstant>(PR->getStepRecurrence(SE))
                        : nullptr;
      if (!PStep || PStep->getAPInt().isZero() || Step->getAPInt().srem(PStep->getAPInt()) != 0)
        continue;
      const SCEV *K = SE.getConstant(Step->getAPInt().sdiv(PStep->getAPInt()));
      return SE.getAddExpr(SE.getMinusSCEV(AR->getStart(), SE.getMulExpr(K, PR->getStart())),
                           SE.getMulExpr(K, SE.getUnknown(&Phi)));
    }
    return Rewritten;
  }
};

/// i1, with a trip count known before the loop: whether \p Ahead is at most
/// the last element of the sequence at \p Ptr, one the loop reads. Past it,
/// nothing is read ahead (a short frontier, or the loop's last iterations,
/// costs one branch each). Inside a loop none of whose phis steps with the
/// sequence's start, nothing is read ahead either.
Value *aheadBeforeEnd(const SplitAnalyses &A, IRBuilder<> &B, Value *Ptr, Loop &Level, Value *Ahead) {
  auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Ptr));
  SCEVExpander Expander(A.SE, A.DL, "memcoro.ahead");
  const SCEV *Last = AR->evaluateAtIteration(A.SE.getBackedgeTakenCount(&Level), A.SE);
  Last = ThroughExistingPhis(A.SE).visit(Last);
  if (A.SE.containsAddRecurrence(Last)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no read ahead of " << *Ptr << ": its last element " << *Last
                      << " needs an induction variable of its own\n");
    return B.getFalse();
  }
  Value *LastPtr = Expander.expandCodeFor(Last, Ahead->getType(), Level.getLoopPreheader()->getTerminator());
  return B.CreateICmpULE(Ahead, LastPtr, "memcoro.ahead.inrange");
}

/// i1: whether bytes \p From to \p To (both included) from \p Base lie in
/// one page: their ends agree above the page offset.
Value *bytesInOnePage(IRBuilder<> &B, Value *Base, int64_t From, int64_t To) {
  Value *Here = B.CreatePtrToInt(Base, B.getInt64Ty());
  auto at = [&](int64_t Offset) { return Offset ? B.CreateAdd(Here, B.getInt64(Offset)) : Here; };
  return B.CreateICmpULT(B.CreateXor(at(From), at(To)), B.getInt64(PageBytes), "memcoro.ahead.inpage");
}

/// i1: whether the element \p Distance iterations ahead lies in the page of
/// the one \p Stream has just read: then reading it cannot fault, whatever
/// the loop does to its bound. A read ahead that would cross into the next
/// page is skipped (one in 4096 / (step * distance)).
Value *aheadInPage(const SplitAnalyses &A, IRBuilder<> &B, LoadInst *Stream, unsigned Distance) {
  auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Stream->getPointerOperand()));
  int64_t Step = cast<SCEVConstant>(AR->getStepRecurrence(A.SE))->getAPInt().getSExtValue();
  int64_t LastByte = Step * Distance + int64_t(A.DL.getTypeStoreSize(Stream->getType())) - 1;
  return bytesInOnePage(B, Stream->getPointerOperand(), 0, LastByte);
}

/// i1: whether every sequence guarded by \p P's guard at its distance lies in
/// the page of the guard's element ahead, \p GuardAhead (one page check for
/// `arc->tail` and `arc->head` beside `arc->ident`).
Value *aheadInGuardPage(const SplitAnalyses &A, IRBuilder<> &B, Value *GuardAhead, const AheadPrefetch &P,
                        ArrayRef<AheadPrefetch> All) {
  // The bytes from the lowest to the highest, the guard's own included: one
  // page when their ends are.
  int64_t From = 0, To = 0;
  for (const AheadPrefetch &Q : All)
    if (Q.Guard == P.Guard && Q.Distance == P.Distance) {
      From = std::min(From, Q.GuardOffset);
      To = std::max(To, Q.GuardOffset + int64_t(A.DL.getTypeStoreSize(Q.Stream->getType())) - 1);
    }
  return bytesInOnePage(B, GuardAhead, From, To);
}

/// Without a known trip count, the page past the loop's end holds what the
/// loop will not use (the next vertex's edges): i1, whether the exit test of
/// `for (e = b; e < end; ++e)`, on the bound as of this iteration, keeps the
/// loop going \p Distance iterations on; null when the test has another form.
Value *aheadInRange(IRBuilder<> &B, LoadInst *Stream, Loop &Level, unsigned Distance) {
  using namespace PatternMatch;
  auto *GEP = dyn_cast<GetElementPtrInst>(Stream->getPointerOperand());
  auto *Br = dyn_cast<BranchInst>(Level.getLoopLatch()->getTerminator());
  auto *IV = GEP && GEP->getNumIndices() == 1 ? dyn_cast<PHINode>(GEP->idx_begin()->get()) : nullptr;
  ICmpInst::Predicate Pred;
  Value *Bound;
  const APInt *Inc;
  if (!IV || IV->getParent() != Level.getHeader() || !Br || !Br->isConditional() ||
      Br->getSuccessor(0) != Level.getHeader() ||
      !match(Br->getCondition(), m_ICmp(Pred, m_Add(m_Specific(IV), m_APInt(Inc)), m_Value(Bound))) ||
      !Inc->isStrictlyPositive() ||
      !(Pred == ICmpInst::ICMP_ULT || Pred == ICmpInst::ICMP_SLT || Pred == ICmpInst::ICMP_NE))
    return nullptr;
  Value *Now = Level.isLoopInvariant(Bound) ? Bound : nullptr;
  for (PHINode &Phi : Level.getHeader()->phis())
    if (!Now && Phi.getIncomingValueForBlock(Level.getLoopLatch()) == Bound)
      Now = &Phi;
  if (!Now || Now->getType() != IV->getType())
    return nullptr;
  Value *Next = B.CreateAdd(IV, ConstantInt::get(IV->getType(), *Inc * Distance), "memcoro.ahead.iv");
  return Pred == ICmpInst::ICMP_SLT ? B.CreateICmpSLT(Next, Now, "memcoro.ahead.inrange")
                                    : B.CreateICmpULT(Next, Now, "memcoro.ahead.inrange");
}

} // namespace

/// The plan's prefetches, with the inner loops whose bound only a guarded
/// claim may write versioned first (GuardedBound.cpp): the reads ahead of
/// their fast copies are bounded by the last element, not by the page.
static SmallVector<AheadPrefetch, 4> versionInnerBounds(const SplitAnalyses &A, const LoopPlan &Plan,
                                                        OptimizationRemarkEmitter &ORE) {
  SmallVector<AheadPrefetch, 4> Prefetches(Plan.PrefetchAhead.begin(), Plan.PrefetchAhead.end());
  SmallPtrSet<Loop *, 2> Versioned;
  for (AheadPrefetch &P : Prefetches) {
    Loop &Level = *A.LI.getLoopFor(P.Stream->getParent());
    if (P.ClampedToTripCount || &Level == &Plan.L)
      continue;
    if (!Versioned.contains(&Level) && !versionGuardedBound(A, Level, ORE))
      continue;
    Versioned.insert(&Level);
    P.ClampedToTripCount =
        tripCountKnownAhead(A, Level) && A.DT.dominates(P.Stream->getParent(), Level.getLoopLatch());
  }
  return Prefetches;
}

/// The remark's reason for keeping the loop's order.
static std::string keptInOrderBecause(const LoopPlan &Plan) {
  switch (Plan.PrefetchAheadWhy) {
  case PrefetchAheadReason::Turns:
    return "its first-writer-wins test must run in iteration order, and interleaved iterations would wait "
           "behind long ones for their turn";
  case PrefetchAheadReason::Gathers:
    return "its iterations are short independent gathers, which the processor already overlaps; interleaving "
           "them would add a switch per iteration, and prefetches ahead add what lies beyond its reorder window";
  case PrefetchAheadReason::NotInterleavable:
    return "the loop cannot be interleaved (the missed remark says why)";
  case PrefetchAheadReason::SerialCopy:
  case PrefetchAheadReason::Overlapped:
    break;
  }
  return "the processor already overlaps the inner loop's independent loads, and prefetches ahead add what lies "
         "beyond its reorder window";
}

void memcoro::emitPrefetchAhead(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  ++NumPrefetchAheadLoops;
  if (Plan.Edges)
    return emitPrefetchEdges(A, Plan, ORE);
  SmallVector<AheadPrefetch, 4> Prefetches = versionInnerBounds(A, Plan, ORE);
  // One read ahead per sequence and distance, shared by its prefetches,
  // which follow it in plan order; without a known trip count, all of them
  // behind a branch on the exit test (a short edge list then costs one
  // predicted branch per edge, as pfd's `if (e + d < end)`).
  DomTreeUpdater DTU(A.DT, DomTreeUpdater::UpdateStrategy::Eager);
  DenseMap<std::pair<LoadInst *, unsigned>, std::pair<Value *, Instruction *>> ReadAhead;
  // What followed each sequence load: the groups go in front of it, in order.
  DenseMap<Instruction *, Instruction *> Anchor;
  SmallVector<std::string, 4> Said;
  // The guarded reads of one guard and distance share its tests: the end of
  // their block, and the guard's element ahead.
  DenseMap<std::pair<Instruction *, unsigned>, std::pair<Instruction *, llvm::Value *>> Guarded;
  // Tests go in front of what followed the access they read beside, and
  // each read ahead behind its tests.
  auto testsAt = [&](IRBuilder<> &B, Instruction *Beside, const AheadPrefetch &P) {
    Instruction *&Before = Anchor[Beside];
    if (!Before)
      Before = Beside->getNextNode();
    B.SetInsertPoint(Before);
    B.SetCurrentDebugLocation(P.Stream->getDebugLoc());
  };
  auto branchOn = [&](IRBuilder<> &B, llvm::Value *Cond) {
    B.SetInsertPoint(SplitBlockAndInsertIfThen(Cond, B.GetInsertPoint(), /*Unreachable=*/false, nullptr, &DTU, &A.LI));
  };
  for (const AheadPrefetch &P : Prefetches) {
    Loop &Level = *A.LI.getLoopFor(P.Stream->getParent());
    auto &[Value, After] = ReadAhead[{P.Stream, P.Distance}];
    IRBuilder<> B(P.Stream);
    if (!Value && P.Guard) {
      auto &[End, GuardAhead] = Guarded[{P.Guard, P.Distance}];
      if (!End) {
        testsAt(B, P.Guard, P);
        llvm::Value *GuardPtr = getLoadStorePointerOperand(P.Guard);
        GuardAhead = aheadAddress(A, B, GuardPtr, P.Distance);
        branchOn(B, aheadBeforeEnd(A, B, GuardPtr, Level, GuardAhead));
        branchOn(B, aheadInGuardPage(A, B, GuardAhead, P, Prefetches));
        End = &*B.GetInsertPoint();
      }
      B.SetInsertPoint(End);
      B.SetCurrentDebugLocation(P.Stream->getDebugLoc());
      llvm::Value *Addr = B.CreatePtrAdd(GuardAhead, B.getInt64(P.GuardOffset), "memcoro.ahead.ptr");
      Value = After = B.CreateAlignedLoad(P.Stream->getType(), Addr, Align(1), P.Stream->getName() + ".ahead");
      markReadAhead(*After);
    }
    if (!Value) {
      testsAt(B, P.Stream, P);
      // The exit test first: on a short edge list it is the only cost.
      llvm::Value *Addr = aheadAddress(A, B, P.Stream->getPointerOperand(), P.Distance);
      if (P.ClampedToTripCount) {
        branchOn(B, aheadBeforeEnd(A, B, P.Stream->getPointerOperand(), Level, Addr));
      } else {
        if (llvm::Value *InRange = aheadInRange(B, P.Stream, Level, P.Distance))
          branchOn(B, InRange);
        branchOn(B, aheadInPage(A, B, P.Stream, P.Distance));
      }
      Value = After = B.CreateAlignedLoad(P.Stream->getType(), Addr, Align(1), P.Stream->getName() + ".ahead");
      markReadAhead(*After);
    }
    B.SetInsertPoint(After->getNextNode());
    B.SetCurrentDebugLocation(P.Stream->getDebugLoc());
    AheadChain Chain(A, Level, P.Stream, P.ValueKnown);
    bool Planned = Chain.visit(accessedPointer(*P.Access));
    assert(Planned && "the chain the planner accepted");
    (void)Planned;
    llvm::Value *Target = Chain.emit(B, Value, accessedPointer(*P.Access));
    for (unsigned Line = 0; Line < P.Lines; ++Line) {
      llvm::Value *At = Line ? B.CreatePtrAdd(Target, B.getInt64(Line * LineBytes)) : Target;
      After = B.CreateIntrinsic(Intrinsic::prefetch, {At->getType()},
                                {At, B.getInt32(isa<StoreInst>(P.Access)), B.getInt32(3), B.getInt32(1)});
    }
    ++NumPrefetchesAhead;
    Said.push_back(accessName(*P.Access) + (P.Lines > 1 ? " (its row of " + std::to_string(P.Lines) + " lines)" : "") +
                   " " + std::to_string(P.Distance) + " iterations ahead" +
                   (&Level == &Plan.L ? "" : " in the inner loop") +
                   (P.Loads > 1 ? " (through " + std::to_string(P.Loads) + " loads ahead)" : ""));
    LLVM_DEBUG(dbgs() << "memcoro-split: prefetch ahead of" << *P.Access << ", " << P.Distance
                      << " iterations ahead through" << *P.Stream << "\n");
  }
  // An inner loop unrolled by 8 reads ahead for each copy of the same
  // source access: said once, with how many.
  SmallVector<std::string, 4> Distinct;
  for (const std::string &S : Said)
    if (!is_contained(Distinct, S))
      Distinct.push_back(S);
  for (std::string &S : Distinct)
    if (unsigned Copies = count(Said, S); Copies > 1)
      S += " (" + std::to_string(Copies) + " unrolled copies)";
  Said = std::move(Distinct);
  ORE.emit([&] {
    if (Plan.PrefetchAheadWhy == PrefetchAheadReason::SerialCopy)
      return OptimizationRemark(RemarkPass, "SerialCopyPrefetch", Plan.L.getStartLoc(), Plan.L.getHeader())
             << "the loop's serial windows, which run-time adaptation runs while interleaving is not faster, "
                "prefetch "
             << join(Said, ", ")
             << " (switched at run time with the copy as written, which runs where the prefetches measure "
                "slower)";
    OptimizationRemark R(RemarkPass, "PrefetchAhead", Plan.L.getStartLoc(), Plan.L.getHeader());
    R << "loop turned into a prefetching loop in serial order: prefetching " << join(Said, ", ") << "; "
      << keptInOrderBecause(Plan);
    return R;
  });
}

bool memcoro::prefetchAheadInOrder(const SplitAnalyses &A, Loop &L, ArrayRef<Instruction *> Remote,
                                   OptimizationRemarkEmitter &ORE) {
  // The copy as written stays beside the prefetching one: on data near the
  // core the prefetches only cost instructions (a hash chain's probe in the
  // L2 ran its serial windows 1.3x slower with them).
  if (!hasSwitchableShape(L)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetches ahead in the serial copy " << L.getHeader()->getName()
                      << ": it cannot be switched with itself as written\n");
    return false;
  }
  LoopPlan Plan(L);
  Plan.PrefetchAheadWhy = PrefetchAheadReason::SerialCopy;
  PrefetchAheadPlanner(A, Plan).run(Remote);
  if (Plan.PrefetchAhead.empty())
    return false;
  emitPrefetchSwitch(A, Plan, ORE, /*Adapting=*/true);
  return true;
}

void memcoro::printPrefetchAhead(const LoopPlan &Plan, raw_ostream &OS) {
  OS << "  kept in serial order, ";
  switch (Plan.PrefetchAheadWhy) {
  case PrefetchAheadReason::Turns:
    OS << "instead of waiting for turns";
    break;
  case PrefetchAheadReason::Gathers:
    OS << "its independent gathers overlapped by the core";
    break;
  case PrefetchAheadReason::NotInterleavable:
    OS << "not interleavable: " << Plan.NotInterleavedWhy->Text;
    break;
  case PrefetchAheadReason::Overlapped:
    OS << "its inner loads overlapped by the core";
    break;
  case PrefetchAheadReason::SerialCopy:
    OS << "the serial copy of an adapting loop";
    break;
  }
  OS << "\n";
  if (Plan.Edges)
    printPrefetchEdges(*Plan.Edges, OS);
  for (const AheadPrefetch &P : Plan.PrefetchAhead)
    OS << "  prefetch ahead, " << P.Distance << " iterations, " << P.Loads << " load" << (P.Loads == 1 ? "" : "s")
       << " ahead, " << (P.ClampedToTripCount ? "up to the last iteration" : "within the page")
       << (P.Guard ? ", beside an access of every iteration " + std::to_string(P.GuardOffset) + " bytes away" : "")
       << (P.Lines > 1 ? ", " + std::to_string(P.Lines) + " lines" : "")
       << ":" << *P.Access << "\n";
}
