//===- CongruentPhis.cpp - one value carried by two webs of phis ----------===//
//
// A part of memcoro-split's legality (see SplitInternal.h,
// classifyHeaderPhis). An OpenMP reduction's private copy, promoted by LICM
// inside a chunk loop, is carried twice when the loop stores it on some paths
// only (GAP's triangle count under `reduction(+ : total)`):
//
//   %t   = phi [ %in, %pre ], [ %t.next, %latch ]     ; the running total
//   %mem = phi [ %in, %pre ], [ %mem.next, %latch ]   ; what the slot holds
//
// where every inner phi of %mem's web merges the same values as %t's does.
// Each web alone is no reduction (one has the adds, the other only phis), so
// the loop was refused as carrying a value. The two webs are the same value:
// merging them leaves one reduction whose conditional store to the slot
// ReductionMirrors.cpp checks as usual. The merge is a plain simplification,
// right whatever memcoro then does with the loop.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCongruentPhis, "Number of phis merged into a phi that carries the same value");

using PhiPairs = SmallVector<std::pair<PHINode *, PHINode *>, 8>;

/// Whether \p X and \p Y are the same value in every execution, assuming the
/// pairs in \p Assumed are (a phi cycle is congruent when each of its
/// incoming pairs is, taking the cycle itself as given).
static bool congruent(const Loop &L, Value *X, Value *Y, PhiPairs &Assumed) {
  if (X == Y)
    return true;
  auto *PX = dyn_cast<PHINode>(X), *PY = dyn_cast<PHINode>(Y);
  if (!PX || !PY || PX->getParent() != PY->getParent() || !L.contains(PX) || PX->getType() != PY->getType())
    return false;
  if (is_contained(Assumed, std::make_pair(PX, PY)))
    return true;
  Assumed.push_back({PX, PY});
  for (BasicBlock *In : PX->blocks())
    if (!congruent(L, PX->getIncomingValueForBlock(In), PY->getIncomingValueForBlock(In), Assumed))
      return false;
  return true;
}

bool memcoro::mergeCongruentPhis(Loop &L, const LoopPlan &Plan, ScalarEvolution &SE) {
  SmallVector<PHINode *, 8> Header;
  for (PHINode &Phi : L.getHeader()->phis())
    if (!is_contained(Plan.LaunchChains, &Phi))
      Header.push_back(&Phi);
  // In the order the merges were found: the replacements below append uses
  // to the kept phi, and the order of its users (which later walks follow)
  // must not depend on where the phis sit in memory.
  MapVector<PHINode *, PHINode *> Leader;
  auto find = [&](PHINode *P) {
    while (Leader.count(P))
      P = Leader[P];
    return P;
  };
  for (unsigned I = 0; I < Header.size(); ++I)
    for (unsigned J = I + 1; J < Header.size(); ++J) {
      PhiPairs Pairs;
      if (find(Header[I]) == find(Header[J]) || !congruent(L, Header[I], Header[J], Pairs))
        continue;
      for (auto [Kept, Merged] : Pairs)
        if (PHINode *RK = find(Kept), *RM = find(Merged); RK != RM)
          Leader[RM] = RK;
    }
  if (Leader.empty())
    return false;
  for (auto &Entry : Leader) {
    PHINode *Merged = Entry.first;
    LLVM_DEBUG(dbgs() << "memcoro-split: " << *Merged << " carries the same value as " << *find(Merged) << "\n");
    SE.forgetValue(Merged);
    Merged->replaceAllUsesWith(find(Merged));
  }
  for (auto &Entry : Leader)
    Entry.first->eraseFromParent();
  NumCongruentPhis += Leader.size();
  SE.forgetLoop(&L);
  return true;
}
