//===- OverlappedGathers.cpp - short independent gathers stay in order -----===//
//
// Part of memcoro-split's plan (see SplitInternal.h), asked by the
// prefetch-ahead code generator's chooser (choosePrefetchAhead in
// PrefetchAhead.cpp) once a coroutine plan exists: whether the loop's
// iterations are independent gathers that the out-of-order core already
// overlaps, so that interleaving them only adds the cost of its switches.
//
//   for (k = 0; k < nnz; k++)             every far address one load away
//     y[row[k]] += val[k] * x[col[k]];    from an affine sequence (row[k],
//                                         col[k]), in a short body
//
// Serially the core holds many such iterations in its reorder window and
// their misses in flight together; a prefetch of x[col[k + D]] adds those
// beyond the window. Interleaved, every iteration saves and restores its
// state around one yield: COO SpMV (bench/programs/spmv.c) ran at 0.54-0.83x
// serial interleaved and 1.3-1.5x with a hand prefetch 64-128 ahead
// (docs/bench.md, "Cost model"). So such a loop keeps its order and gets the
// prefetches ahead. The loop must not hold what makes interleaving win:
//
//   - an atomic read-modify-write or a fence: a locked instruction drains
//     the store buffer and stops later loads from starting, so the core
//     overlaps nothing (Graph500's degree count `__sync_fetch_and_add(&deg[
//     src[k]], 1)` runs 2.1x faster interleaved);
//   - a chain: a far address computed from another far load (comp[comp[u]],
//     a hash bucket's entry), whose misses come one after the other;
//   - an inner loop, a call, an exit other than the latch's, anything run
//     in iteration order: the coroutine plan's other machinery, kept as is;
//   - a gather another far load decides to make, which the prefetches
//     ahead would fetch for every iteration;
//   - a long body (-memcoro-gather-body instructions): the window then holds
//     too few iterations for the core to overlap their misses.
//
// Only where memcoro chooses how many iterations run at once (no
// parallel(N) in the pragma): a given N asks for that many in flight.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumOverlappedGatherLoops, "Number of marked loops whose independent gathers the core already overlaps");

// Zen 4's 320-entry reorder window holds five iterations of a 64-instruction
// body: five misses in flight before the prefetches ahead add their own.
static cl::opt<unsigned> GatherBody("memcoro-gather-body", cl::Hidden, cl::init(64),
                                    cl::desc("Most instructions in the body of a loop of independent gathers "
                                             "kept in serial order with prefetches ahead"));

/// Whether \p V, an address of \p L, is computed from loads of affine
/// sequences of \p L (at least one) by arithmetic alone: no other load, no
/// value carried from an earlier iteration but the inductions.
static bool gatheredFromSequences(const SplitAnalyses &A, Loop &L, Value *V, SmallPtrSetImpl<Value *> &Seen,
                                  bool &ThroughSequence, unsigned Depth = 16) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return true;
  if (Depth == 0)
    return false;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    std::optional<APInt> Step = constantStepIn(A.SE, L, Load->getPointerOperand());
    if (!Load->isSimple() || !Step || !Step->isStrictlyPositive())
      return false;
    ThroughSequence = true;
    return true;
  }
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    return Phi->getParent() == L.getHeader() && AR && AR->isAffine();
  }
  if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I) && !isa<BinaryOperator>(I) && !isa<CmpInst>(I) &&
      !isa<SelectInst>(I))
    return false;
  return all_of(I->operands(),
                [&](Value *Op) { return gatheredFromSequences(A, L, Op, Seen, ThroughSequence, Depth - 1); });
}

/// Whether \p V, computed in \p L, depends on one of \p Far.
static bool dependsOn(Value *V, const SmallPtrSetImpl<const Value *> &Far, const Loop &L, unsigned Depth = 8) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth == 0 || isa<PHINode>(I))
    return false;
  if (Far.contains(I))
    return true;
  return any_of(I->operands(), [&](Value *Op) { return dependsOn(Op, Far, L, Depth - 1); });
}

bool memcoro::overlapsGathers(const SplitAnalyses &A, const LoopPlan &Plan) {
  Loop &L = Plan.L;
  auto reject = [&](const Twine &Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " stays interleaved: " << Why
                      << "\n");
    return false;
  };
  // parallel(N) asks for N iterations in flight: the user has measured, or
  // means to (bench/memcoro-bench sweeps N over such kernels).
  if (!Plan.ParallelismChosen)
    return reject("its pragma asks for parallel(" + Twine(Plan.Parallelism) + ")");
  // An order-sensitive update kept in iteration order (COO SpMV's float
  // y[row[k]] +=) is in order in the serial loop too.
  bool OrderedOtherThanUpdates = any_of(Plan.Ordered, [](const OrderedPoint &P) {
    return P.What != OrderedPoint::OrderedUpdate;
  });
  if (Plan.Suspensions.empty() || !L.getSubLoops().empty() || OrderedOtherThanUpdates || !Plan.Locked.empty() ||
      L.getExitingBlock() != L.getLoopLatch())
    return reject("not one block of plain gathers (an inner loop, an ordered point, a lock, or an early exit)");
  // remote(...)'s markers go before the code is generated.
  SmallVector<CallInst *, 4> Markers = getRemoteBaseCalls(L);
  unsigned Work = 0;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<PHINode>(I) || I.isDebugOrPseudoInst() || is_contained(Markers, &I))
        continue;
      ++Work;
      if (I.isAtomic() || isa<FenceInst>(I))
        return reject("it has an atomic access or a fence, which keeps the core from overlapping its misses");
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return reject("it calls a function");
    }
  if (Work > GatherBody)
    return reject(Twine(Work) + " instructions an iteration: the reorder window holds too few of them");
  // A gather that another far load decides to make (cuckoo hashing's second
  // bucket, read when the first does not hold the key) would be prefetched
  // for every iteration: a miss the loop itself does not make, where the
  // misses in flight are what bounds it (1.2x slower than the ring on that
  // probe). A test of the stream (Graph500's `if (src != dst)`) passes.
  SmallPtrSet<const Value *, 8> Far;
  for (const Suspension &S : Plan.Suspensions)
    Far.insert(S.Accesses.begin(), S.Accesses.end());
  for (const Suspension &S : Plan.Suspensions)
    for (BasicBlock *Pred : predecessors(S.At->getParent()))
      if (auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
          L.contains(Pred) && Br && Br->isConditional() && dependsOn(Br->getCondition(), Far, L))
        return reject("a far access is made only when another far load says so");
  for (const Suspension &S : Plan.Suspensions)
    for (Instruction *Access : S.Accesses) {
      SmallPtrSet<Value *, 16> Seen;
      bool ThroughSequence = false;
      if ((!isa<LoadInst>(Access) && !isa<StoreInst>(Access)) ||
          !gatheredFromSequences(A, L, accessedPointer(*Access), Seen, ThroughSequence) || !ThroughSequence)
        return reject("a far address is not one load away from an affine sequence");
    }
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName()
                    << ": independent gathers the core already overlaps, " << Work << " instructions an iteration\n");
  ++NumOverlappedGatherLoops;
  return true;
}
