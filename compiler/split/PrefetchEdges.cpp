//===- PrefetchEdges.cpp - an inner loop's stream prefetched across rows --===//
//
// A code generator of memcoro-split beside PrefetchAhead.cpp, for the loops
// the cost model keeps serial because the core already overlaps their inner
// loop's independent loads: a CSR row walk, `for (k = rowstr[j]; k <
// rowstr[j + 1]; k++) sum += a[k] * p[colidx[k]]` (NPB CG) or the neighbour
// sum of a pull PageRank (GAP). Suspending per neighbour ran at 0.27x serial;
// prefetching inside the inner loop cost it its vectorisation and, on rows
// of 5 elements, never reached far enough ahead (0.67x and 0.96x,
// docs/bench.md). Here the inner loop is left as written. The rows tile one
// stream (row j + 1 starts where row j ends), so the marked loop's body runs
// a small loop of its own before each row: the row shifted Elements ahead
// along the stream, `for (k = rowstr[j] + D; k < min(rowstr[j + 1] + D,
// END); k++) prefetch(&p[colidx[k]])`. Over the rows it prefetches every
// element once, D elements before the inner loop reads it, whatever the
// rows' lengths: what a user writes by hand (bench/costmodel/edges.c; 1.4-1.8x
// serial there with the gathered array beyond the last-level cache, where a
// distance in rows reached 1.3-1.5x).
//
// The loop keeps its order and its values; what must hold is that the added
// loads (colidx[k] ahead) never fault. They read only elements the loop reads:
//   - END is the stream's end as of the loop's last iteration, read before
//     the loop from the sequence load the bound comes from (the trip count is
//     known when it starts, and the loop does not write the sequence);
//   - the rows tile the stream: the next row's start is this row's end (a
//     value carried over, or the same sequence read one element on); for any
//     sequence of starts, the rows [s_j, s_j+1) of rows j..last then cover
//     [s_j, END) in the order of the inner loop's exit test, and the row
//     shifted ahead lies in it;
//   - the inner loop is entered whenever its row is not empty, leaves only by
//     its exit test, and steps through every element of its row; each load on
//     the way to the address runs in every inner iteration, from an address
//     computed from the element and from values the marked loop does not
//     change, in memory the marked loop does not write.
// The remote access itself is only prefetched. Cache-resident runs pay the
// prefetch loop for nothing: PrefetchSwitch.cpp keeps the loop as written
// beside it and picks one at run time.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumEdgeLoops, "Number of marked loops whose inner loop's stream is prefetched across rows");

static cl::opt<bool> UsePrefetchEdges("memcoro-prefetch-edges", cl::Hidden, cl::init(true),
                                      cl::desc("Keep loops whose inner loads the core overlaps in serial order, "
                                               "their inner loop's stream prefetched ahead across rows"));

// Hand sweeps with the gathered array at 64 MiB (bench/costmodel/edges.c):
// 32 elements ahead gained 1.1x, 64 1.2-1.65x, 128 1.4-1.85x, 256 1.25-1.8x,
// on rows of 7 and of 8 elements alike.
static cl::opt<unsigned> EdgeDistance("memcoro-prefetch-elements", cl::Hidden, cl::init(128),
                                      cl::desc("Elements of an inner loop's stream prefetched ahead"));

/// The first instruction of \p L that may write what \p Load reads; the
/// markers of remote() write nothing the program reads.
static Instruction *writerOf(const SplitAnalyses &A, const Loop &L, const LoadInst &Load) {
  return firstWriterIn(A, L, MemoryLocation::getBeforeOrAfter(Load.getPointerOperand(), Load.getAAMetadata()),
                       [](const Instruction &I) {
                         auto *Call = dyn_cast<CallInst>(&I);
                         Function *Callee = Call ? Call->getCalledFunction() : nullptr;
                         return Callee && Callee->getName() == RemoteBaseFn;
                       });
}

