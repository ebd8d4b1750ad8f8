//===- StreamStarts.cpp - the first lines of a list found through a miss --===//
//
// A part of memcoro-split's plan (see SplitInternal.h, planSuspensions). The
// cost model leaves an inner loop's affine stream to the hardware prefetcher
// (SplitCost.cpp). That holds from the stream's third or fourth line on, not
// for its first: when the stream's start is read by a load the iteration
// suspends at (GAP's triangle count: `index_[v]`, then v's neighbour list), each
// iteration starts a list at a random place and waits for its first line:
//
//   for (NodeID v : g.out_neigh(u))          // suspends at index_[v]
//     for (NodeID w : g.out_neigh(v)) ...    // neigh[index_[v]]: a miss
//
// As the paper's request coalescing fetches what an iteration needs next with
// one suspension, the iteration suspends once more where the inner loop is
// entered, prefetching the list's first two lines (a short list straddles a
// line), and the stream then runs on the prefetcher as before.
//
// The same holds for a gathered row: a stream over one row of a table, the
// row chosen by a loaded index scaled by the row's length (an embedding bag's
// `out[d] += table[indices[k] * D + d]`, PyTorch's and FBGEMM's pooling). Its
// index is a cheap stream of its own, so no suspended load reads it, but two
// rows chosen one after the other lie anywhere: each row's lines miss, and
// there are too few of them (D * 4 bytes) for the prefetcher to catch up. The
// iteration suspends where the row's loop is entered and prefetches the whole
// row when its length is a known constant of at most MaxRowLines lines (its
// first two lines otherwise). A start offset by an index scaled only by the
// element's size (a CSR list's `neigh + index_[u]`) is not a row: consecutive
// lists follow one another, and the prefetcher serves them.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumStreamStarts, "Number of inner-loop streams whose first lines get a suspension");
STATISTIC(NumGatheredRows, "Number of inner-loop streams over a row chosen by a loaded index");

static cl::opt<bool> UseStreamStarts("memcoro-stream-starts", cl::Hidden, cl::init(true),
                                     cl::desc("Suspend where an inner loop starts a stream at an address "
                                              "read by a suspended load, prefetching its first lines"));

/// Whether \p V is computed (by address arithmetic) from a load the
/// iteration already suspends at.
static bool fromSuspendedLoad(const Loop &L, const LoopPlan &Plan, Value *V, unsigned Depth = 8) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Depth)
    return false;
  if (isa<LoadInst>(I))
    return any_of(Plan.Suspensions, [&](const Suspension &S) { return is_contained(S.Accesses, I); });
  if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I) && !isa<BinaryOperator>(I))
    return false;
  return any_of(I->operands(), [&](Value *Op) { return fromSuspendedLoad(L, Plan, Op, Depth - 1); });
}

namespace {

/// An inner loop's stream that the cost model left to the prefetcher, where
/// its loop is entered, the address it starts at, and its recurrence.
struct StreamStart {
  Loop *Inner = nullptr;
  BasicBlock *Entry = nullptr;
  Value *Start = nullptr;
  const SCEVAddRecExpr *Rec = nullptr;
  /// Walks a pointer of its own, not an index from a fixed base.
  bool Walks = false;
};

} // namespace

/// The stream walks a pointer of its own (`for (w : g.out_neigh(v))`) or
/// indexes from a base fixed in its loop (`row[d]`, the index from 0).
static std::optional<StreamStart> streamStart(const SplitAnalyses &A, const Loop &L, const NotSuspended &N) {
  if (N.What != NotSuspended::AffineStream || !isa<LoadInst>(N.Access))
    return std::nullopt;
  StreamStart S;
  S.Inner = A.LI.getLoopFor(N.Access->getParent());
  S.Entry = S.Inner ? S.Inner->getLoopPreheader() : nullptr;
  if (S.Inner == &L || !L.contains(S.Inner) || !S.Entry || !L.contains(S.Entry))
    return std::nullopt;
  Value *Ptr = accessedPointer(*N.Access);
  S.Rec = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Ptr));
  if (auto *Walk = dyn_cast<PHINode>(Ptr); Walk && Walk->getParent() == S.Inner->getHeader()) {
    S.Start = Walk->getIncomingValueForBlock(S.Entry);
    S.Walks = true;
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(Ptr);
           GEP && S.Rec && S.Rec->getLoop() == S.Inner &&
           A.DT.dominates(GEP->getPointerOperand(), S.Entry->getTerminator()) &&
           S.Rec->getStart() == A.SE.getSCEV(GEP->getPointerOperand()))
    S.Start = GEP->getPointerOperand();
  if (!S.Start)
    return std::nullopt;
  return S;
}

/// A value loaded in the marked loop \p L, through casts.
static bool isLoadedIndex(const Loop &L, const SCEV *S) {
  while (auto *Cast = dyn_cast<SCEVCastExpr>(S))
    S = Cast->getOperand();
  auto *U = dyn_cast<SCEVUnknown>(S);
  auto *Load = U ? dyn_cast<LoadInst>(U->getValue()) : nullptr;
  return Load && L.contains(Load);
}

