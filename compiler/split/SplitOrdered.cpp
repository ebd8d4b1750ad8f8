//===- SplitOrdered.cpp - what runs in iteration order, and the turn -------===//
//
// A step of memcoro-split (see SplitInternal.h): CoroAMU's *sequential*
// category. Some code of an interleaved loop must still run in iteration
// order for the loop to give the serial answer:
//
//   - an ordered region, `#pragma memcoro ordered` before a statement
//     (memcoro-mark leaves a call to __memcoro_ordered where it starts), and
//     likewise from each call that does input or output (CallsInPlace.cpp);
//   - an append, `next[n++] = v`: a loop-carried counter used only as the
//     index of stores and incremented (legality hands it here through
//     recogniseAppendCounter); it becomes one shared scalar;
//   - a first-writer-wins test-and-set, `if (parent[v] < 0) parent[v] = u`,
//     when nothing else in the loop touches that array: which iteration's
//     store wins depends on the order;
//   - an update of a shared element whose result depends on the order: a
//     floating-point `acc[k] += c` without reassociation (each addition
//     rounds), a floating-point minimum (NaN, signed zeros), an argmin
//     (FloatUpdates.cpp).
//
// How the order is kept depends on the dispatch:
//
//   lockstep  slot s of a group runs a phase after slot s - 1 has run it, and
//             slot order is iteration order; a group starts after the previous
//             one has ended. So code that lies in one phase already runs in
//             iteration order, and nothing is added. All the ordered code must
//             lie in one phase (the last one, for a region, whose end is not
//             known); otherwise the loop runs on the ring.
//   ring      a turn: the number of the oldest iteration that has not ended.
//             Iteration k reaching an ordered point with turn != k yields in a
//             wait state and tests again on each visit (WaitCodeGen); once it
//             has passed one, it holds the turn until it ends, and it also
//             waits at its end, where the turn goes to k + 1. The iteration
//             holding the turn is the oldest, is always in a slot, and never
//             waits, so the loop cannot deadlock at any N. While it holds the
//             turn it does not yield at suspension points: every other
//             iteration can at best reach its own ordered point and wait.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"
#include "split/ClaimTests.h"
#include "split/FloatUpdates.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumOrderedPoints, "Number of points run in iteration order");
STATISTIC(NumAppendCounters, "Number of append counters recognised");
STATISTIC(NumFirstWriterWins, "Number of first-writer-wins tests run in order");

WaitCodeGen::~WaitCodeGen() = default;

/// Whether the loop body can go from just after \p From to just before \p To
/// without passing \p Kill (a definition that would make the path
/// irrelevant) and without going round the loop's back edge.
bool memcoro::reachesInIteration(const Loop &L, Instruction *From, Instruction *To, Instruction *Kill) {
  if (From == To)
    return false;
  BasicBlock *FromBB = From->getParent(), *ToBB = To->getParent();
  auto between = [](Instruction *X, Instruction *A, Instruction *B) {
    // X strictly after A and before B in one block (B null: to the end).
    return X->getParent() == A->getParent() && A->comesBefore(X) && (!B || X->comesBefore(B));
  };
  if (FromBB == ToBB && From->comesBefore(To))
    return !(Kill && between(Kill, From, To));
  if (Kill && between(Kill, From, nullptr))
    return false;
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 8> Work(successors(FromBB));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!L.contains(BB) || BB == L.getHeader() || !Seen.insert(BB).second)
      continue;
    bool Killed = Kill && Kill->getParent() == BB;
    if (BB == ToBB)
      return !(Killed && Kill->comesBefore(To)) && Kill != To;
    if (Killed)
      continue;
    append_range(Work, successors(BB));
  }
  return false;
}

namespace {

/// A GEP whose every user is a store through it, or a GEP of the same kind.
bool onlyStoreAddress(Instruction *I) {
  return all_of(I->users(), [&](User *U) {
    if (auto *Store = dyn_cast<StoreInst>(U))
      return Store->getPointerOperand() == I && Store->getValueOperand() != I;
    if (auto *GEP = dyn_cast<GetElementPtrInst>(U))
      return GEP->getPointerOperand() == I && onlyStoreAddress(GEP);
    return false;
  });
}

/// Where an increment of a counter takes effect: it is pure, so it sinks to
/// its first user in its block, or to the end of the block. Reads of the old
/// value that LLVM scheduled after it (`n + 1` computed before `&next[n]`)
/// then come first, as in the source.
Instruction *effectivePosition(Instruction *Inc) {
  Instruction *At = Inc->getParent()->getTerminator();
  for (User *U : Inc->users())
    if (auto *UI = cast<Instruction>(U); UI->getParent() == Inc->getParent() && !isa<PHINode>(UI) &&
                                         UI->comesBefore(At))
      At = UI;
  return At;
}

} // namespace

