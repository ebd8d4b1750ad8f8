//===- LatchShape.cpp - the count tested at the latch, as the plan reads it -===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan, which reads the loop's trip count off its latch's
// exit. Four shapes the optimiser leaves hide a count that is there:
//
// * The next counter merged from equal computations. A guarded inner loop
//   that may break (Luby's MIS: `if (state[v] == 0) for (...) if (...) break;`)
//   reaches the latch along several paths, and each computes `v + 1` on its
//   own; GVN does not merge adds of different blocks, so the counter's next
//   value is a phi of them, which scalar evolution does not see through ("the
//   number of iterations cannot be computed"). One add after the phis takes
//   their place.
//
// * A latch after the exiting block. GVN's load PRE puts a reload of the
//   bound on the back edge, in a block of its own (`walk_len`, shared by an
//   OpenMP region and reloaded after each of the body's stores, at -O3): the
//   exiting block is no latch, and the plan read its exit as an early exit,
//   taken after a store. When the latch's instructions may run on any
//   iteration (LLVM proves them safe to speculate), they move into the
//   exiting block, which becomes the latch.
//
// * The count tested before the latch, on each way to it. A body whose
//   inner loop may run zero times (`for (s = 0; s < len; s++)`, len read at
//   run time) reaches the latch along two ways, and the optimiser copies the
//   latch's test into each (`v + 1 == n` twice, one leaving to the code after
//   the loop, the other to a copy of it that knows len == 0): two exits
//   before the latch, which the plan read as early exits after a store.
//   When every way to an unconditional latch exits on the same condition,
//   the test moves to the latch, what each exit carried out goes through
//   phis there, and a switch after the latch takes the exit the way came
//   from (which way is a value of the last iteration: LastValues.cpp).
//
// * The match and the count tested together. Without jump threading (-O1)
//   SimplifyCFG folds a search's `break` into the latch: it leaves on
//   `match || count`, the index found a select on the match carried from
//   iteration to iteration, and the loop read as carrying a value. The
//   match's test leaves first, as the `break` did, and the latch tests the
//   count; on each edge the selects on the match take their side.
//
// All are plain simplifications, right whatever memcoro then does.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumEqualComputationsMerged, "Number of phis of equal computations replaced by one computation");
STATISTIC(NumLatchesFolded, "Number of latches after the exiting block folded into it");
STATISTIC(NumFoldedExitsSplit, "Number of latches leaving on a match or the count split into an early exit");
STATISTIC(NumExitsDeferred, "Number of loops whose exits before the latch, testing one condition, moved to it");

/// Arithmetic, compares, casts and address computations: what may be
/// computed once in place of equal copies (a landing pad, equal to another
/// in every operand, may not be).
static bool isPlainComputation(const Instruction &I) {
  return (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<GetElementPtrInst>(I) || isa<CmpInst>(I) ||
          isa<SelectInst>(I)) &&
         !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects();
}

/// The one computation that each of \p Values is (same operations on the
/// same leaves, none touching memory), built before \p At from leaves that
/// dominate it; null when they differ.
static Value *cloneEqualComputation(ArrayRef<Value *> Values, Instruction *At, DominatorTree &DT,
                                    unsigned Depth = 4) {
  Value *First = Values.front();
  auto *FirstI = dyn_cast<Instruction>(First);
  bool AllSame = all_of(Values, [&](Value *V) { return V == First; });
  if (AllSame && (!FirstI || DT.dominates(FirstI, At)))
    return First;
  if (!FirstI || Depth == 0 || !isPlainComputation(*FirstI))
    return nullptr;
  for (Value *V : Values) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !I->isSameOperationAs(FirstI))
      return nullptr;
  }
  SmallVector<Value *, 4> Operands;
  for (unsigned Op = 0; Op < FirstI->getNumOperands(); ++Op) {
    SmallVector<Value *, 4> Column;
    for (Value *V : Values)
      Column.push_back(cast<Instruction>(V)->getOperand(Op));
    Value *Same = cloneEqualComputation(Column, At, DT, Depth - 1);
    if (!Same)
      return nullptr;
    Operands.push_back(Same);
  }
  Instruction *Clone = FirstI->clone();
  for (unsigned Op = 0; Op < Operands.size(); ++Op)
    Clone->setOperand(Op, Operands[Op]);
  for (Value *V : Values)
    Clone->andIRFlags(V);
  Clone->insertBefore(At);
  Clone->setName(FirstI->getName());
  return Clone;
}

