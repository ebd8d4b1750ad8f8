//===- SplitCost.cpp - which remote accesses are worth a suspension -------===//
//
// Part of memcoro-split's plan (see SplitInternal.h): the cost model. The
// planner calls it once, before it places suspension points, with the
// accesses memcoro-remote-accesses found; it takes away those whose latency
// the hardware already hides, so that yielding there would only add the cost
// of a switch (issue 15, whose table measured up to 3x slowdowns):
//
//   affine stream      the address is affine in the loop with a small
//                      constant stride (stream, triad, `row[j]`): the
//                      hardware prefetcher runs ahead of it;
//   index arithmetic   the address is computed from the loop counter by
//                      + - * / % and comparisons alone, no load, no bit
//                      mixing (lbm's neighbours with wrap-around): a handful
//                      of streams the prefetcher follows;
//   invariant          the same address in every iteration: in the cache
//                      after the first. Also through loads the loop does
//                      not write: `idx->slots` and then `idx->slots->mask`
//                      when idx is invariant (a nested callee's argument that
//                      is invariant at its call site, a field of such an
//                      object): every iteration loads the same pointer;
//   small object       into a global, stack or constant-size heap object
//                      smaller than -memcoro-cache-resident-bytes (a 4 KiB
//                      lookup table, NPB IS's 8 MiB key counts): it stays
//                      in the cache, whose hits the core overlaps;
//   overlapped inner   loads of an inner loop whose iterations are
//   loop               independent (no address carried through memory from
//                      one inner iteration to the next, no branch on the
//                      loaded values: `sum += contrib[nbr[e]]`): the
//                      out-of-order core already overlaps them, and a yield
//                      per load would serialise them; unless the inner body
//                      is so long that the reorder window holds only a few
//                      of its loads (-memcoro-overlap-window).
//
// `__remote` accesses are kept: they say the memory is far, where no
// prefetcher helps (the software AMU emulates it). So is everything under
// the pragma's `insist` clause (memcoro.insist) or -memcoro-cost-model=0
// (memcoro-cc -fno-memcoro-cost-model). Each access taken away is recorded
// in the plan with the reason, printed by print<memcoro-plan> and said in a
// -Rpass-analysis=memcoro remark; a loop left with no suspension point stays
// serial, and its missed remark says why.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumNotWorth, "Number of remote accesses the cost model left without a suspension");
STATISTIC(NumLoopsNotWorth, "Number of marked loops the cost model left serial");

static cl::opt<bool> UseCostModel("memcoro-cost-model", cl::Hidden, cl::init(true),
                               cl::desc("Leave accesses whose latency the hardware hides (streams, small "
                                        "objects, independent loads of inner loops) without a suspension"));

static cl::opt<unsigned> StreamStride("memcoro-stream-stride", cl::Hidden, cl::init(256),
                                      cl::desc("Largest stride in bytes of an affine access left to the "
                                               "hardware prefetcher"));

// Zen 4's reorder buffer (320 entries) over its L1 miss buffers (about 22):
// an inner loop with more instructions than this per load fills the window
// before it has a miss in every buffer, and its loads are not all overlapped
// (bench/programs/kmer.c: four 15-instruction hashes per counter, 24
// instructions a load, ran 1.25x faster interleaved than left serial).
static cl::opt<unsigned> OverlapWindow("memcoro-overlap-window", cl::Hidden, cl::init(16),
                                       cl::desc("Most instructions per load of an inner loop whose loads the "
                                                "out-of-order core overlaps by itself"));

// The last-level cache of the machine memcoro is tuned on (AMD EPYC Zen 4,
// 32 MiB per CCD): a histogram into a table of 1-16 MiB ran at 0.44-0.82x
// serial interleaved, at 1.0x left serial (docs/bench.md, "Cost model"). An
// object as large as the whole cache shares it with everything else, and
// misses: it keeps its suspension.
static cl::opt<uint64_t> CacheResidentBytes("memcoro-cache-resident-bytes", cl::Hidden, cl::init(32u << 20),
                                            cl::desc("Objects smaller than this many bytes are taken to "
                                                     "stay in the cache (the last-level cache's size)"));

/// Constants an index may be multiplied by and still follow the counter
/// through memory in order; larger ones scatter it (a multiplicative hash).
static constexpr uint64_t LargestIndexScale = 1 << 16;