/// Where an instruction uses a value: before it, or at the end of the
/// incoming block for a phi.
Instruction *memcoro::usePosition(Use &U) {
  auto *User = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(User))
    return Phi->getIncomingBlock(U)->getTerminator();
  return User;
}

void memcoro::sortClosure(SmallVectorImpl<Instruction *> &Closure) {
  // The plan's order should not depend on where instructions sit in memory.
  sort(Closure, [&](Instruction *X, Instruction *Y) {
    if (X->getParent() == Y->getParent())
      return X->comesBefore(Y);
    return X->getParent()->getName() < Y->getParent()->getName() ||
           (X->getParent()->getName() == Y->getParent()->getName() && X < Y);
  });
}

bool memcoro::recogniseAppendCounter(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  Loop &L = Plan.L;
  if (!Phi->getType()->isIntegerTy() || Phi->getParent() != L.getHeader())
    return false;
  AppendCounter C;
  C.Phi = Phi;
  SmallPtrSet<Instruction *, 16> Closure = {Phi};
  SmallVector<Instruction *, 8> Work = {Phi};
  Value *LatchValue = Phi->getIncomingValueForBlock(Plan.Latch);
  auto fail = [&](const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " is not an append counter: " << Why << "\n");
    return false;
  };
  while (!Work.empty()) {
    Instruction *Cur = Work.pop_back_val();
    for (User *U : Cur->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI)) {
        if (Cur != LatchValue)
          return fail("an intermediate value is used after the loop");
        continue;
      }
      if (Closure.contains(UI))
        continue;
      if (isa<PHINode>(UI)) {
        Closure.insert(UI);
        Work.push_back(UI);
        continue;
      }
      if (auto *BO = dyn_cast<BinaryOperator>(UI); BO && BO->getOpcode() == Instruction::Add) {
        Value *Other = BO->getOperand(0) == Cur ? BO->getOperand(1) : BO->getOperand(0);
        if (!L.isLoopInvariant(Other) || Other == Cur)
          return fail("an update that is not an increment by a loop-invariant amount");
        Closure.insert(BO);
        C.Increments.push_back(BO);
        Work.push_back(BO);
        continue;
      }
      if (auto *GEP = dyn_cast<GetElementPtrInst>(UI); GEP && GEP->getPointerOperand() != Cur &&
                                                        onlyStoreAddress(GEP)) {
        if (!is_contained(C.Reads, GEP))
          C.Reads.push_back(GEP);
        continue;
      }
      if (auto *Cast = dyn_cast<CastInst>(UI); Cast && (isa<SExtInst>(Cast) || isa<ZExtInst>(Cast) || isa<TruncInst>(Cast)) &&
                                               all_of(Cast->users(), [&](User *CU) {
                                                 auto *GEP = dyn_cast<GetElementPtrInst>(CU);
                                                 return GEP && GEP->getPointerOperand() != Cast &&
                                                        onlyStoreAddress(GEP);
                                               })) {
        if (!is_contained(C.Reads, Cast))
          C.Reads.push_back(Cast);
        continue;
      }
      return fail("a use that is neither a store index nor an increment");
    }
  }
  if (C.Increments.empty() || C.Reads.empty())
    return fail("never incremented, or never used as an index");
  // Every phi of the counter only moves its values around.
  for (Instruction *I : Closure)
    if (auto *P = dyn_cast<PHINode>(I))
      for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
        Value *V = P->getIncomingValue(In);
        bool FromBefore = P == Phi && P->getIncomingBlock(In) == Plan.Preheader;
        if (!FromBefore && !(isa<Instruction>(V) && Closure.contains(cast<Instruction>(V))))
          return fail("a phi merges the counter with another value");
      }
  // One shared scalar holds the counter, so every use of a value of the
  // counter must see the latest one: no increment may run between a value's
  // definition and its use (`old = n++; next[old] = v` is not accepted).
  for (Instruction *X : Closure)
    for (Use &U : X->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (!L.contains(User))
        continue;
      Instruction *At = usePosition(U);
      for (Instruction *Inc : C.Increments) {
        Instruction *IncAt = effectivePosition(Inc);
        if (Inc != X && Inc != User && reachesInIteration(L, X, IncAt, nullptr) && reachesInIteration(L, IncAt, At, X))
          return fail("a value of the counter is used after a later increment");
      }
    }
  append_range(C.Closure, Closure);
  sortClosure(C.Closure);
  ++NumAppendCounters;
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " is an append counter\n");
  Plan.Counters.push_back(std::move(C));
  (void)A;
  return true;
}

