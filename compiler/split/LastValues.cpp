//===- LastValues.cpp - a value of the last iteration, used after the loop --===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality. A value the loop computes in every iteration and the code after
// it reads, `lp = t[t[ix[i]]]` under OpenMP's lastprivate(lp), or the last
// row's result kept for a report:
//
//   for (...) { v = f(a[i]); ... }     exit: use(v)
//
// is the last iteration's. Scalar evolution has no closed form for it (it
// comes from memory), and legality kept such loops serial ("a value computed
// in the loop is used after it"). Interleaved, iterations end in no fixed
// order; but code after an ordered region's start runs in iteration order
// (SplitOrdered.cpp), so the value goes through a slot of the function's
// frame, stored at the iteration's end after an ordered marker: the last
// store is the last iteration's, as in the serial loop.
//
//   latch:  __memcoro_ordered(); store v, %memcoro.last      exit: load
//
// Only for a loop that leaves at its latch alone (an early exit has a winner
// whose values EarlyExits.cpp takes), and for values that do not depend on
// a value carried from the previous iteration other than the loop's
// inductions: a reduction's result is legality's to take, and a value carried
// otherwise keeps the loop serial anyway.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumLastValues, "Number of last-iteration values kept through an ordered slot");

/// Whether \p V, computed in the iteration, depends on no value carried from
/// the previous iteration but the loop's inductions.
static bool ownToIteration(const Loop &L, ScalarEvolution &SE, Value *V, SmallPtrSetImpl<Value *> &Seen) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Seen.insert(I).second)
    return true;
  if (auto *Phi = dyn_cast<PHINode>(I); Phi && Phi->getParent() == L.getHeader()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Phi));
    return AR && AR->getLoop() == &L && AR->isAffine();
  }
  if (I->getType()->isTokenTy())
    return false;
  return all_of(I->operands(), [&](Value *Op) { return ownToIteration(L, SE, Op, Seen); });
}

bool memcoro::keepLastValuesInOrder(Loop &L, ScalarEvolution &SE) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Exit = L.getExitBlock();
  // The count need not be known here: an OpenMP chunk's bound read through
  // memory is evaluated once by legality (ReloadedBound.cpp).
  if (!Latch || L.getExitingBlock() != Latch || !Exit || Exit->getSinglePredecessor() != Latch)
    return false;
  SmallVector<PHINode *, 2> Last;
  for (PHINode &Phi : Exit->phis()) {
    auto *V = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Latch));
    if (!V || !L.contains(V) || !V->getType()->isFirstClassType() || V->getType()->isTokenTy())
      continue;
    const SCEV *AtExit = SE.getSCEVAtScope(SE.getSCEV(V), L.getParentLoop());
    if (!isa<SCEVCouldNotCompute>(AtExit) && SE.isLoopInvariant(AtExit, &L))
      continue;
    SmallPtrSet<Value *, 16> Seen;
    if (!ownToIteration(L, SE, V, Seen)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: a value used after the loop depends on one carried:" << *V << "\n");
      continue;
    }
    Last.push_back(&Phi);
  }
  if (Last.empty())
    return false;
  Function &F = *Latch->getParent();
  IRBuilder<> EntryB(&*F.getEntryBlock().getFirstInsertionPt());
  IRBuilder<> B(Latch->getTerminator());
  CallInst *Marker = B.CreateCall(getOrInsertOrderedFn(*F.getParent()));
  std::string Names;
  unsigned Unnamed = 0;
  IRBuilder<> ExitB(&*Exit->getFirstInsertionPt());
  for (PHINode *Phi : Last) {
    Value *V = Phi->getIncomingValueForBlock(Latch);
    StringRef Name = sourceVariableName(*V);
    // LatchShape.cpp's choice of exit, when the test moved to the latch.
    if (V->getName().starts_with("memcoro.exit.which"))
      Names += (Names.empty() ? "" : ", ") + std::string("choice of exit");
    else if (!Name.empty())
      Names += (Names.empty() ? "'" : ", '") + Name.str() + "'";
    else
      ++Unnamed;
    AllocaInst *Slot = EntryB.CreateAlloca(V->getType(), nullptr, V->getName() + ".memcoro.last");
    B.CreateStore(V, Slot);
    Value *Read = ExitB.CreateLoad(V->getType(), Slot, V->getName() + ".last");
    Phi->replaceAllUsesWith(Read);
    Phi->eraseFromParent();
    LLVM_DEBUG(dbgs() << "memcoro-split: the last iteration's" << *V << " goes through an ordered slot\n");
    ++NumLastValues;
  }
  if (Unnamed)
    Names += (Names.empty() ? "" : " and ") +
             (Unnamed == 1 ? std::string("value") : std::to_string(Unnamed) + " values") +
             (Names.empty() ? "" : " more");
  LLVMContext &Ctx = F.getContext();
  Marker->setMetadata(LastValuesMD, MDNode::get(Ctx, {MDString::get(Ctx, Names)}));
  Marker->setDebugLoc(Latch->getTerminator()->getDebugLoc());
  SE.forgetLoop(&L);
  return true;
}