namespace {

/// The instructions from an inner loop's induction variable to an address,
/// to be computed again for another element.
class ElementChain {
public:
  /// \p Planned: the planner has checked the chain's loads (the run-time
  /// switch's counters, added since, write the stack only).
  ElementChain(const SplitAnalyses &A, Loop &L, Loop &Inner, PHINode &IV, bool Planned = false)
      : A(A), L(L), Inner(Inner), IV(IV), Planned(Planned) {}
  bool visit(Value *V, unsigned Depth = 16);
  Value *emit(IRBuilder<> &B, Value *Element, Value *V);

private:
  const SplitAnalyses &A;
  Loop &L, &Inner;
  PHINode &IV;
  bool Planned;
  SetVector<Instruction *> Order;
  SmallPtrSet<Value *, 8> Visited;
};

} // namespace

bool ElementChain::visit(Value *V, unsigned Depth) {
  if (V == &IV || Visited.contains(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  // Another row computes its addresses from the same values only if the
  // marked loop does not change them.
  if (!I || !Inner.contains(I)) {
    if (L.isLoopInvariant(V))
      return true;
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch across rows: the address uses" << *V
                      << ", which the marked loop computes\n");
    return false;
  }
  if (Depth == 0 || isa<PHINode>(I))
    return false;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    if (!Load->isSimple() || !A.DT.dominates(Load->getParent(), Inner.getLoopLatch())) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch across rows:" << *Load << " is not read in every inner iteration\n");
      return false;
    }
    if (Instruction *Writer = Planned ? nullptr : writerOf(A, L, *Load)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch across rows:" << *Load << " may be written at" << *Writer
                        << "\n");
      return false;
    }
  } else if (!(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) ||
             !isSafeToSpeculativelyExecute(I)) {
    return false;
  }
  for (Value *Op : I->operands())
    if (!visit(Op, Depth - 1))
      return false;
  Visited.insert(I);
  Order.insert(I);
  return true;
}

Value *ElementChain::emit(IRBuilder<> &B, Value *Element, Value *V) {
  DenseMap<Value *, Value *> Clones = {{&IV, Element}};
  for (Instruction *I : Order)
    Clones[I] = cloneForReadAhead(
        B, *I,
        [&](Value *Op) {
          Value *New = Clones.lookup(Op);
          return New ? New : Op;
        },
        ".edge");
  return Clones.lookup(V);
}

namespace {

class EdgePlanner {
public:
  EdgePlanner(const SplitAnalyses &A, Loop &L) : A(A), L(L) {}
  std::optional<EdgePrefetch> plan(Loop &Inner, ArrayRef<Instruction *> Accesses);

private:
  LoadInst *sequenceLoad(Value *V, unsigned Depth = 4) const;
  bool unwritten(LoadInst &Load) const { return !writerOf(A, L, Load); }
  bool tiles(Value *Start, Value *End, unsigned Depth = 4) const;
  bool enteredWhenNotEmpty(EdgePrefetch &E, ICmpInst::Predicate Order) const;

  const SplitAnalyses &A;
  Loop &L;
};

} // namespace

/// The load of an affine, rising sequence of the marked loop that \p V is
/// computed from through casts and invariant offsets, read in every
/// iteration: `rowstr[j + 1]`, `neighs + index[u + 1]`.
LoadInst *EdgePlanner::sequenceLoad(Value *V, unsigned Depth) const {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Depth == 0)
    return nullptr;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    std::optional<APInt> Step = constantStepIn(A.SE, L, Load->getPointerOperand());
    bool Ok = Load->isSimple() && A.LI.getLoopFor(Load->getParent()) == &L && Step && Step->isStrictlyPositive() &&
              A.DT.dominates(Load->getParent(), L.getLoopLatch());
    return Ok ? Load : nullptr;
  }
  if (!(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) || !isSafeToSpeculativelyExecute(I))
    return nullptr;
  LoadInst *Found = nullptr;
  for (Value *Op : I->operands()) {
    if (L.isLoopInvariant(Op))
      continue;
    if (Found || !(Found = sequenceLoad(Op, Depth - 1)))
      return nullptr;
  }
  return Found;
}

