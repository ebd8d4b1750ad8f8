//===- FromIteration.cpp - values a resume recomputes from the iteration ---===//
//
// Part of the frame step of memcoro-split (SplitFrame.cpp asks it, once the
// saved values are known). A scheduler that knows at each resume which
// iteration it resumes, without reading the slot (the pipeline: phase j of
// step t is iteration t - j*d), can give the frame that number. Then a saved
// value computed from the iteration number, loop invariants and reads of
// near memory is recomputed on resume instead of stored and reloaded:
// is's `&counts[keys[i]]` becomes keys[k] read again (an L1 hit: the key
// stream went by d steps ago) and one lea, where the slot costs an address,
// a store and a load per iteration. This is the prefetch-distance loop's own
// form, which computes `&t[ix[i + D]]` twice rather than keeping it.
//
// A load may be read again only where it still gives the value it gave:
//   - a plain (not atomic, not volatile) load that is no remote access (that
//     one would miss again), in a loop without atomics;
//   - nothing between the load and the suspension writes memory: the load
//     lies in the block the suspension cuts, and no instruction after it
//     there may write (-memcoro-check's calls may: no recomputation there);
//   - other iterations do not write what an iteration reads: that is the
//     pragma's contract, except for code that runs in iteration order (an
//     append counter, a buffer's counter in memory) and the lock table, so
//     loops with those recompute nothing.
// A value takes at most MaxRecomputed instructions to recompute.
//
//===----------------------------------------------------------------------===//
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

namespace {

constexpr unsigned MaxRecomputed = 8;

class IterationValues {
public:
  IterationValues(const SplitAnalyses &A, const LoopPlan &Plan, const SmallPtrSetImpl<BasicBlock *> &Region,
                  ArrayRef<BasicBlock *> Posts, Value *Iteration, ArrayRef<Instruction *> Saved,
                  function_ref<ArrayRef<unsigned>(Instruction *)> SavedAt)
      : Region(Region), Posts(Posts), Iteration(Iteration), Saved(Saved.begin(), Saved.end()), SavedAt(SavedAt) {
    if (const auto *Remote = A.RAI.lookup(&Plan.L))
      for (const RemoteAccess &RA : *Remote)
        RemoteAccesses.insert(RA.Access);
  }

  /// Adds to \p Out the instructions that recompute \p V at each of the
  /// resumes \p At, when it can be recomputed there.
  bool collect(Instruction *V, ArrayRef<unsigned> At, SmallPtrSetImpl<Instruction *> &Out) {
    SmallPtrSet<Instruction *, 8> Chain;
    if (!recomputable(V, At, Chain))
      return false;
    Out.insert(Chain.begin(), Chain.end());
    return true;
  }

private:
  bool recomputable(Value *V, ArrayRef<unsigned> NeededAt, SmallPtrSetImpl<Instruction *> &Chain) {
    auto *I = dyn_cast<Instruction>(V);
    if (V == Iteration || !I || !Region.contains(I->getParent()) || Chain.contains(I))
      return true;
    if (Chain.size() == MaxRecomputed || isa<PHINode>(I) || I->mayHaveSideEffects() || I->isIntDivRem())
      return false;
    // A saved operand is recomputed at its own resumes too.
    SmallVector<unsigned, 4> At(NeededAt);
    if (Saved.contains(I))
      for (unsigned J : SavedAt(I))
        if (!is_contained(At, J))
          At.push_back(J);
    bool Pure = isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I) || isa<CmpInst>(I);
    if (!Pure && !(isa<LoadInst>(I) && readsAgain(cast<LoadInst>(I), At)))
      return false;
    Chain.insert(I);
    return all_of(I->operands(), [&](Value *Op) { return recomputable(Op, At, Chain); });
  }

  /// The load gives the same value at each resume in \p At.
  bool readsAgain(LoadInst *Load, ArrayRef<unsigned> At) {
    if (!Load->isSimple() || RemoteAccesses.contains(Load))
      return false;
    for (unsigned J : At) {
      if (Load->getParent() != Posts[J]->getSinglePredecessor())
        return false;
      for (Instruction *After = Load->getNextNode(); After; After = After->getNextNode())
        if (After->mayWriteToMemory())
          return false;
    }
    return true;
  }

  const SmallPtrSetImpl<BasicBlock *> &Region;
  ArrayRef<BasicBlock *> Posts;
  Value *Iteration;
  SmallPtrSet<Instruction *, 16> Saved;
  function_ref<ArrayRef<unsigned>(Instruction *)> SavedAt;
  SmallPtrSet<const Instruction *, 16> RemoteAccesses;
};

} // namespace

SmallPtrSet<Instruction *, 16>
memcoro::recomputableFromIteration(const SplitAnalyses &A, const LoopPlan &Plan,
                                   const SmallPtrSetImpl<BasicBlock *> &Region, ArrayRef<BasicBlock *> Posts,
                                   Value *Iteration, ArrayRef<Instruction *> Saved,
                                   function_ref<ArrayRef<unsigned>(Instruction *)> SavedAt) {
  SmallPtrSet<Instruction *, 16> Out;
  if (!Plan.Ordered.empty() || !Plan.Counters.empty() || !Plan.BufferAppendStarts.empty() || !Plan.Locked.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: nothing recomputed from the iteration: the loop has ordered code\n");
    return Out;
  }
  for (BasicBlock *BB : Region)
    for (Instruction &I : *BB)
      if (I.isAtomic()) {
        LLVM_DEBUG(dbgs() << "memcoro-split: nothing recomputed from the iteration: the loop has atomics\n");
        return Out;
      }
  IterationValues Values(A, Plan, Region, Posts, Iteration, Saved, SavedAt);
  unsigned Count = 0;
  for (Instruction *V : Saved)
    Count += Values.collect(V, SavedAt(V), Out);
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Count << " of " << Saved.size()
                    << " saved values are recomputed from the iteration number on resume\n");
  return Out;
}