/// Replaces each phi of the loop whose incoming values are all the same
/// computation (same operation, same operands, none touching memory) on
/// operands available at the phi by one such computation after the phis.
static bool mergeEqualComputations(Loop &L, DominatorTree &DT) {
  bool Changed = false;
  for (BasicBlock *BB : L.blocks())
    for (PHINode &Phi : make_early_inc_range(BB->phis())) {
      // All incoming values one instruction: nothing to merge.
      Value *First = Phi.getIncomingValue(0);
      if (Phi.getNumIncomingValues() < 2 || all_of(Phi.incoming_values(), [&](Value *V) { return V == First; }))
        continue;
      // One level: the copies' operands are the same values.
      SmallVector<Value *, 4> Copies(Phi.incoming_values());
      Value *Merged = cloneEqualComputation(Copies, &*BB->getFirstInsertionPt(), DT, /*Depth=*/1);
      if (!Merged)
        continue;
      Merged->takeName(&Phi);
      cast<Instruction>(Merged)->setDebugLoc(cast<Instruction>(First)->getDebugLoc());
      Phi.replaceAllUsesWith(Merged);
      Phi.eraseFromParent();
      LLVM_DEBUG(dbgs() << "memcoro-split: a phi of equal computations is" << *Merged << "\n");
      ++NumEqualComputationsMerged;
      Changed = true;
    }
  return Changed;
}

/// Whether the latch computes only what may run on any iteration, at \p At
/// (its instructions move to, or run after, an exit test).
static bool latchIsSpeculatable(BasicBlock &Latch, Instruction *At, AssumptionCache &AC, DominatorTree &DT) {
  for (Instruction &I : Latch) {
    if (isa<PHINode>(I) || I.isTerminator() || I.isDebugOrPseudoInst())
      continue;
    if (!isSafeToSpeculativelyExecute(&I, At, &AC, &DT)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the latch computes what may not be speculated:" << I << "\n");
      return false;
    }
  }
  return true;
}

/// Folds a latch whose single predecessor exits the loop into it, when the
/// latch computes only what is safe to compute on every iteration.
static bool foldLatchIntoExitingBlock(Loop &L, LoopInfo &LI, DominatorTree &DT, AssumptionCache &AC) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Header = L.getHeader();
  if (!Latch || Latch == Header || L.isLoopExiting(Latch))
    return false;
  BasicBlock *Exiting = Latch->getSinglePredecessor();
  if (!Exiting || !L.isLoopExiting(Exiting) || LI.getLoopFor(Exiting) != &L)
    return false;
  auto *Branch = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!Branch || !Branch->isConditional())
    return false;
  if (!latchIsSpeculatable(*Latch, Branch, AC, DT))
    return false;
  MDNode *LoopId = L.getLoopID();
  FoldSingleEntryPHINodes(Latch);
  for (Instruction &I : make_early_inc_range(*Latch)) {
    if (I.isTerminator())
      break;
    I.dropUBImplyingAttrsAndMetadata();
    I.moveBefore(Branch);
  }
  for (PHINode &Phi : Header->phis())
    Phi.replaceIncomingBlockWith(Latch, Exiting);
  for (unsigned S = 0; S < Branch->getNumSuccessors(); ++S)
    if (Branch->getSuccessor(S) == Latch)
      Branch->setSuccessor(S, Header);
  // The latch's edge to the header is gone from the header's phis already.
  Latch->getTerminator()->eraseFromParent();
  new UnreachableInst(Latch->getContext(), Latch);
  DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
  DTU.applyUpdates({{DominatorTree::Insert, Exiting, Header},
                    {DominatorTree::Delete, Exiting, Latch},
                    {DominatorTree::Delete, Latch, Header}});
  LI.removeBlock(Latch);
  DeleteDeadBlock(Latch, &DTU);
  if (LoopId)
    L.setLoopID(LoopId);
  LLVM_DEBUG(dbgs() << "memcoro-split: the latch after the exiting block folded into it\n");
  ++NumLatchesFolded;
  return true;
}