/// Whether the next iteration's \p Start is this iteration's \p End: carried
/// over by a header phi, or computed alike from one sequence read one
/// element on (`rowstr[j]` and `rowstr[j + 1]`), which the loop does not write.
bool EdgePlanner::tiles(Value *Start, Value *End, unsigned Depth) const {
  if (auto *Phi = dyn_cast<PHINode>(Start); Phi && Phi->getParent() == L.getHeader())
    return Phi->getIncomingValueForBlock(L.getLoopLatch()) == End;
  auto *S = dyn_cast<Instruction>(Start), *E = dyn_cast<Instruction>(End);
  if (!S || !E || Depth == 0 || S->getOpcode() != E->getOpcode() || S->getType() != E->getType())
    return false;
  if (auto *LS = dyn_cast<LoadInst>(S)) {
    auto *LE = cast<LoadInst>(E);
    LoadInst *SeqS = sequenceLoad(LS), *SeqE = sequenceLoad(LE);
    if (!SeqS || !SeqE || !unwritten(*LS)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: row start" << *LS << " is not read from a sequence the loop leaves as it is\n");
      return false;
    }
    auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(LS->getPointerOperand()));
    const SCEV *Next = A.SE.getAddExpr(AR, AR->getStepRecurrence(A.SE));
    LLVM_DEBUG(dbgs() << "memcoro-split: row start " << *AR << ", end " << *A.SE.getSCEV(LE->getPointerOperand())
                      << ", next start " << *Next << "\n");
    return A.SE.getSCEV(LE->getPointerOperand()) == Next;
  }
  if (!S->isSameOperationAs(E) || !(isa<GetElementPtrInst>(S) || isa<CastInst>(S) || isa<BinaryOperator>(S)))
    return false;
  unsigned Differ = 0;
  for (auto [OpS, OpE] : zip(S->operands(), E->operands()))
    if (OpS != OpE && (++Differ > 1 || !tiles(OpS, OpE, Depth - 1)))
      return false;
  return Differ == 1;
}

/// Whether \p Guarded is \p V, or \p V is computed from it in a way that
/// keeps the order of \p Pred: sign extension keeps both orders, zero
/// extension the unsigned one; an address from an index (`neighs + index[u]`)
/// keeps equality.
static bool sameInOrder(Value *Guarded, Value *V, ICmpInst::Predicate Pred) {
  using namespace PatternMatch;
  auto *GEP = dyn_cast<GetElementPtrInst>(V);
  return Guarded == V || match(V, m_SExt(m_Specific(Guarded))) ||
         (!ICmpInst::isSigned(Pred) && match(V, m_ZExt(m_Specific(Guarded)))) ||
         (ICmpInst::isEquality(Pred) && GEP && GEP->getNumIndices() == 1 && GEP->idx_begin()->get() == Guarded);
}

/// \p V at the end of \p At: \p V, or a copy of the one instruction (an
/// extension, an address) that computes it from values available there.
static bool availableAt(const DominatorTree &DT, Value *V, BasicBlock *At) {
  auto *I = dyn_cast<Instruction>(V);
  auto dominates = [&](Value *Op) {
    auto *OpI = dyn_cast<Instruction>(Op);
    return !OpI || DT.dominates(OpI, At->getTerminator());
  };
  return dominates(V) || ((isa<CastInst>(I) || isa<GetElementPtrInst>(I)) && isSafeToSpeculativelyExecute(I) &&
                          all_of(I->operands(), dominates));
}