std::string NotSuspended::describe() const {
  switch (What) {
  case AffineStream:
    return "an affine stream the hardware prefetcher serves";
  case IndexArithmetic:
    return "its address is computed from the loop counter by index arithmetic alone, a stream the "
           "hardware prefetcher serves";
  case Invariant:
    return "the same address in every iteration, which stays in the cache";
  case SmallObject: {
    std::string Size = Bytes % (1 << 20) == 0   ? std::to_string(Bytes >> 20) + " MiB"
                       : Bytes % (1 << 10) == 0 ? std::to_string(Bytes >> 10) + " KiB"
                                                : std::to_string(Bytes) + " bytes";
    return "into an object of " + Size + ", which fits in the cache";
  }
  case OverlappedInnerLoop:
    return "an independent load of an inner loop, which the processor already overlaps with the next "
           "iterations' loads; a yield per load would serialise them";
  }
  llvm_unreachable("every reason has a text");
}

namespace {

class SuspensionCostModel {
public:
  SuspensionCostModel(const SplitAnalyses &A, LoopPlan &Plan) : A(A), Plan(Plan), L(Plan.L) {}
  void run(SmallPtrSetImpl<Instruction *> &Candidates);

private:
  std::optional<NotSuspended> classify(Instruction &I, Value *Ptr);
  std::optional<uint64_t> objectSize(Value *Ptr);
  bool isIndexArithmetic(Value *V, SmallPtrSetImpl<Value *> &Seen, unsigned Depth);
  bool sameInEveryIteration(Value *V, unsigned Depth);
  bool carriedThroughMemory(Value *V, const Loop *Around, SmallPtrSetImpl<const Value *> &Seen);
  bool decidesBranch(Instruction &Load);
  bool innerLoopIsOverlapped(const Loop &Inner, ArrayRef<Instruction *> Accesses);

  const SplitAnalyses &A;
  LoopPlan &Plan;
  Loop &L;
};

} // namespace

std::optional<uint64_t> SuspensionCostModel::objectSize(Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  if (auto *GV = dyn_cast<GlobalVariable>(Obj)) {
    // `extern int t[];` is a [0 x i32]: its size is not known here.
    if (uint64_t Size = GV->getValueType()->isSized() ? A.DL.getTypeAllocSize(GV->getValueType()).getFixedValue() : 0)
      return Size;
    return std::nullopt;
  }
  if (auto *Alloca = dyn_cast<AllocaInst>(Obj)) {
    if (std::optional<TypeSize> Size = Alloca->getAllocationSize(A.DL); Size && !Size->isScalable())
      return Size->getFixedValue();
    return std::nullopt;
  }
  // malloc(4096) and the like, through their allocsize attribute; a heap
  // object allocated in a loop or through a pointer argument has no size here.
  uint64_t Size = 0;
  if (isa<CallBase>(Obj) && getObjectSize(Obj, Size, A.DL, nullptr))
    return Size;
  return std::nullopt;
}

/// Whether \p V is computed from the inductions of the loop (and its inner
/// loops) by index arithmetic: + - * / %, casts, comparisons, selects and
/// min/max over invariants, small constants and affine inductions. No load,
/// no other loop-carried value, no bit mixing (xor, shifts, masks), which is
/// what hashes and random number generators are made of.
bool SuspensionCostModel::isIndexArithmetic(Value *V, SmallPtrSetImpl<Value *> &Seen, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return true;
  if (Depth == 0)
    return false;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    const Loop *Of = A.LI.getLoopFor(Phi->getParent());
    auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    return Of && Of->getHeader() == Phi->getParent() && AR && AR->isAffine();
  }
  auto recurse = [&](Value *Op) { return isIndexArithmetic(Op, Seen, Depth - 1); };
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    switch (BO->getOpcode()) {
    case Instruction::Mul:
      for (Value *Op : BO->operands())
        if (auto *C = dyn_cast<ConstantInt>(Op); C && C->getValue().abs().ugt(LargestIndexScale))
          return false;
      [[fallthrough]];
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::UDiv:
    case Instruction::SDiv:
    case Instruction::URem:
    case Instruction::SRem:
      return all_of(BO->operands(), recurse);
    default:
      return false;
    }
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::umin:
    case Intrinsic::umax:
      return all_of(II->args(), recurse);
    default:
      return false;
    }
  }
  if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I))
    return all_of(I->operands(), recurse);
  return false;
}

/// Whether \p V has the same value in every iteration of the loop: defined
/// outside it, or computed inside by address arithmetic from such values and
/// from loads of such addresses that nothing in the loop may write (a field
/// of a loop-invariant object, the object it points to). LICM leaves such
/// loads in the body when the loop has stores it cannot tell apart from
/// them by itself, and a nested callee's copy has them in a block not every
/// iteration reaches.
bool SuspensionCostModel::sameInEveryIteration(Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (Depth == 0)
    return false;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    if (!Load->isSimple() || !sameInEveryIteration(Load->getPointerOperand(), Depth - 1))
      return false;
    if (Instruction *Writer = firstWriterIn(A, L, MemoryLocation::get(Load))) {
      LLVM_DEBUG(dbgs() << "memcoro-split: " << *Load << " may change between iterations: the loop may write it at"
                        << *Writer << "\n");
      return false;
    }
    return true;
  }
  if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I) && !isa<BinaryOperator>(I))
    return false;
  return all_of(I->operands(), [&](Value *Op) { return sameInEveryIteration(Op, Depth - 1); });
}

