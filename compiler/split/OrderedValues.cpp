//===- OrderedValues.cpp - values carried inside ordered regions ----------===//
//
// A part of memcoro-split's legality (see SplitInternal.h): a value an
// ordered region carries from one iteration to the next,
//
//   uint64_t oh = 0;
//   #pragma memcoro parallel(N)          (or `omp parallel for ordered`)
//   for (i ...) {
//     v = T[T[idx[i]]];
//     #pragma memcoro ordered            (or `#pragma omp ordered`)
//     oh = oh * 1000003 + v;
//   }
//
// is what an ordered region is for: the region runs in iteration order, so
// each iteration reads the value the previous one left, as in the serial
// loop. When `oh` is a local the optimiser keeps in a register, it reaches
// memcoro-split as a header phi (without -fopenmp always; with it, OpenMP's
// shared `oh` is memory, and the region's order already covers its load and
// store). No reduction (the update is not associative), no append (it is no
// address): it left the loop serial as "a value is carried".
//
// It is kept in one shared scalar, as an append's counter kept in a register
// is (RegisterAppend.cpp, whose recogniser this asks with the region's turn
// in place of an append's): every first read of it on each path must come
// after a region's marker, where the iteration holds the turn, and every
// assignment after such a read. The lowering then loads it from the scalar
// at each read and stores it at each assignment (demoteRegisterAppend); the
// value after the loop is the scalar's, and run-time adaptation's serial copy
// enters and leaves it as it does an append counter's. The turn is the
// region's: no ordered point is added. A value read before the region (its
// old value used before the turn is taken) stays carried, and the loop
// serial: its remark then says where it is read or assigned outside the
// region (orderedValueHint), which is what the user can move.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll         ("value carried in an ordered region")
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumOrderedValues, "Number of values carried inside ordered regions kept in iteration order");

bool memcoro::recogniseOrderedValue(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  SmallVector<CallInst *, 2> Markers = getOrderedMarkers(Plan.L);
  if (Markers.empty())
    return false;
  auto inRegion = [&](Instruction *I) {
    return any_of(Markers, [&](CallInst *Marker) { return A.DT.dominates(Marker, I); });
  };
  if (!recogniseRegisterValue(A, Plan, Phi, RegisterValue::InOrderedRegion, inRegion))
    return false;
  ++NumOrderedValues;
  return true;
}

std::string memcoro::orderedValueHint(const SplitAnalyses &A, const Loop &L, PHINode &Phi) {
  SmallVector<CallInst *, 2> Markers = getOrderedMarkers(L);
  if (Markers.empty())
    return "";
  auto inRegion = [&](Instruction *I) {
    return any_of(Markers, [&](CallInst *Marker) { return A.DT.dominates(Marker, I); });
  };
  // Another header phi in the web is a variable of its own (the counter
  // `last = i` takes).
  SmallVector<PHINode *, 4> Web = phiWeb(L, &Phi);
  erase_if(Web, [&](PHINode *P) { return P != &Phi && P->getParent() == L.getHeader(); });
  for (PHINode *P : Web)
    for (Use &U : P->uses())
      if (auto *User = cast<Instruction>(U.getUser());
          L.contains(User) && !is_contained(Web, User) && !inRegion(User))
        return "; the loop's ordered region would carry it in iteration order, but it is read at " +
               sourcePlace(*User) + ", before the region starts: read it only inside the region";
  for (PHINode *P : Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In)
      if (auto *Def = dyn_cast<Instruction>(P->getIncomingValue(In));
          Def && L.contains(Def) && !isa<PHINode>(Def) && !inRegion(P->getIncomingBlock(In)->getTerminator()))
        return "; the loop's ordered region would carry it in iteration order, but it is assigned at " +
               sourcePlace(*Def) + ", outside the region: assign it only inside the region";
  return "";
}