/// availableAt's value, before \p At's terminator, where \p B inserts.
static Value *materializeAt(const DominatorTree &DT, IRBuilder<> &B, BasicBlock *At, Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At->getTerminator()))
    return V;
  Instruction *C = I->clone();
  C->dropPoisonGeneratingFlags();
  C->setName(I->getName() + ".row");
  return B.Insert(C);
}

/// Whether the inner loop, whose exit test is `element \p Pred end`, is
/// entered in every iteration whose row is not empty, and in which order
/// rows are: its preheader runs in every iteration, or its guard compares
/// start and end (or what they are extended from). Sets E.At and E.Signed.
bool EdgePlanner::enteredWhenNotEmpty(EdgePrefetch &E, ICmpInst::Predicate Pred) const {
  BasicBlock *Pre = E.Inner->getLoopPreheader();
  // A row `element != end` with start after end would read through the
  // wrap of the address space: in a program that runs, start <= end.
  auto orderOf = [](ICmpInst::Predicate P) {
    return P == ICmpInst::ICMP_SLT || P == ICmpInst::ICMP_SLE ? ICmpInst::ICMP_SLT : ICmpInst::ICMP_ULT;
  };
  if (A.DT.dominates(Pre, L.getLoopLatch())) {
    E.At = Pre;
    E.Signed = orderOf(Pred) == ICmpInst::ICMP_SLT;
    return true;
  }
  BasicBlock *Guard = Pre->getSinglePredecessor();
  auto *Br = Guard ? dyn_cast<BranchInst>(Guard->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || A.LI.getLoopFor(Guard) != &L || !A.DT.dominates(Guard, L.getLoopLatch()))
    return false;
  ICmpInst::Predicate In = Br->getSuccessor(0) == Pre ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *X = Cmp->getOperand(0), *Y = Cmp->getOperand(1);
  if (sameInOrder(Y, E.Start, In) && sameInOrder(X, E.End, In))
    In = ICmpInst::getSwappedPredicate(In), std::swap(X, Y);
  else if (!sameInOrder(X, E.Start, In) || !sameInOrder(Y, E.End, In))
    return false;
  // start < end (in the exit test's order) must take the guard's way in;
  // with `!=`, the guard's order is the rows' order.
  ICmpInst::Predicate Order = Pred == ICmpInst::ICMP_NE ? orderOf(In) : Pred;
  if (In != Order && In != ICmpInst::ICMP_NE && In != ICmpInst::getNonStrictPredicate(Order))
    return false;
  E.At = Guard;
  E.Signed = Order == ICmpInst::ICMP_SLT;
  return true;
}