namespace {

class OrderedPlanner {
public:
  OrderedPlanner(const SplitAnalyses &A, LoopPlan &Plan) : A(A), Plan(Plan), L(Plan.L) {}
  std::optional<SerialReason> run();

private:
  void findFirstWriterWins();
  /// The phase an instruction runs in under lockstep: how many suspension
  /// points come before it.
  unsigned phaseOf(Instruction *I) const {
    return count_if(Plan.Suspensions, [&](const Suspension &S) { return A.DT.dominates(S.At, I) || S.At == I; });
  }

  const SplitAnalyses &A;
  LoopPlan &Plan;
  Loop &L;
  /// A first-writer-wins test whose object another such test of the
  /// iteration also writes (a claim in an inner loop that was unrolled:
  /// several claims per iteration), and that test's store. Ordering the test
  /// alone would let a later iteration's claim pass an earlier one's other
  /// write, so run() keeps the loop serial.
  Instruction *UnorderedClaim = nullptr;
  Instruction *OtherWriter = nullptr;
};

} // namespace

/// `parent[u]` for the loop's own counter u (GAP's bottom-up step: `if
/// (parent[u] < 0) ... parent[u] = v`): each iteration reads and writes an
/// element no other iteration touches, so no test of it races another.
bool memcoro::isIterationsOwnElement(const SplitAnalyses &A, const Loop &L, const LoadInst &Load) {
  std::optional<APInt> Step = constantStepIn(A.SE, L, const_cast<Value *>(Load.getPointerOperand()));
  return Step && Step->abs().uge(A.DL.getTypeStoreSize(Load.getType()).getFixedValue());
}

/// `x = p[i]; if (x < 0) p[i] = v;` (any comparison of the loaded value, or
/// of bits of it, with a constant, the store on one side of it claiming the
/// location: branchesTesting and claimsBehind, ClaimTests.cpp): the first
/// iteration to find the sentinel wins, so the order decides the answer. Only when nothing else in the loop touches the same
/// object: otherwise this is a dependence the test alone does not describe,
/// and when that other access is another such test, UnorderedClaim says so.
void OrderedPlanner::findFirstWriterWins() {
  struct Claim {
    Instruction *Load, *Store;
    const Value *Object;
  };
  SmallVector<Claim, 4> NotAlone;
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (accessedPointer(I))
        Accesses.push_back(&I);
  for (Instruction *I : Accesses) {
    auto *Load = dyn_cast<LoadInst>(I);
    if (!Load || Load->isVolatile())
      continue;
    Value *Ptr = Load->getPointerOperand();
    if (isIterationsOwnElement(A, L, *Load)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: test of the iteration's own element" << *Load << " needs no order\n");
      continue;
    }
    for (BranchInst *Br : branchesTesting(L, *Load)) {
      StoreInst *Store = nullptr;
      for (Instruction *Other : Accesses) {
        auto *S = dyn_cast<StoreInst>(Other);
        if (!S || byteDistance(S->getPointerOperand(), Ptr, A.DL) != 0)
          continue;
        for (unsigned Side = 0; Side < 2; ++Side) {
          BasicBlockEdge Edge(Br->getParent(), Br->getSuccessor(Side));
          if (A.DT.dominates(Edge, S->getParent()) && claimsBehind(A, L, Edge, *S))
            Store = S;
        }
      }
      if (!Store)
        continue;
      const Value *Object = getUnderlyingObject(Ptr);
      bool Alone = all_of(Accesses, [&](Instruction *Other) {
        return Other == Load || Other == Store || getUnderlyingObject(accessedPointer(*Other)) != Object;
      });
      if (!Alone) {
        LLVM_DEBUG(dbgs() << "memcoro-split: first-writer-wins test at" << *Load
                          << " is not the only access to its object; not ordered\n");
        NotAlone.push_back({Load, Store, Object});
        continue;
      }
      if (any_of(Plan.Ordered, [&](const OrderedPoint &P) { return P.At == Load; }))
        continue;
      Plan.Ordered.push_back({OrderedPoint::FirstWriterWins, Load, Store});
      ++NumFirstWriterWins;
    }
  }
  for (const Claim &C : NotAlone)
    for (const Claim &Other : NotAlone)
      if (Other.Store != C.Store && Other.Object == C.Object) {
        UnorderedClaim = C.Load;
        OtherWriter = Other.Store;
        return;
      }
}

