//===- CarriedLoads.cpp - reads GVN carried across the back edge ------------===//
//
// A part of memcoro-split's legality (see SplitInternal.h, checkTripCount and
// classifyHeaderPhis). GVN's load PRE turns a read that every iteration makes
// into a value carried from one iteration to the next, through a header phi:
//
//   for (j ...) for (k = rowstr[j]; k < rowstr[j + 1]; k++)     NPB CG
//     iteration j's rowstr[j + 1] becomes iteration j + 1's rowstr[j]
//   for (u = 0; u < g.num_nodes(); u++) { ... cmpxchg ... }    GAP Afforest
//     the bound is read again only after a write that may alias it
//
// Neither is a value the iterations compute from each other. The element
// is read again in each iteration (reloadShiftedLoad), when no write of the
// loop may touch it; the bound is taken as it enters the loop
// (boundEnteringLoop): evaluated once, before the loop, as OpenMP evaluates
// a canonical loop's bound. The phis left without a use are dropped by the
// lowering (dropDeadPhiWebs). Both rewrites are undone by
// SplitLegality::revert for a loop that stays serial.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumShiftedLoadsReloaded, "Number of loads carried to the next iteration read again in it");

bool memcoro::isDeadPhiWeb(const Loop &L, PHINode *Phi) {
  SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
  return all_of(Web, [&](PHINode *P) {
    return all_of(P->users(), [&](User *U) {
      // A cast the exit test no longer reads is as dead as the web.
      if (auto *Cast = dyn_cast<CastInst>(U))
        return Cast->use_empty();
      auto *UP = dyn_cast<PHINode>(U);
      return UP && is_contained(Web, UP);
    });
  });
}

void memcoro::dropDeadPhiWebs(Loop &L) {
  SmallVector<PHINode *, 4> Dead;
  for (PHINode &Phi : L.getHeader()->phis())
    if (isDeadPhiWeb(L, &Phi))
      for (PHINode *P : phiWeb(L, &Phi))
        if (!is_contained(Dead, P))
          Dead.push_back(P);
  for (PHINode *P : Dead)
    P->replaceAllUsesWith(PoisonValue::get(P->getType()));
  for (PHINode *P : Dead)
    P->eraseFromParent();
}

Value *memcoro::boundEnteringLoop(const Loop &L, Value *Bound, const DataLayout &DL) {
  auto *Phi = dyn_cast<PHINode>(Bound);
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Phi || !L.contains(Phi) || !Preheader)
    return nullptr;
  SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
  Value *Place = nullptr, *Entering = nullptr;
  for (PHINode *P : Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
      Value *V = P->getIncomingValue(In);
      if (auto *VP = dyn_cast<PHINode>(V); VP && is_contained(Web, VP))
        continue;
      if (P->getParent() == L.getHeader() && P->getIncomingBlock(In) == Preheader) {
        if (Entering && Entering != V)
          return nullptr;
        Entering = V;
        continue;
      }
      auto *Load = dyn_cast<LoadInst>(V);
      if (!Load || !Load->isSimple() || !L.contains(Load) || !L.isLoopInvariant(Load->getPointerOperand()) ||
          (Place && byteDistance(Place, Load->getPointerOperand(), DL) != 0))
        return nullptr;
      Place = Load->getPointerOperand();
    }
  if (!Place || !Entering)
    return nullptr;
  // What enters is the place's value there: a load of it, or the same web's
  // value leaving an earlier copy of the loop (an unrolled enclosing loop).
  auto *EnteringLoad = dyn_cast<LoadInst>(Entering);
  if (!isa<PHINode>(Entering) && !(EnteringLoad && byteDistance(Place, EnteringLoad->getPointerOperand(), DL) == 0))
    return nullptr;
  LLVM_DEBUG(dbgs() << "memcoro-split: the bound" << *Bound << " is reloaded in the loop; taken as it enters it:"
                    << *Entering << "\n");
  return Entering;
}

bool memcoro::reloadShiftedLoad(const SplitAnalyses &A, const Loop &L, PHINode *Phi,
                                SmallVectorImpl<Instruction *> &Created,
                                SmallVectorImpl<std::pair<Use *, Value *>> &Redirected) {
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  if (!Preheader || !Latch || Phi->getParent() != L.getHeader() || Phi->getNumIncomingValues() != 2)
    return false;
  auto *Next = dyn_cast<LoadInst>(Phi->getIncomingValueForBlock(Latch));
  auto *First = dyn_cast<LoadInst>(Phi->getIncomingValueForBlock(Preheader));
  if (!Next || !First || !Next->isSimple() || !First->isSimple() || !L.contains(Next) ||
      First->getParent() != Preheader || Next->getType() != First->getType())
    return false;
  // Next reads the element after this iteration's, First the first one.
  auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Next->getPointerOperand()));
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return false;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(A.SE));
  if (!Step || A.SE.getMinusSCEV(AR->getStart(), Step) != A.SE.getSCEV(First->getPointerOperand()))
    return false;
  // Nothing after First before the loop, and nothing in it, may write the
  // elements: then each iteration's element holds what was carried.
  MemoryLocation Elements(Next->getPointerOperand(), LocationSize::beforeOrAfterPointer(), Next->getAAMetadata());
  auto writes = [&](Instruction &I) { return I.mayWriteToMemory() && isModSet(A.AA.getModRefInfo(&I, Elements)); };
  for (Instruction *I = First->getNextNode(); I; I = I->getNextNode())
    if (writes(*I))
      return false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (writes(I)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: " << *Phi << " carries a load the loop may write:" << I << "\n");
        return false;
      }
  // Read where Next's address is known, before every use of the phi.
  auto *Address = dyn_cast<Instruction>(Next->getPointerOperand());
  if (!Address || !L.contains(Address))
    return false;
  for (Use &U : Phi->uses())
    if (!L.contains(cast<Instruction>(U.getUser())) || !A.DT.dominates(Address, U))
      return false;
  Instruction *At = isa<PHINode>(Address) ? &*Address->getParent()->getFirstInsertionPt() : Address->getNextNode();
  IRBuilder<> B(At);
  B.SetCurrentDebugLocation(First->getDebugLoc());
  Value *Here = B.CreateGEP(B.getInt8Ty(), Address, B.getInt(-Step->getAPInt()), Phi->getName() + ".addr");
  LoadInst *Again = B.CreateAlignedLoad(First->getType(), Here, std::min(First->getAlign(), Next->getAlign()),
                                        Phi->getName() + ".again");
  Again->copyMetadata(*First, {LLVMContext::MD_tbaa});
  if (auto *I = dyn_cast<Instruction>(Here))
    Created.push_back(I);
  Created.push_back(Again);
  for (Use &U : make_early_inc_range(Phi->uses())) {
    Redirected.push_back({&U, Phi});
    U.set(Again);
  }
  ++NumShiftedLoadsReloaded;
  LLVM_DEBUG(dbgs() << "memcoro-split: " << *Phi << " carries" << *Next
                    << " to the next iteration; read again there\n");
  return true;
}