/// The length in bytes of the row \p S walks, when its loop's trip count is
/// known at its entry: the trip count times the step.
static const SCEV *rowBytes(ScalarEvolution &SE, const StreamStart &S) {
  const SCEV *Taken = SE.getBackedgeTakenCount(S.Inner);
  if (!S.Rec || !S.Rec->isAffine() || S.Rec->getLoop() != S.Inner || isa<SCEVCouldNotCompute>(Taken))
    return nullptr;
  Type *Ty = S.Rec->getStepRecurrence(SE)->getType();
  const SCEV *Trips = SE.getAddExpr(SE.getTruncateOrZeroExtend(Taken, Ty), SE.getOne(Ty));
  return SE.getMulExpr(Trips, S.Rec->getStepRecurrence(SE));
}

/// Whether the stream \p S walks a row chosen by an index loaded in the
/// marked loop: its start adds the index times at least two lines, or times
/// the row's own length.
static bool isGatheredRow(const SplitAnalyses &A, const Loop &L, const StreamStart &S) {
  auto *Start = A.SE.getSCEV(S.Start);
  SmallVector<const SCEV *, 4> Terms;
  if (auto *Add = dyn_cast<SCEVAddExpr>(Start))
    Terms.append(Add->operands().begin(), Add->operands().end());
  else
    Terms.push_back(Start);
  for (const SCEV *Term : Terms) {
    auto *Mul = dyn_cast<SCEVMulExpr>(Term);
    if (!Mul || none_of(Mul->operands(), [&](const SCEV *Op) { return isLoadedIndex(L, Op); }))
      continue;
    // The scale: the product of the factors that are not loaded.
    SmallVector<const SCEV *, 4> Scale;
    for (const SCEV *Op : Mul->operands())
      if (!isLoadedIndex(L, Op))
        Scale.push_back(Op);
    if (Scale.empty())
      continue;
    const SCEV *Bytes = A.SE.getMulExpr(Scale);
    if (auto *C = dyn_cast<SCEVConstant>(Bytes); C && C->getAPInt().abs().uge(2 * LineBytes))
      return true;
    if (const SCEV *Row = rowBytes(A.SE, S); Row && Row->getType() == Bytes->getType() && Row == Bytes)
      return true;
  }
  return false;
}

bool memcoro::startsGatheredRows(const SplitAnalyses &A, const LoopPlan &Plan) {
  if (!UseStreamStarts)
    return false;
  return any_of(Plan.NotWorth, [&](const NotSuspended &N) {
    std::optional<StreamStart> S = streamStart(A, Plan.L, N);
    return S && isGatheredRow(A, Plan.L, *S);
  });
}

void memcoro::planStreamStarts(const SplitAnalyses &A, LoopPlan &Plan) {
  if (!UseStreamStarts)
    return;
  Loop &L = Plan.L;
  // One suspension per inner loop, where it is entered.
  DenseMap<BasicBlock *, unsigned> AtEntry;
  for (const NotSuspended &N : Plan.NotWorth) {
    std::optional<StreamStart> S = streamStart(A, L, N);
    if (!S)
      continue;
    // A walk from a suspended load's value is the list case; an index from
    // such a base (a row pointer read at a suspension) keeps to the
    // prefetcher unless it is a gathered row.
    bool List = S->Walks && fromSuspendedLoad(L, Plan, S->Start);
    bool Row = !List && isGatheredRow(A, L, *S);
    if (!Row && !List) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the stream" << *N.Access
                        << " starts where no suspended load says: the prefetcher serves it\n");
      continue;
    }
    auto [It, New] = AtEntry.try_emplace(S->Entry, Plan.Suspensions.size());
    if (New) {
      Plan.Suspensions.emplace_back();
      Plan.Suspensions.back().At = S->Entry->getTerminator();
      ++NumStreamStarts;
    }
    Suspension &Sp = Plan.Suspensions[It->second];
    if (any_of(Sp.Prefetch, [&](auto &P) { return P.first == S->Start; }))
      continue;
    Sp.Accesses.push_back(N.Access);
    Sp.Prefetch.push_back({S->Start, false});
    // A row of known length is fetched whole; a list's or a row's of unknown
    // length first two lines (it may straddle a line).
    int64_t Lines = 2;
    if (Row) {
      ++NumGatheredRows;
      if (auto *Bytes = dyn_cast_or_null<SCEVConstant>(rowBytes(A.SE, *S));
          Bytes && Bytes->getAPInt().isStrictlyPositive() && Bytes->getAPInt().sle(MaxRowLines * LineBytes))
        Lines = std::max<int64_t>(2, (Bytes->getAPInt().getSExtValue() + LineBytes - 1) / LineBytes + 1);
    }
    LLVM_DEBUG(dbgs() << "memcoro-split: the stream" << *N.Access << " starts at "
                      << (Row ? "a row chosen by a loaded index" : "a suspended load's value") << ": its first "
                      << Lines << " lines are prefetched where its loop is entered\n");
    for (int64_t Line = 1; Line < Lines; ++Line)
      Sp.PrefetchFields.push_back({S->Start, Line * LineBytes});
  }
}