std::optional<SerialReason> OrderedPlanner::run() {
  // From an append through memory on, the iteration holds the turn and
  // does not yield (see the banner): the buffer, filled in order, and the
  // counter's object are the prefetcher's and the cache's. A suspension
  // where the turn is taken (before a lock) yields first, then waits.
  auto afterBufferAppend = [&](Instruction *Access) { return runsAfterBufferAppend(Plan, A.DT, Access); };
  for (auto It = Plan.Suspensions.begin(); It != Plan.Suspensions.end();)
    if (all_of(It->Accesses, afterBufferAppend) && afterBufferAppend(It->At) &&
        !is_contained(Plan.BufferAppendStarts, It->At) && !is_contained(Plan.RegisterAppendStarts, It->At)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *It->At << ": an append fills its array in order\n");
      It = Plan.Suspensions.erase(It);
    } else {
      ++It;
    }
  for (CallInst *Marker : getOrderedMarkers(L))
    Plan.Ordered.push_back({OrderedPoint::Region, Marker, nullptr});
  SmallPtrSet<const Value *, 2> Streams;
  for (CallBase *Call : Plan.CallsInPlace)
    if (isInputOutputCall(*Call)) {
      Plan.Ordered.push_back({OrderedPoint::InputOutput, Call, nullptr});
      if (Call->arg_size() && Call->getArgOperand(0)->getType()->isPointerTy())
        if (auto *Stream = dyn_cast<GlobalVariable>(getUnderlyingObject(Call->getArgOperand(0))))
          Streams.insert(Stream);
    }
  // A stream's state set inline before its output (std::setw and std::hex
  // store into std::cout's ios_base) shapes that output: in order with it,
  // or another iteration's output in between resets it.
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if ((isa<LoadInst>(I) || isa<StoreInst>(I)) && Streams.contains(getUnderlyingObject(accessedPointer(I))))
        Plan.Ordered.push_back({OrderedPoint::InputOutput, &I, nullptr});
  for (const AppendCounter &C : Plan.Counters) {
    // A buffered counter holds the turn from its first read to the
    // iteration's end (its starts are added below).
    if (C.Buffered)
      continue;
    // The first read or increment in each block: the ones after it in the
    // same block run with the turn already held.
    SmallVector<Instruction *, 4> Firsts;
    SmallVector<Instruction *, 4> Uses(C.Reads.begin(), C.Reads.end());
    append_range(Uses, C.Increments);
    // Where each runs once increments have sunk (see effectivePosition); an
    // increment sunk to a read runs before it.
    auto runsBefore = [&](Instruction *X, Instruction *Y) {
      bool XInc = is_contained(C.Increments, X), YInc = is_contained(C.Increments, Y);
      Instruction *PX = XInc ? effectivePosition(X) : X, *PY = YInc ? effectivePosition(Y) : Y;
      return PX == PY ? XInc && !YInc : PX->comesBefore(PY);
    };
    for (Instruction *I : Uses) {
      auto Same = find_if(Firsts, [&](Instruction *F) { return F->getParent() == I->getParent(); });
      if (Same == Firsts.end())
        Firsts.push_back(I);
      else if (runsBefore(I, *Same))
        *Same = I;
    }
    // For the remark: a store through the address a read computes.
    Instruction *Store = nullptr;
    std::function<void(Instruction *)> findStore = [&](Instruction *Addr) {
      for (User *U : Addr->users())
        if (!Store && isa<StoreInst>(U))
          Store = cast<StoreInst>(U);
        else if (!Store && isa<GetElementPtrInst>(U))
          findStore(cast<Instruction>(U));
    };
    for (Instruction *R : C.Reads)
      findStore(R);
    for (Instruction *F : Firsts)
      Plan.Ordered.push_back({OrderedPoint::Append, F, Store});
  }
  for (Instruction *Start : Plan.BufferAppendStarts)
    Plan.Ordered.push_back({OrderedPoint::BufferAppend, Start, nullptr});
  for (Instruction *Start : Plan.RegisterAppendStarts)
    Plan.Ordered.push_back({OrderedPoint::RegisterAppend, Start, nullptr});
  findFirstWriterWins();
  for (auto [Load, Store] : findOrderSensitiveUpdates(A, Plan)) {
    Plan.Ordered.push_back({OrderedPoint::OrderedUpdate, Load, Store});
    // In iteration order, the update meets no other iteration's out of
    // order: nothing about it is left to the pragma's promise.
    erase_if(Plan.Assumed, [&](const AssumedIndependent &Pair) {
      return Pair.Store == Store && (Pair.Other == Store || Pair.Other == Load);
    });
  }
  if (UnorderedClaim)
    return SerialReason{"UnorderedClaim",
                        "a first-writer-wins test (" + accessPlace(*UnorderedClaim) + ")" +
                            " is not the only write to its array in an iteration (also written at " +
                            sourcePlace(*OtherWriter) +
                            ", an inner loop's claims unrolled, for example), and memcoro runs only a lone "
                            "test in iteration order",
                        UnorderedClaim};
  if (Plan.Ordered.empty())
    return std::nullopt;
  NumOrderedPoints += Plan.Ordered.size();

  if (Plan.Style == Dispatch::Lockstep || Plan.Style == Dispatch::Pipeline) {
    // Every instruction that needs the order, in one phase; a region from
    // its start to the iteration's end, so in the last phase.
    SmallVector<Instruction *, 8> Needing;
    bool HasRegion = false;
    for (const OrderedPoint &P : Plan.Ordered) {
      Needing.push_back(P.At);
      if (P.Store)
        Needing.push_back(P.Store);
      HasRegion |= P.What == OrderedPoint::Region || P.What == OrderedPoint::BufferAppend ||
                   P.What == OrderedPoint::RegisterAppend || P.What == OrderedPoint::InputOutput;
    }
    for (const AppendCounter &C : Plan.Counters) {
      append_range(Needing, C.Reads);
      append_range(Needing, C.Increments);
    }
    unsigned Phase = phaseOf(Needing.front());
    bool OnePhase = all_of(Needing, [&](Instruction *I) { return phaseOf(I) == Phase; }) &&
                    (!HasRegion || Phase == Plan.Suspensions.size());
    if (OnePhase) {
      LLVM_DEBUG(dbgs() << "memcoro-split: ordered code in lockstep phase " << Phase
                        << ": slot order (pipeline: phase order) is iteration order\n");
      return std::nullopt;
    }
    LLVM_DEBUG(dbgs() << "memcoro-split: ordered code spans several phases; ring dispatch with turns\n");
    Plan.Style = Dispatch::Ring;
  }
  Plan.WaitsForTurn = true;
  for (OrderedPoint &P : Plan.Ordered)
    P.BeforeTurn = canTestBeforeTurn(A, Plan, P);
  return std::nullopt;
}

