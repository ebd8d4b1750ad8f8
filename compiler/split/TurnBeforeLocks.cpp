//===- TurnBeforeLocks.cpp - ordered code behind a lock takes its turn first ===//
//
// A step of memcoro-split's ordered planning (SplitOrdered.cpp's planOrdered;
// issue 17, items 8 and 11). On the ring, an iteration that reaches code run
// in iteration order before its turn yields in a wait state. If it holds a
// lock there, an older iteration that needs the same lock spins in it
// forever: the older one never yields (its spin is not a suspension point),
// so the younger one never resumes to release it, and the turn never comes.
//
//   lock(&b->latch);            // iteration 7: takes b's latch
//   #pragma memcoro ordered     // iteration 7: not its turn, waits
//   { b->h = ...; log[n++] = i; }
//   unlock(&b->latch);          // iteration 5, same bucket: spins forever
//
// So wherever a lock the loop takes may be held at an ordered point, the
// iteration takes its turn before the first lock on its way, or before the
// spin loop that takes it (beforeLocks, CallsInPlace.cpp): it waits holding
// nothing, then locks, runs the ordered code and unlocks in order, holding
// the turn (the holder never yields). The locks are calls that take one
// (inline asm, pthread, OpenMP) and compare-and-swap or exchange spin loops
// (locksTaken). Appends, whose start also bounds where suspensions may
// follow, move their starts before the ordered points are collected
// (takeTurnBeforeLocks); every other ordered point (a region, a
// first-writer-wins test, input or output) gets a WaitAt once the ring's
// turns are planned (takeOrderedTurnsBeforeLocks). Lockstep and the pipeline
// never wait: slot order is iteration order there.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumTurnsBeforeLocks, "Number of ordered points whose turn is taken before a lock");

namespace {

/// Where an iteration reaching \p At takes its turn: \p At when no lock of
/// \p Locks may be held there, else the place before the first of them on
/// the way. Null, with \p Held set to such a lock, when no place before the
/// locks comes before \p At on every path.
Instruction *turnPlace(const SplitAnalyses &A, const Loop &L, ArrayRef<Instruction *> Locks, Instruction *At,
                       Instruction *&Held) {
  SmallVector<Instruction *, 2> Before;
  for (Instruction *Lock : Locks)
    if (reachesInIteration(L, Lock, At, nullptr))
      Before.push_back(Lock);
  if (Before.empty())
    return At;
  Instruction *Place = beforeLocks(A, L, Before);
  if (!Place || !A.DT.dominates(Place, At)) {
    Held = Before.front();
    return nullptr;
  }
  ++NumTurnsBeforeLocks;
  LLVM_DEBUG(dbgs() << "memcoro-split: the turn for" << *At << " is taken before the lock at" << *Place << "\n");
  return Place;
}

SerialReason heldWhileWaiting(const Loop &L, const Twine &What, Instruction &Held, Instruction *At) {
  std::string Text = (What + " where the lock taken by " + lockName(Held) +
                      " may be held, and an iteration waiting there for its turn would keep the lock from the "
                      "iteration before it: ")
                         .str();
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " left serial: " << Text << "\n");
  return SerialReason{"", std::move(Text), At};
}

} // namespace

std::optional<SerialReason> memcoro::takeTurnBeforeLocks(const SplitAnalyses &A, LoopPlan &Plan) {
  SmallVector<Instruction *, 2> Locks = locksTaken(A, Plan);
  if (Locks.empty())
    return std::nullopt;
  for (SmallVector<Instruction *, 1> *Starts : {&Plan.BufferAppendStarts, &Plan.RegisterAppendStarts}) {
    for (Instruction *&Start : *Starts) {
      Instruction *Held = nullptr;
      Instruction *Place = turnPlace(A, Plan.L, Locks, Start, Held);
      if (!Place) {
        SerialReason Why = heldWhileWaiting(Plan.L, "values are appended in iteration order", *Held, Start);
        Why.Tag = "AppendUnderLock";
        Why.Text += "append before taking the lock, or after releasing it";
        return Why;
      }
      Start = Place;
    }
    SmallVector<Instruction *, 1> Unique;
    for (Instruction *S : *Starts)
      if (!is_contained(Unique, S))
        Unique.push_back(S);
    *Starts = std::move(Unique);
  }
  return std::nullopt;
}

std::optional<SerialReason> memcoro::takeOrderedTurnsBeforeLocks(const SplitAnalyses &A, LoopPlan &Plan) {
  if (!Plan.WaitsForTurn)
    return std::nullopt;
  SmallVector<Instruction *, 2> Locks = locksTaken(A, Plan);
  if (Locks.empty())
    return std::nullopt;
  for (OrderedPoint &P : Plan.Ordered) {
    if (P.What == OrderedPoint::BufferAppend || P.What == OrderedPoint::RegisterAppend)
      continue;
    Instruction *Held = nullptr;
    Instruction *Place = turnPlace(A, Plan.L, Locks, P.At, Held);
    if (!Place) {
      SerialReason Why = heldWhileWaiting(Plan.L, "code runs in iteration order", *Held, P.At);
      Why.Tag = "OrderedUnderLock";
      Why.Text += "take the lock inside the ordered code, or release it before";
      return Why;
    }
    if (Place != P.At) {
      P.WaitAt = Place;
      P.BeforeTurn = false;
    }
  }
  return std::nullopt;
}
