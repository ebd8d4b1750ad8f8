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
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumStreamStarts, "Number of inner-loop streams whose first lines get a suspension");

static cl::opt<bool> UseStreamStarts("memcoro-stream-starts", cl::Hidden, cl::init(true),
                                     cl::desc("Suspend where an inner loop starts a stream at an address "
                                              "read by a suspended load, prefetching its first lines"));

// The second line of a list that starts anywhere in its first.
static constexpr int64_t LineBytes = 64;

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

void memcoro::planStreamStarts(const SplitAnalyses &A, LoopPlan &Plan) {
  if (!UseStreamStarts)
    return;
  Loop &L = Plan.L;
  // One suspension per inner loop, where it is entered.
  DenseMap<BasicBlock *, unsigned> AtEntry;
  for (const NotSuspended &N : Plan.NotWorth) {
    if (N.What != NotSuspended::AffineStream || !isa<LoadInst>(N.Access))
      continue;
    Loop *Inner = A.LI.getLoopFor(N.Access->getParent());
    auto *Walk = dyn_cast<PHINode>(accessedPointer(*N.Access));
    BasicBlock *Entry = Inner ? Inner->getLoopPreheader() : nullptr;
    if (Inner == &L || !L.contains(Inner) || !Entry || !L.contains(Entry) || !Walk ||
        Walk->getParent() != Inner->getHeader())
      continue;
    Value *Start = Walk->getIncomingValueForBlock(Entry);
    if (!fromSuspendedLoad(L, Plan, Start)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the stream" << *N.Access
                        << " starts where no suspended load says: the prefetcher serves it\n");
      continue;
    }
    auto [It, New] = AtEntry.try_emplace(Entry, Plan.Suspensions.size());
    if (New) {
      Plan.Suspensions.emplace_back();
      Plan.Suspensions.back().At = Entry->getTerminator();
      ++NumStreamStarts;
    }
    Suspension &S = Plan.Suspensions[It->second];
    if (any_of(S.Prefetch, [&](auto &P) { return P.first == Start; }))
      continue;
    LLVM_DEBUG(dbgs() << "memcoro-split: the stream" << *N.Access
                      << " starts at a suspended load's value: its first lines are prefetched where its loop is "
                         "entered\n");
    S.Accesses.push_back(N.Access);
    S.Prefetch.push_back({Start, false});
    S.PrefetchFields.push_back({Start, LineBytes});
  }
}
