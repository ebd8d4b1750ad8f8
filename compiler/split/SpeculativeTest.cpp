//===- SpeculativeTest.cpp - a first-writer-wins test run before the turn -===//
//
// A step of memcoro-split (see SplitInternal.h), beside SplitOrdered.cpp: a
// first-writer-wins test `if (parent[v] < 0) parent[v] = u` on the ring need
// not wait for the iteration's turn before it reads. Only one store of the
// loop writes the object, behind the test, and the value it stores fails the
// test, so the location goes from "free" to "taken" once and never back, and
// only the iteration holding the turn takes it. An iteration that finds it
// taken therefore sees what the serial loop would: it was taken by an
// earlier iteration (or before the loop) and stays so. Only "free" may be
// stale, so only that side waits, reads again in turn and tests again:
//
//   %x = load parent[v]           ; any time (the plan's suspension first)
//   br (%x < 0), %claim, %skip
//     becomes
//   br (%x < 0), %recheck, %skip
// recheck:                        ; the iteration waits for its turn here
//   %x.turn = load parent[v]
//   br (%x.turn < 0), %claim, %skip
//
// The speculative load is tagged `!memcoro.speculative`: -memcoro-check
// reports the re-read, which runs in order, instead of it.
//
// In the bfs top-down step this lets every iteration walk its adjacency
// list while an earlier one holds the turn: only the few neighbours still
// free (2-3% of the edges of a Kronecker graph's big levels) wait. Hidden
// behind -memcoro-test-before-turn until a suspension inside an inner loop
// can be taken once per several of its iterations (see the option).
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumSpeculativeTests, "Number of first-writer-wins tests read before the iteration's turn");

namespace {

/// The test of a first-writer-wins point: its compare and branch, and which
/// successor leads to the store.
struct TestShape {
  ICmpInst *Cmp = nullptr;
  BranchInst *Br = nullptr;
  unsigned StoreSide = 0;
};

std::optional<TestShape> shapeOf(const SplitAnalyses &A, const LoopPlan &Plan, const OrderedPoint &P) {
  auto *Load = dyn_cast<LoadInst>(P.At);
  auto *Store = dyn_cast_or_null<StoreInst>(P.Store);
  auto fail = [&](const char *Why) -> std::optional<TestShape> {
    LLVM_DEBUG(dbgs() << "memcoro-split: first-writer-wins test at" << *P.At << " waits for its turn: " << Why
                      << "\n");
    return std::nullopt;
  };
  if (!Load || !Store || !Load->isSimple() || !Store->isSimple())
    return fail("not a plain load and store");
  if (Store->getValueOperand()->getType() != Load->getType())
    return fail("the store writes another type than the test reads");
  // The loaded value must not flow anywhere the re-read does not replace it.
  TestShape T;
  for (User *U : Load->users())
    if (auto *Cmp = dyn_cast<ICmpInst>(U); Cmp && Cmp->getOperand(0) == Load && isa<Constant>(Cmp->getOperand(1)))
      T.Cmp = Cmp;
  if (!T.Cmp || !T.Cmp->hasOneUse() || !(T.Br = dyn_cast<BranchInst>(T.Cmp->user_back())) ||
      !T.Br->isConditional() || !Plan.L.contains(T.Br))
    return fail("the loaded value is tested more than once");
  BasicBlock *BrBB = T.Br->getParent();
  if (A.DT.dominates(BasicBlockEdge(BrBB, T.Br->getSuccessor(1)), Store->getParent()))
    T.StoreSide = 1;
  else if (!A.DT.dominates(BasicBlockEdge(BrBB, T.Br->getSuccessor(0)), Store->getParent()))
    return fail("the store is not behind the test");
  if (T.Br->getSuccessor(0) == T.Br->getSuccessor(1))
    return fail("both sides of the test go to one block");
  BasicBlockEdge StoreEdge(BrBB, T.Br->getSuccessor(T.StoreSide));
  for (Use &U : Load->uses())
    if (U.getUser() != T.Cmp && !A.DT.dominates(StoreEdge, U))
      return fail("the loaded value is used where the test may have failed");
  // The value stored must fail the test: once taken, a location stays taken.
  Value *V = Store->getValueOperand();
  ConstantRange Stored =
      computeConstantRange(V, T.Cmp->isSigned(), /*UseInstrInfo=*/true, &A.AC, Store, &A.DT)
          .intersectWith(ConstantRange::fromKnownBits(computeKnownBits(V, A.DL, 0, &A.AC, Store, &A.DT),
                                                      T.Cmp->isSigned()));
  ConstantRange Passes =
      ConstantRange::makeExactICmpRegion(T.Cmp->getPredicate(), cast<Constant>(T.Cmp->getOperand(1))->getUniqueInteger());
  bool Fails = T.StoreSide == 0 ? Stored.intersectWith(Passes).isEmptySet() : Passes.contains(Stored);
  if (!Fails)
    return fail("the value stored may pass the test again");
  return T;
}

} // namespace