std::optional<NotSuspended> SuspensionCostModel::classify(Instruction &I, Value *Ptr) {
  if (std::optional<uint64_t> Size = objectSize(Ptr); Size && *Size < CacheResidentBytes)
    return NotSuspended{&I, NotSuspended::SmallObject, *Size};
  if (L.isLoopInvariant(Ptr) || sameInEveryIteration(Ptr, 8))
    return NotSuspended{&I, NotSuspended::Invariant};
  const SCEV *S = A.SE.getSCEV(Ptr);
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S); AR && AR->isAffine() && L.contains(AR->getLoop())) {
    // The stride the access walks in its own loop; an inner loop's stream
    // may start anywhere (row[j] from a loaded row), it is still a stream.
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(A.SE));
    if (Step && Step->getAPInt().abs().ule(StreamStride))
      return NotSuspended{&I, NotSuspended::AffineStream};
    return std::nullopt;
  }
  SmallPtrSet<Value *, 32> Seen;
  if (isIndexArithmetic(Ptr, Seen, 24))
    return NotSuspended{&I, NotSuspended::IndexArithmetic};
  return std::nullopt;
}

/// Whether \p V depends on a value loaded in an earlier iteration of an inner
/// loop \p Around (a list walk p = p->next, a binary search's bounds): then
/// that loop's loads form a chain the processor cannot overlap. \p Around is
/// the inner loop whose header phi the walk came through, or null.
bool SuspensionCostModel::carriedThroughMemory(Value *V, const Loop *Around, SmallPtrSetImpl<const Value *> &Seen) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return false;
  if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
    if (Around && Around->contains(I))
      return true;
    return carriedThroughMemory(accessedPointer(*I), Around, Seen);
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    const Loop *Of = A.LI.getLoopFor(Phi->getParent());
    if (Of && Of != &L && Of->getHeader() == Phi->getParent()) {
      for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
        if (carriedThroughMemory(Phi->getIncomingValue(K), Of->contains(Phi->getIncomingBlock(K)) ? Of : Around,
                                 Seen))
          return true;
      return false;
    }
  }
  return any_of(I->operands(), [&](Value *Op) { return carriedThroughMemory(Op, Around, Seen); });
}

/// Whether the value of \p Load decides a branch of the loop, through
/// arithmetic, comparisons, selects and phis: then the core must wait for it
/// before it knows the path (and a misprediction discards the loads after it).
bool SuspensionCostModel::decidesBranch(Instruction &Load) {
  SmallVector<Instruction *, 16> Work = {&Load};
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second || !L.contains(I))
      continue;
    if (isa<BranchInst>(I) || isa<SwitchInst>(I) || isa<IndirectBrInst>(I))
      return true;
    if (I != &Load && (I->mayReadOrWriteMemory() || isa<GetElementPtrInst>(I)))
      continue;
    for (User *U : I->users())
      if (auto *UI = dyn_cast<Instruction>(U))
        Work.push_back(UI);
  }
  return false;
}

/// The cache lines an inner iteration's loads take: loads at constant
/// offsets from one pointer share the lines their offsets span (XSBench's
/// ten fields of two adjacent grid points are two lines, one miss each, not
/// ten), so that the instructions per miss, not per load, are what fills the
/// reorder window.
static unsigned linesLoaded(ArrayRef<Instruction *> Accesses) {
  MapVector<const Value *, std::pair<int64_t, int64_t>> Spans;
  unsigned Lines = 0;
  for (Instruction *I : Accesses) {
    auto *Load = dyn_cast<LoadInst>(I);
    if (!Load)
      continue;
    const DataLayout &DL = Load->getModule()->getDataLayout();
    APInt Offset(DL.getIndexTypeSizeInBits(Load->getPointerOperandType()), 0);
    const Value *Base = Load->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    int64_t From = Offset.getSExtValue(), To = From + DL.getTypeStoreSize(Load->getType()).getFixedValue();
    auto [It, New] = Spans.insert({Base, {From, To}});
    if (!New)
      It->second = {std::min(It->second.first, From), std::max(It->second.second, To)};
  }
  for (auto &[Base, Span] : Spans)
    Lines += (Span.second - Span.first + 63) / 64;
  return Lines;
}