std::optional<EdgePrefetch> EdgePlanner::plan(Loop &Inner, ArrayRef<Instruction *> Accesses) {
  auto bail = [&](const char *Why) -> std::optional<EdgePrefetch> {
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch across rows for inner loop " << Inner.getHeader()->getName()
                      << ": " << Why << "\n");
    return std::nullopt;
  };
  BasicBlock *Latch = Inner.getLoopLatch(), *Pre = Inner.getLoopPreheader();
  if (Inner.getParentLoop() != &L || !Latch || !Pre || Inner.getExitingBlock() != Latch)
    return bail("not a loop of the marked loop's body with one exit at its latch");
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp)
    return bail("its exit test is not a comparison");
  ICmpInst::Predicate Pred = Br->getSuccessor(0) == Inner.getHeader() ? Cmp->getPredicate()
                                                                       : Cmp->getInversePredicate();
  EdgePrefetch E;
  E.Inner = &Inner;
  for (PHINode &Phi : Inner.getHeader()->phis()) {
    Value *Next = Phi.getIncomingValueForBlock(Latch);
    if (Cmp->getOperand(0) == Next) {
      E.IV = &Phi, E.End = Cmp->getOperand(1);
    } else if (Cmp->getOperand(1) == Next) {
      E.IV = &Phi, E.End = Cmp->getOperand(0);
      Pred = ICmpInst::getSwappedPredicate(Pred);
    } else {
      continue;
    }
    break;
  }
  if (!E.IV || !Inner.isLoopInvariant(E.End))
    return bail("its exit test does not compare its induction variable with a bound");
  if (Pred != ICmpInst::ICMP_SLT && Pred != ICmpInst::ICMP_ULT && Pred != ICmpInst::ICMP_NE)
    return bail("its exit test is not `element < end` or `element != end`");
  std::optional<APInt> Step = constantStepIn(A.SE, Inner, E.IV);
  // An integer steps through every element of its row, a pointer through
  // every byte (a step of the element's size).
  if (!Step || !Step->isStrictlyPositive() || (E.IV->getType()->isIntegerTy() && !Step->isOne()))
    return bail("its induction variable does not step through every element of its row");
  E.Start = E.IV->getIncomingValueForBlock(Pre);
  if (!tiles(E.Start, E.End))
    return bail("its rows do not tile one stream (the next row's start is not this row's end)");
  if (!(E.EndLoad = sequenceLoad(E.End)) || !unwritten(*E.EndLoad))
    return bail("its end is not read from a sequence of the marked loop that the loop does not write");
  if (!enteredWhenNotEmpty(E, Pred))
    return bail("it is not entered in every iteration whose row is not empty");
  if (!availableAt(A.DT, E.Start, E.At) || !availableAt(A.DT, E.End, E.At))
    return bail("its row's start or end is computed after the inner loop is entered");
  ElementChain Chain(A, L, Inner, *E.IV);
  for (Instruction *Access : Accesses)
    if (Chain.visit(accessedPointer(*Access)) &&
        none_of(E.Accesses, [&](Instruction *P) { return sameLine(accessedPointer(*P), accessedPointer(*Access), A.DL); }))
      E.Accesses.push_back(Access);
  if (E.Accesses.empty())
    return bail("no remote address is computed from the element and values the loop does not change");
  E.Elements = std::max(1u, EdgeDistance.getValue());
  return E;
}

bool memcoro::planPrefetchEdges(const SplitAnalyses &A, LoopPlan &Plan) {
  Loop &L = Plan.L;
  if (!UsePrefetchEdges || !tripCountKnownAhead(A, L)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no prefetch across rows for loop " << L.getHeader()->getName()
                      << ": off, or its last iteration is not known when it starts\n");
    return false;
  }
  MapVector<Loop *, SmallVector<Instruction *, 2>> Inner;
  for (const NotSuspended &N : Plan.NotWorth)
    if (N.What == NotSuspended::OverlappedInnerLoop)
      Inner[A.LI.getLoopFor(N.Access->getParent())].push_back(N.Access);
  for (auto &[Of, Accesses] : Inner)
    if (std::optional<EdgePrefetch> E = EdgePlanner(A, L).plan(*Of, Accesses)) {
      Plan.Edges = std::move(E);
      return true;
    }
  return false;
}

namespace {

/// The stream's end as of the marked loop's last iteration, computed in its
/// preheader: End's computation with its sequence read at the last element.
Value *streamEnd(const SplitAnalyses &A, Loop &L, const EdgePrefetch &E, IRBuilder<> &B) {
  auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(E.EndLoad->getPointerOperand()));
  SCEVExpander Expander(A.SE, A.DL, "memcoro.edge");
  const SCEV *Last = AR->evaluateAtIteration(A.SE.getBackedgeTakenCount(&L), A.SE);
  Value *LastPtr = Expander.expandCodeFor(Last, E.EndLoad->getPointerOperandType(), &*B.GetInsertPoint());
  DenseMap<Value *, Value *> Clones = {
      {E.EndLoad, B.CreateAlignedLoad(E.EndLoad->getType(), LastPtr, E.EndLoad->getAlign(), "memcoro.edge.last")}};
  // End is computed from the load through instructions of one operand each
  // that varies (sequenceLoad): clone them from the load up.
  SmallVector<Instruction *, 4> Path;
  for (Value *V = E.End; V != E.EndLoad;) {
    auto *I = cast<Instruction>(V);
    Path.push_back(I);
    V = *find_if(I->operands(), [&](Value *Op) { return !L.isLoopInvariant(Op); });
  }
  for (Instruction *I : reverse(Path)) {
    Instruction *C = I->clone();
    for (Use &Op : C->operands())
      if (Value *New = Clones.lookup(Op.get()))
        Op.set(New);
    C->dropPoisonGeneratingFlags();
    C->setName(I->getName() + ".last");
    B.Insert(C);
    Clones[I] = C;
  }
  return Clones.lookup(E.End);
}

} // namespace

