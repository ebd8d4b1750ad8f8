//===- CursorAppend.cpp - appends through a cursor array --------------------===//
//
// A part of memcoro-split's legality (see SplitInternal.h), beside
// BufferAppend.cpp, for SplitOrdered.cpp: appends whose counter is picked by
// the data, as a radix partitioning pass or a counting sort scatters,
//
//   out[dst[idx]] = t; ++dst[idx];        (a partitioned join's radix_cluster)
//   pos[i] = cnt[key[i]]++;               (a counting sort's ranks)
//   *cur[p]++ = t;                        (the same through pointer cursors)
//   parts[p].push_back(t);                (one std::vector per partition)
//
// The counter is a location the loop reads and writes back incremented, at an
// address that is neither loop-invariant (BufferAppend.cpp's) nor the
// iteration's own (affine in the loop: no other iteration touches it), and its
// old value is used for more than the increment (or the location is read
// again, as when the increment follows a store that may alias it): the place a tuple takes, or
// the rank an iteration records, depends on the order in which iterations read
// the counter. An increment whose old value is otherwise unused is a
// commutative update (any order gives the serial memory); this one is not, so
// from the read on the iteration runs in iteration order, as after a buffer
// append's first read, and the partitions fill as the serial loop fills them
// (stable, as the join's build relies on).
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCursorAppends, "Number of appends through a cursor array run in iteration order");

namespace {

/// How far apart two fields of one cursor record may lie (a std::vector's
/// begin, end and capacity: 24 bytes).
constexpr int64_t RecordBytes = 64;

/// The store of \p Read's value plus something back into \p Read's location,
/// dominated by it (the cursor's increment), or null. A pointer cursor steps
/// by a GEP from it (`*cur[p]++ = t`, a std::vector's end in push_back).
StoreInst *incrementOf(const SplitAnalyses &A, const Loop &L, LoadInst *Read) {
  for (User *U : Read->users()) {
    auto *Add = dyn_cast<Instruction>(U);
    bool Steps = Add && ((Add->getOpcode() == Instruction::Add) ||
                         (isa<GetElementPtrInst>(Add) && cast<GetElementPtrInst>(Add)->getPointerOperand() == Read));
    if (!Steps || !L.contains(Add))
      continue;
    for (User *V : Add->users())
      if (auto *Write = dyn_cast<StoreInst>(V);
          Write && Write->isSimple() && Write->getValueOperand() == Add && A.DT.dominates(Read, Write) &&
          byteDistance(Write->getPointerOperand(), Read->getPointerOperand(), A.DL) == 0)
        return Write;
  }
  return nullptr;
}

/// Whether \p Read's old value is used in the loop for more than \p Write's
/// increment: directly, or through the incremented value (a pre-increment's
/// `out[++cnt[k]]`).
bool oldValueUsed(const Loop &L, LoadInst *Read, StoreInst *Write) {
  auto *Add = cast<Instruction>(Write->getValueOperand());
  auto usedInLoop = [&](Value *V, Value *Except) {
    return any_of(V->users(), [&](User *U) {
      auto *UI = dyn_cast<Instruction>(U);
      return UI && UI != Except && L.contains(UI);
    });
  };
  return usedInLoop(Read, Add) || usedInLoop(Add, Write);
}

} // namespace

void memcoro::recogniseCursorAppends(const SplitAnalyses &A, LoopPlan &Plan) {
  Loop &L = Plan.L;
  SmallVector<Instruction *, 4> Reads;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Read = dyn_cast<LoadInst>(&I);
      if (!Read || !Read->isSimple() || L.isLoopInvariant(Read->getPointerOperand()))
        continue;
      // The iteration's own element (cnt[i]): no other iteration reads it.
      if (auto *Own = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Read->getPointerOperand())); Own && Own->getLoop() == &L)
        continue;
      StoreInst *Write = incrementOf(A, L, Read);
      if (!Write)
        continue;
      // The old value read again for the increment after a store that may
      // alias the counter (out[dst[idx]] = t, then ++dst[idx]): the ticket
      // is the earlier read of the same place. The other fields of the
      // cursor's record count too: a vector's capacity, compared with its
      // end before the append, must not be read before the turn (it would be
      // the capacity before an earlier iteration's growth).
      SmallVector<LoadInst *, 2> Same, Fields;
      for (BasicBlock *Other : L.blocks())
        for (Instruction &J : *Other)
          if (auto *Again = dyn_cast<LoadInst>(&J); Again && Again != Read && Again->isSimple())
            if (std::optional<int64_t> D = byteDistance(Again->getPointerOperand(), Read->getPointerOperand(), A.DL);
                D && std::abs(*D) < RecordBytes)
              (*D == 0 ? Same : Fields).push_back(Again);
      // Whether it is a cursor at all is the place's own business: a
      // counter beside a sum and a minimum (a GROUP BY's aggregate) is a
      // commutative update like them.
      if (Same.empty() && !oldValueUsed(L, Read, Write))
        continue;
      Reads.push_back(Read);
      append_range(Reads, Same);
      append_range(Reads, Fields);
    }
  // From the first read on each path the iteration holds the turn; a later
  // one needs no start of its own.
  auto dominated = [&](Instruction *R) {
    return any_of(Reads, [&](Instruction *O) { return O != R && A.DT.dominates(O, R); }) ||
           any_of(Plan.BufferAppendStarts, [&](Instruction *S) { return S == R || A.DT.dominates(S, R); });
  };
  for (Instruction *Read : Reads)
    if (!dominated(Read)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: append through a cursor array from" << *Read << "\n");
      Plan.BufferAppendStarts.push_back(Read);
      ++NumCursorAppends;
    }
}