// Off by default: on the suite's bfs it is slower (docs/bench.md, "bfs and
// mcf with ordered code"). An iteration that may test before its turn walks
// its adjacency list with a yield at every edge, about 25 instructions each,
// where the turn's holder walks it without yielding in about 8, and the
// parents it prefetches are mostly in the LLC already.
static cl::opt<bool> TestBeforeTurn("memcoro-test-before-turn", cl::Hidden, cl::init(false),
                                    cl::desc("Let a first-writer-wins test read before the iteration's turn and "
                                             "wait only to claim"));

bool memcoro::canTestBeforeTurn(const SplitAnalyses &A, const LoopPlan &Plan, const OrderedPoint &P) {
  return TestBeforeTurn && P.What == OrderedPoint::FirstWriterWins && P.At->getType()->isIntegerTy() && shapeOf(A, Plan, P);
}

Instruction *memcoro::emitTestBeforeTurn(const SplitAnalyses &A, const LoopPlan &Plan, const OrderedPoint &P) {
  std::optional<TestShape> T = shapeOf(A, Plan, P);
  assert(T && "the plan checked the test's shape");
  auto *Load = cast<LoadInst>(P.At);
  BasicBlock *BrBB = T->Br->getParent();
  BasicBlock *Claim = T->Br->getSuccessor(T->StoreSide), *Skip = T->Br->getSuccessor(1 - T->StoreSide);
  BasicBlock *Recheck = SplitEdge(BrBB, Claim, &A.DT, &A.LI);
  Recheck->setName("memcoro.recheck");
  Load->setMetadata("memcoro.speculative", MDNode::get(Load->getContext(), {}));

  Instruction *OldTerm = Recheck->getTerminator();
  auto *Reread = cast<LoadInst>(Load->clone());
  Reread->setMetadata("memcoro.speculative", nullptr);
  Reread->setName("memcoro.reread");
  Reread->insertBefore(OldTerm);
  auto *Cmp = cast<ICmpInst>(T->Cmp->clone());
  Cmp->setOperand(0, Reread);
  Cmp->insertBefore(OldTerm);
  auto *Br = BranchInst::Create(T->StoreSide == 0 ? Claim : Skip, T->StoreSide == 0 ? Skip : Claim, Cmp, OldTerm);
  Br->setDebugLoc(T->Br->getDebugLoc());
  OldTerm->eraseFromParent();
  // The skip side gets a new way in; its phis take what they took from the
  // test's block (never the loaded value: shapeOf).
  for (PHINode &Phi : Skip->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(BrBB), Recheck);
  A.DT.insertEdge(Recheck, Skip);
  // What the store side computed from the old value, it computes from the
  // value read in turn.
  Load->replaceUsesWithIf(Reread, [&](Use &U) { return U.getUser() != T->Cmp && U.getUser() != Reread; });
  ++NumSpeculativeTests;
  LLVM_DEBUG(dbgs() << "memcoro-split: first-writer-wins test at" << *Load
                    << " reads before the turn; waits only to claim, at" << *Reread << "\n");
  return Reread;
}