void memcoro::emitPrefetchEdges(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  ++NumEdgeLoops;
  Loop &L = Plan.L;
  const EdgePrefetch &E = *Plan.Edges;
  DomTreeUpdater DTU(A.DT, DomTreeUpdater::UpdateStrategy::Eager);
  bool IsPtr = E.IV->getType()->isPointerTy();
  int64_t Step = cast<SCEVConstant>(cast<SCEVAddRecExpr>(A.SE.getSCEV(E.IV))->getStepRecurrence(A.SE))
                     ->getAPInt()
                     .getSExtValue();
  LLVMContext &Ctx = L.getHeader()->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  // Elements are compared as 64-bit integers in the exit test's order, so
  // that `start + distance` cannot wrap; pointers as pointers.
  auto widen = [&](IRBuilder<> &B, Value *V) {
    if (IsPtr || V->getType() == I64)
      return V;
    return E.Signed ? B.CreateSExt(V, I64) : B.CreateZExt(V, I64);
  };
  auto advance = [&](IRBuilder<> &B, Value *V, int64_t Elements, const Twine &Name) {
    return IsPtr ? B.CreatePtrAdd(V, B.getInt64(Elements * Step), Name) : B.CreateAdd(V, B.getInt64(Elements), Name);
  };
  auto less = [&](IRBuilder<> &B, Value *X, Value *Y, const Twine &Name) {
    return E.Signed ? B.CreateICmpSLT(X, Y, Name) : B.CreateICmpULT(X, Y, Name);
  };
  auto min = [&](IRBuilder<> &B, Value *X, Value *Y, const Twine &Name) {
    return B.CreateSelect(less(B, X, Y, Name + ".lt"), X, Y, Name);
  };

  IRBuilder<> PB(L.getLoopPreheader()->getTerminator());
  PB.SetCurrentDebugLocation(L.getStartLoc());
  Value *End = widen(PB, streamEnd(A, L, E, PB));
  // A pointer element is read whole: it must end by the stream's end.
  if (IsPtr && Step > 1)
    End = PB.CreatePtrAdd(End, PB.getInt64(1 - Step), "memcoro.edge.lastelem");

  // At: lo = start + D; hi = min(end + D, END); the prefetch loop; the rest.
  BasicBlock *At = E.At;
  BasicBlock *Rest = SplitBlock(At, At->getTerminator(), &DTU, &A.LI, nullptr, At->getName() + ".rows");
  BasicBlock *Body = BasicBlock::Create(Ctx, "memcoro.edge.prefetch", At->getParent(), Rest);
  IRBuilder<> B(At->getTerminator());
  B.SetCurrentDebugLocation(E.Accesses.front()->getDebugLoc());
  Value *Start = widen(B, materializeAt(A.DT, B, At, E.Start));
  Value *Lo = advance(B, Start, E.Elements, "memcoro.edge.lo");
  // (A start that wrapped would be below the row.)
  Lo = B.CreateSelect(less(B, Lo, Start, "memcoro.edge.wrapped"), Start, Lo);
  Value *Hi = min(B, advance(B, widen(B, materializeAt(A.DT, B, At, E.End)), E.Elements, "memcoro.edge.ahead"), End, "memcoro.edge.hi");
  Instruction *ToRest = At->getTerminator();
  B.CreateCondBr(less(B, Lo, Hi, "memcoro.edge.any"), Body, Rest);
  ToRest->eraseFromParent();

  IRBuilder<> BB(Body);
  BB.SetCurrentDebugLocation(E.Accesses.front()->getDebugLoc());
  PHINode *K = BB.CreatePHI(Lo->getType(), 2, "memcoro.edge.k");
  K->addIncoming(Lo, At);
  Value *Element = IsPtr || K->getType() == E.IV->getType() ? static_cast<Value *>(K)
                                                             : BB.CreateTrunc(K, E.IV->getType());
  ElementChain Chain(A, L, *E.Inner, *E.IV, /*Planned=*/true);
  SmallVector<std::string, 2> Said;
  for (Instruction *Access : E.Accesses) {
    bool Planned = Chain.visit(accessedPointer(*Access));
    assert(Planned && "the chain the planner accepted");
    (void)Planned;
    Value *Target = Chain.emit(BB, Element, accessedPointer(*Access));
    BB.CreateIntrinsic(Intrinsic::prefetch, {Target->getType()},
                       {Target, BB.getInt32(isa<StoreInst>(Access)), BB.getInt32(3), BB.getInt32(1)});
    Said.push_back(accessPlace(*Access));
  }
  Value *Next = advance(BB, K, 1, "memcoro.edge.next");
  K->addIncoming(Next, Body);
  auto *Back = BB.CreateCondBr(less(BB, Next, Hi, "memcoro.edge.more"), Body, Rest);
  // A row is a few elements: unrolled by 8, the loop ran its remainder loop
  // and two mispredicted branches per row, 1.42x serial where the hand
  // stream prefetch's plain loop ran 1.6x (bench/costmodel/edges.c).
  MDNode *Self = MDNode::getDistinct(Ctx, {});
  MDNode *Id = MDNode::get(Ctx, {Self, MDNode::get(Ctx, MDString::get(Ctx, "llvm.loop.unroll.disable"))});
  Id->replaceOperandWith(0, Id);
  Back->setMetadata(LLVMContext::MD_loop, Id);
  DTU.applyUpdates({{DominatorTree::Insert, At, Body},
                    {DominatorTree::Insert, At, Rest},
                    {DominatorTree::Insert, Body, Body},
                    {DominatorTree::Insert, Body, Rest}});
  Loop *Prefetching = A.LI.AllocateLoop();
  L.addChildLoop(Prefetching);
  Prefetching->addBasicBlockToLoop(Body, A.LI);

  LLVM_DEBUG(dbgs() << "memcoro-split: stream of inner loop " << E.Inner->getHeader()->getName()
                    << " prefetched " << E.Elements << " elements ahead across rows\n");
  ORE.emit([&] {
    OptimizationRemark R(RemarkPass, "PrefetchEdges", L.getStartLoc(), L.getHeader());
    R << "loop turned into a prefetching loop in serial order: " << join(Said, ", ") << " of the inner loop "
      << "prefetched " << std::to_string(E.Elements)
      << " elements ahead along the stream its rows walk, from the loop's body (the inner loop kept as "
         "written); the processor already overlaps the inner loop's independent loads, and the prefetches add "
         "what lies beyond its reorder window";
    return R;
  });
}

void memcoro::printPrefetchEdges(const EdgePrefetch &E, raw_ostream &OS) {
  OS << "  prefetch across rows, " << E.Elements << " elements ahead, " << (E.Signed ? "signed" : "unsigned")
     << " row bounds, inner loop ";
  E.Inner->getHeader()->printAsOperand(OS, /*PrintType=*/false);
  OS << "\n";
  for (Instruction *Access : E.Accesses)
    OS << "  prefetch:" << *Access << "\n";
}