void memcoro::dropAppendSuspensions(LoopPlan &Plan) {
  auto appends = [&](Instruction *Access) {
    auto *Store = dyn_cast<StoreInst>(Access);
    if (!Store)
      return false;
    // A pointer kept in a register is the address itself: a vector's end
    // (`*end = v`).
    if (Plan.isCounterValue(Store->getPointerOperand()))
      return true;
    for (Value *P = Store->getPointerOperand(); auto *GEP = dyn_cast<GetElementPtrInst>(P);
         P = GEP->getPointerOperand())
      for (const AppendCounter &C : Plan.Counters)
        if (any_of(GEP->indices(), [&](Value *Idx) { return is_contained(C.Reads, Idx); }) ||
            is_contained(C.Reads, GEP))
          return true;
    return false;
  };
  // Coalesced with other accesses (the value appended, loaded in the store's
  // block: `*end = x[k]`), the store leaves the suspension and its address
  // the prefetches: that address is the iteration's only once it holds the
  // turn, and a pointer kept in a register is a phi the lowering deletes
  // once the shared scalar holds its value.
  for (Suspension &S : Plan.Suspensions) {
    SmallVector<Instruction *, 2> Appends(make_filter_range(S.Accesses, appends));
    if (Appends.empty() || Appends.size() == S.Accesses.size())
      continue;
    // The first access opened the suspension; the others were coalesced.
    Plan.Coalesced -= Appends.size() - (Appends.front() == S.Accesses.front());
    LLVM_DEBUG(for (Instruction *I : Appends) dbgs() << "memcoro-split: no prefetch of" << *I << " at" << *S.At
                                                     << ": an append fills its array in order\n");
    erase_if(S.Accesses, appends);
    auto addresses = [&](ArrayRef<Instruction *> Accesses, Value *Ptr) {
      return any_of(Accesses, [&](Instruction *I) { return accessedPointer(*I) == Ptr; });
    };
    erase_if(S.Prefetch, [&](const std::pair<Value *, bool> &P) {
      return addresses(Appends, P.first) && !addresses(S.Accesses, P.first);
    });
  }
  erase_if(Plan.Suspensions, [&](const Suspension &S) {
    bool Drop = all_of(S.Accesses, appends);
    LLVM_DEBUG(if (Drop) dbgs() << "memcoro-split: no suspension at" << *S.At
                                << ": an append fills its array in order\n");
    return Drop;
  });
}