/// Moves the exits of the predecessors of an unconditional latch, which all
/// test the same condition, to the latch (see the banner).
static bool deferExitsToLatch(Loop &L, LoopInfo &LI, DominatorTree &DT, AssumptionCache &AC) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Header = L.getHeader();
  auto *LatchBranch = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!LatchBranch || LatchBranch->isConditional() || Latch == Header || pred_size(Latch) < 2)
    return false;
  struct Exiting {
    BasicBlock *Block;
    BasicBlock *Exit;
    Value *Cond;
  };
  SmallVector<Exiting, 4> Exits;
  std::optional<bool> ExitOnTrue;
  for (BasicBlock *Pred : predecessors(Latch)) {
    auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
    if (!Br || !Br->isConditional() || LI.getLoopFor(Pred) != &L)
      return false;
    unsigned ToExit = Br->getSuccessor(0) == Latch ? 1 : 0;
    BasicBlock *Exit = Br->getSuccessor(ToExit);
    if (L.contains(Exit) || Br->getSuccessor(1 - ToExit) != Latch || (ExitOnTrue && *ExitOnTrue != (ToExit == 0)))
      return false;
    ExitOnTrue = ToExit == 0;
    Exits.push_back({Pred, Exit, Br->getCondition()});
  }
  if (!latchIsSpeculatable(*Latch, LatchBranch, AC, DT))
    return false;
  SmallVector<Value *, 4> Conds;
  for (Exiting &E : Exits)
    Conds.push_back(E.Cond);
  Value *Cond = cloneEqualComputation(Conds, LatchBranch, DT);
  if (!Cond) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the exits before the latch test different conditions\n");
    return false;
  }
  // Which exit each way to the latch would have taken (a value of the last
  // iteration, LastValues.cpp), and what it would have carried out.
  Function &F = *Header->getParent();
  LLVMContext &Ctx = F.getContext();
  SmallVector<BasicBlock *, 4> Targets;
  for (Exiting &E : Exits)
    if (!is_contained(Targets, E.Exit))
      Targets.push_back(E.Exit);
  BasicBlock *Out = Targets.front();
  if (Targets.size() > 1) {
    Out = BasicBlock::Create(Ctx, "memcoro.exit.which", &F, Latch->getNextNode());
    PHINode *Which =
        PHINode::Create(Type::getInt32Ty(Ctx), Exits.size(), "memcoro.exit.which", Latch->getFirstNonPHI());
    for (Exiting &E : Exits)
      Which->addIncoming(ConstantInt::get(Type::getInt32Ty(Ctx), find(Targets, E.Exit) - Targets.begin()),
                         E.Block);
    SwitchInst *Switch = SwitchInst::Create(Which, Targets.front(), Targets.size() - 1, Out);
    for (unsigned T = 1; T < Targets.size(); ++T)
      Switch->addCase(ConstantInt::get(Type::getInt32Ty(Ctx), T), Targets[T]);
    if (Loop *Parent = L.getParentLoop())
      Parent->addBasicBlockToLoop(Out, LI);
  }
  for (BasicBlock *Target : Targets)
    for (PHINode &Phi : Target->phis()) {
      // The value itself where the ways to this exit carry one computation
      // (the counter's next value, a loop invariant): scalar evolution then
      // has it at the exit.
      SmallVector<Value *, 4> Carries;
      for (Exiting &E : Exits)
        if (E.Exit == Target)
          Carries.push_back(Phi.getIncomingValueForBlock(E.Block));
      Value *Carried = cloneEqualComputation(Carries, LatchBranch, DT);
      if (!Carried) {
        PHINode *Merged =
            PHINode::Create(Phi.getType(), Exits.size(), Phi.getName() + ".at.latch", Latch->getFirstNonPHI());
        for (Exiting &E : Exits) {
          int From = E.Exit == Target ? Phi.getBasicBlockIndex(E.Block) : -1;
          Merged->addIncoming(From >= 0 ? Phi.getIncomingValue(From) : PoisonValue::get(Phi.getType()), E.Block);
        }
        Carried = Merged;
      }
      for (Exiting &E : Exits)
        if (E.Exit == Target)
          Phi.removeIncomingValue(E.Block, /*DeletePHIIfEmpty=*/false);
      Phi.addIncoming(Carried, Out == Target ? Latch : Out);
    }
  MDNode *LoopId = L.getLoopID();
  for (Exiting &E : Exits) {
    Instruction *Old = E.Block->getTerminator();
    BranchInst::Create(Latch, Old->getIterator());
    Old->eraseFromParent();
  }
  BranchInst *NewBranch = *ExitOnTrue ? BranchInst::Create(Out, Header, Cond, LatchBranch->getIterator())
                                      : BranchInst::Create(Header, Out, Cond, LatchBranch->getIterator());
  NewBranch->setDebugLoc(LatchBranch->getDebugLoc());
  LatchBranch->eraseFromParent();
  if (LoopId)
    L.setLoopID(LoopId);
  DT.recalculate(F);
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Exits.size() << " exits testing one condition moved to the latch\n");
  ++NumExitsDeferred;
  return true;
}