bool SuspensionCostModel::innerLoopIsOverlapped(const Loop &Inner, ArrayRef<Instruction *> Accesses) {
  unsigned Work = 0;
  for (BasicBlock *BB : Inner.blocks())
    for (Instruction &I : *BB)
      Work += !isa<PHINode>(I) && !I.isDebugOrPseudoInst();
  unsigned Loads = linesLoaded(Accesses);
  if (Loads && Work > OverlapWindow * Loads) {
    LLVM_DEBUG(dbgs() << "memcoro-split: inner loop " << Inner.getHeader()->getName() << " keeps its suspensions: "
                      << Work << " instructions for " << Loads << " lines loaded fill the reorder window first\n");
    return false;
  }
  for (Instruction *I : Accesses) {
    if (!isa<LoadInst>(I) && !isa<StoreInst>(I))
      return false;
    SmallPtrSet<const Value *, 32> Seen;
    if (carriedThroughMemory(accessedPointer(*I), nullptr, Seen)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: inner loop " << Inner.getHeader()->getName()
                        << " keeps its suspensions: the address of" << *I
                        << " depends on a load of an earlier inner iteration\n");
      return false;
    }
    if (isa<LoadInst>(I) && decidesBranch(*I)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: inner loop " << Inner.getHeader()->getName()
                        << " keeps its suspensions: the value of" << *I << " decides a branch\n");
      return false;
    }
  }
  return true;
}

void SuspensionCostModel::run(SmallPtrSetImpl<Instruction *> &Candidates) {
  const auto *Remote = A.RAI.lookup(&L);
  if (!Remote)
    return;
  if (!costModelApplies(L)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: cost model off for loop " << L.getHeader()->getName()
                      << ": every remote access is a suspension candidate\n");
    return;
  }
  // Accesses of each inner loop, judged together: one that keeps its
  // suspension makes the inner loop yield per iteration anyway.
  MapVector<const Loop *, SmallVector<Instruction *, 4>> Inner;
  for (const RemoteAccess &RA : *Remote) {
    Instruction *I = RA.Access;
    if (RA.Reason == RemoteReason::AddressSpace || !Candidates.contains(I))
      continue;
    if (std::optional<NotSuspended> Not = classify(*I, accessedPointer(*I))) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *I << ": " << Not->describe() << "\n");
      Plan.NotWorth.push_back(*Not);
      Candidates.erase(I);
      continue;
    }
    if (const Loop *Of = A.LI.getLoopFor(I->getParent()); Of != &L)
      Inner[Of].push_back(I);
  }
  for (auto &[Of, Accesses] : Inner) {
    if (!innerLoopIsOverlapped(*Of, Accesses))
      continue;
    for (Instruction *I : Accesses) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *I << ": independent loads of an inner loop\n");
      Plan.NotWorth.push_back({I, NotSuspended::OverlappedInnerLoop});
      Candidates.erase(I);
    }
  }
  NumNotWorth += Plan.NotWorth.size();
}

bool memcoro::costModelApplies(const Loop &L) { return UseCostModel && !findOptionMDForLoop(&L, InsistMD); }

std::optional<SerialReason> memcoro::applyCostModel(const SplitAnalyses &A, LoopPlan &Plan,
                                                    SmallPtrSetImpl<Instruction *> &Candidates) {
  if (Candidates.empty())
    return std::nullopt;
  SuspensionCostModel(A, Plan).run(Candidates);
  if (!Candidates.empty() || Plan.NotWorth.empty())
    return std::nullopt;
  ++NumLoopsNotWorth;
  std::string Why = "no access in the loop is worth a suspension: ";
  SmallVector<NotSuspended::Kind, 4> Said;
  for (const NotSuspended &N : Plan.NotWorth) {
    if (is_contained(Said, N.What))
      continue;
    Why += Said.empty() ? "" : "; ";
    if (N.Access->getDebugLoc())
      Why += sourcePlace(*N.Access) + ": ";
    Why += N.describe();
    Said.push_back(N.What);
  }
  Why += " (write 'insist' in the pragma, or build with -fno-memcoro-cost-model, to interleave it anyway)";
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Plan.L.getHeader()->getName() << " left serial: " << Why << "\n");
  return SerialReason{"NotWorthInterleaving", Why, Plan.NotWorth.front().Access};
}

void memcoro::emitCostRemarks(const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  for (const NotSuspended &N : Plan.NotWorth)
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "NotWorthSuspending", remarkLocation(N.Access, Plan.L),
                                        N.Access->getParent())
             << "no suspension at this " << (isa<LoadInst>(N.Access) ? "load" : "store") << ": "
             << N.describe();
    });
}