std::optional<SerialReason> memcoro::planOrdered(const SplitAnalyses &A, LoopPlan &Plan) {
  if (auto Why = takeTurnBeforeLocks(A, Plan))
    return Why;
  std::optional<SerialReason> Why = OrderedPlanner(A, Plan).run();
  // An iteration holding the turn does not yield: when every suspension lay
  // past an append's start (a radix scatter's store), nothing is left to
  // overlap, and a schedule of no phase is no schedule.
  if (!Why && Plan.Suspensions.empty() && Plan.Ordered.empty() && Plan.ExitAtLaunch) {
    LLVM_DEBUG(dbgs() << "memcoro-split: every suspension is on the walk that runs at launch\n");
    return SerialReason{"NothingBeforeTurn",
                        "every access worth a suspension is on the walk that finds the next iteration (`p = "
                        "p->next`), which runs in iteration order, at launch: interleaving would overlap nothing",
                        nullptr};
  }
  if (!Why && Plan.Suspensions.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no suspension left before the ordered code\n");
    return SerialReason{"NothingBeforeTurn",
                        "every access worth a suspension comes after the start of code that runs in iteration "
                        "order (an append, from its counter's read to the iteration's end), where an iteration "
                        "does not yield: interleaving would overlap nothing",
                        Plan.Ordered.empty() ? nullptr : Plan.Ordered.front().At};
  }
  if (!Why)
    Why = takeOrderedTurnsBeforeLocks(A, Plan);
  // An iteration holding the turn does not yield, so it would wait for a lock
  // forever whose holder waits for the turn.
  if (!Why && !Plan.Locked.empty() && !Plan.Ordered.empty())
    return SerialReason{"SplitUpdate",
                        "a read-modify-write of one memory location would be split by a suspension point, and "
                        "the lock that keeps it whole cannot be combined with code that runs in iteration order",
                        Plan.Locked.front().second};
  return Why;
}

void memcoro::readSharedCounter(const AppendCounter &C, AllocaInst *Slot, ArrayRef<Instruction *> Users,
                                function_ref<bool(Value *)> FromCounter,
                                DenseMap<Instruction *, Instruction *> &ReadAt) {
  for (Instruction *U : Users) {
    IRBuilder<> B(U);
    B.SetCurrentDebugLocation(U->getDebugLoc());
    Instruction *Current = B.CreateLoad(C.Phi->getType(), Slot, C.Phi->getName() + ".current");
    // A compare of a vector's end with its capacity reads two scalars: the
    // wait for the turn goes before the first load, or the value it reads
    // is the one from before another iteration's append.
    ReadAt.try_emplace(U, Current);
    for (Use &Op : U->operands())
      if (FromCounter(Op.get()))
        Op.set(Current);
  }
}