/// Whether \p V tests the loop's count: a compare of an affine recurrence
/// of \p L with a loop invariant.
static bool testsCount(Loop &L, ScalarEvolution &SE, Value *V) {
  auto *Cmp = dyn_cast<ICmpInst>(V);
  if (!Cmp)
    return false;
  auto affine = [&](Value *Op) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Op));
    return AR && AR->getLoop() == &L && AR->isAffine();
  };
  return (affine(Cmp->getOperand(0)) && L.isLoopInvariant(Cmp->getOperand(1))) ||
         (affine(Cmp->getOperand(1)) && L.isLoopInvariant(Cmp->getOperand(0)));
}

/// \p V where \p Cond is known to be \p Known: a select on it picks its side.
static Value *knowing(Value *V, Value *Cond, bool Known) {
  if (auto *Sel = dyn_cast<SelectInst>(V); Sel && Sel->getCondition() == Cond)
    return Known ? Sel->getTrueValue() : Sel->getFalseValue();
  return V;
}

/// Splits a latch that leaves on `match || count` into a test of the match,
/// an early exit, and a latch that tests the count (see the banner).
static bool splitFoldedExit(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch(), *Header = L.getHeader();
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional() || L.getExitingBlock() != Latch)
    return false;
  bool ExitOnTrue = !L.contains(Br->getSuccessor(0));
  BasicBlock *Exit = Br->getSuccessor(ExitOnTrue ? 0 : 1);
  // Leaving on true: `match || count`; on false: `!match && !count` as
  // `stay && more`.
  Value *A = nullptr, *B = nullptr;
  using namespace PatternMatch;
  if (!(ExitOnTrue ? match(Br->getCondition(), m_LogicalOr(m_Value(A), m_Value(B)))
                   : match(Br->getCondition(), m_LogicalAnd(m_Value(A), m_Value(B)))))
    return false;
  Value *Count = testsCount(L, SE, B) ? B : testsCount(L, SE, A) ? A : nullptr;
  Value *Match = Count == B ? A : B;
  if (!Count || testsCount(L, SE, Match) || !isa<Instruction>(Match) || !L.contains(cast<Instruction>(Match)))
    return false;
  // The match leaves first, as the source's `break` did; the count at the
  // new latch.
  BasicBlock *Cont = BasicBlock::Create(Latch->getContext(), Latch->getName() + ".count", Latch->getParent(),
                                        Latch->getNextNode());
  MDNode *LoopId = L.getLoopID();
  BranchInst *CountBr = ExitOnTrue ? BranchInst::Create(Exit, Header, Count, Cont)
                                   : BranchInst::Create(Header, Exit, Count, Cont);
  CountBr->setDebugLoc(Br->getDebugLoc());
  BranchInst *MatchBr = ExitOnTrue ? BranchInst::Create(Exit, Cont, Match, Br->getIterator())
                                   : BranchInst::Create(Cont, Exit, Match, Br->getIterator());
  MatchBr->setDebugLoc(Br->getDebugLoc());
  Br->eraseFromParent();
  // On the way to the next iteration and out at the count the match failed;
  // out at the match it held.
  bool MatchLeaves = ExitOnTrue;
  for (PHINode &Phi : Header->phis()) {
    int In = Phi.getBasicBlockIndex(Latch);
    Phi.setIncomingBlock(In, Cont);
    Phi.setIncomingValue(In, knowing(Phi.getIncomingValue(In), Match, !MatchLeaves));
  }
  for (PHINode &Phi : Exit->phis()) {
    Value *Out = Phi.getIncomingValueForBlock(Latch);
    Phi.setIncomingValueForBlock(Latch, knowing(Out, Match, MatchLeaves));
    Phi.addIncoming(knowing(Out, Match, !MatchLeaves), Cont);
  }
  L.addBasicBlockToLoop(Cont, LI);
  if (LoopId)
    L.setLoopID(LoopId);
  Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
  DT.recalculate(*Header->getParent());
  LLVM_DEBUG(dbgs() << "memcoro-split: a latch leaving on a match or the count split into an early exit\n");
  ++NumFoldedExitsSplit;
  return true;
}

bool memcoro::shapeLatch(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC) {
  bool Changed = mergeEqualComputations(L, DT);
  Changed |= splitFoldedExit(L, LI, DT, SE);
  Changed |= deferExitsToLatch(L, LI, DT, AC);
  Changed |= foldLatchIntoExitingBlock(L, LI, DT, AC);
  if (Changed)
    SE.forgetLoop(&L);
  return Changed;
}