SmallVector<AllocaInst *, 1> memcoro::demoteAppendCounters(const LoopPlan &Plan, IRBuilder<> &Entry,
                                                           IRBuilder<> &Preheader,
                                                           DenseMap<Instruction *, Instruction *> &ReadAt) {
  SmallVector<AllocaInst *, 1> Shared;
  for (const AppendCounter &C : Plan.Counters) {
    PHINode *Phi = C.Phi;
    AllocaInst *Slot = Entry.CreateAlloca(Phi->getType(), nullptr, Phi->getName() + ".memcoro.shared");
    Shared.push_back(Slot);
    Preheader.CreateStore(Phi->getIncomingValueForBlock(Plan.Preheader), Slot);
    if (C.Buffered) {
      demoteRegisterAppend(Plan.L, C, Slot, ReadAt);
    } else {
      SmallPtrSet<Instruction *, 16> InClosure(C.Closure.begin(), C.Closure.end());
      for (Instruction *Inc : C.Increments)
        Inc->moveBefore(effectivePosition(Inc));
      // Every use of a counter value becomes a load of the shared scalar right
      // before it; every increment stores its result.
      SmallVector<Instruction *, 4> Users(C.Reads.begin(), C.Reads.end());
      append_range(Users, C.Increments);
      readSharedCounter(
          C, Slot, Users,
          [&](Value *Op) { return isa<Instruction>(Op) && InClosure.contains(cast<Instruction>(Op)); }, ReadAt);
      for (Instruction *Inc : C.Increments)
        (new StoreInst(Inc, Slot, Inc->getNextNode()))->setDebugLoc(Inc->getDebugLoc());
    }
    // The counter's phis are dead in the loop now. A use after the loop (the
    // LCSSA phi of the final value) is the lowering's to redirect to the
    // scalar.
    for (Instruction *I : C.Closure)
      if (isa<PHINode>(I))
        I->replaceUsesWithIf(PoisonValue::get(I->getType()), [&](Use &U) {
          return Plan.L.contains(cast<Instruction>(U.getUser()));
        });
  }
  return Shared;
}

namespace {

/// The turn (see the banner): shared scalars, promoted to registers.
class TurnCodeGen final : public WaitCodeGen {
public:
  using WaitCodeGen::WaitCodeGen;

  void createState(IRBuilder<> &Entry) override {
    Turn = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.turn");
    Owner = Entry.CreateAlloca(Entry.getInt64Ty(), nullptr, "memcoro.turn.slot");
  }

  void initState(IRBuilder<> &B) override {
    B.CreateStore(B.getInt64(0), Turn);
    B.CreateStore(B.getInt64(-1), Owner);
  }

  /// The slot remembers the number of its iteration, to compare with the
  /// turn whenever it tests again.
  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override {
    IterField = Fields.size();
    Fields.push_back(Type::getInt64Ty(S.Ctx));
  }

  void emitIterationStart(IRBuilder<> &B, Value *Slot, Value *K) override {
    B.CreateStore(K, S.Frame.fieldPtr(B, Slot, IterField));
  }

  Value *emitMayPass(IRBuilder<> &B, Value *Slot, unsigned W) override {
    Value *Mine = B.CreateLoad(B.getInt64Ty(), S.Frame.fieldPtr(B, Slot, IterField), "memcoro.iter");
    return B.CreateICmpEQ(B.CreateLoad(B.getInt64Ty(), Turn), Mine, "memcoro.my.turn");
  }

  void emitPassed(IRBuilder<> &B, Value *Slot, unsigned W) override { B.CreateStore(Slot, Owner); }

  Value *emitSkipsSuspension(IRBuilder<> &B, Value *Slot) override {
    return B.CreateICmpEQ(B.CreateLoad(B.getInt64Ty(), Owner), Slot, "memcoro.holds.turn");
  }

  /// The iteration has passed its last wait point: the turn moves on.
  /// An iteration ends in turn: one that skipped a region still waits here.
  bool waitsAtIterationEnd() const override { return true; }

  void emitIterationEnd(IRBuilder<> &B, Value *Slot) override {
    B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Turn), B.getInt64(1)), Turn);
    B.CreateStore(B.getInt64(-1), Owner);
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override { Allocas.append({Turn, Owner}); }

private:
  /// The oldest iteration that has not ended, and the slot holding it once
  /// it has passed an ordered point (-1 before).
  AllocaInst *Turn = nullptr;
  AllocaInst *Owner = nullptr;
  unsigned IterField = 0;
};

} // namespace

std::unique_ptr<WaitCodeGen> memcoro::createTurnCodeGen(Skeleton &S) { return std::make_unique<TurnCodeGen>(S); }
