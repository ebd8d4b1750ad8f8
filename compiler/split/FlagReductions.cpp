//===- FlagReductions.cpp - a flag set by some iterations -------------------===//
//
// A part of memcoro-split's legality (see SplitInternal.h,
// classifyHeaderPhis). Relaxation and fixed-point loops say whether anything
// changed with a flag the iterations only ever set:
//
//   bool changed = false;
//   for (u ...) for (e ...) if (nd < dist[v]) { dist[v] = nd; changed = true; }
//
// After mem2reg the flag is a web of phis and selects whose only values,
// besides what enters the loop, are one constant C. Every iteration that writes it writes
// C, so the order of the writes does not matter: it is a reduction, by & when
// C is 0 (what enters & 0 is 0), by | when C is all ones or what enters is 0
// or C itself (then | gives C if any iteration set it, what entered if none).
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumFlagReductions, "Number of flags set by some iterations interleaved as reductions");

/// The phis and selects of the loop the flag's value moves through, from
/// \p Phi on; null when it is also used otherwise inside the loop.
static bool flagWeb(const Loop &L, PHINode *Phi, SmallVectorImpl<Instruction *> &Web) {
  Web.assign({Phi});
  for (unsigned I = 0; I < Web.size(); ++I)
    for (User *U : Web[I]->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI) || is_contained(Web, UI))
        continue;
      auto *Sel = dyn_cast<SelectInst>(UI);
      if (!isa<PHINode>(UI) && !(Sel && Sel->getCondition() != Web[I]))
        return false;
      Web.push_back(UI);
    }
  return true;
}

bool memcoro::recogniseFlag(const Loop &L, PHINode *Phi, Reduction &R) {
  BasicBlock *Preheader = L.getLoopPreheader(), *Latch = L.getLoopLatch();
  if (!Preheader || !Latch || Phi->getParent() != L.getHeader() || !Phi->getType()->isIntegerTy())
    return false;
  SmallVector<Instruction *, 8> Web;
  if (!flagWeb(L, Phi, Web))
    return false;
  auto *LatchValue = dyn_cast<Instruction>(Phi->getIncomingValueForBlock(Latch));
  if (!LatchValue || LatchValue == Phi || !is_contained(Web, LatchValue))
    return false;
  ConstantInt *Set = nullptr;
  auto isSet = [&](Value *V) {
    auto *C = dyn_cast<ConstantInt>(V);
    if (!C || (Set && C != Set))
      return false;
    Set = C;
    return true;
  };
  for (Instruction *I : Web) {
    if (auto *P = dyn_cast<PHINode>(I)) {
      for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
        Value *V = P->getIncomingValue(In);
        auto *VI = dyn_cast<Instruction>(V);
        if ((P == Phi && P->getIncomingBlock(In) == Preheader) || (VI && is_contained(Web, VI)))
          continue;
        if (!isSet(V))
          return false;
      }
    } else {
      auto *Sel = cast<SelectInst>(I);
      for (Value *V : {Sel->getTrueValue(), Sel->getFalseValue()})
        if (auto *VI = dyn_cast<Instruction>(V); !(VI && is_contained(Web, VI)) && !isSet(V))
          return false;
    }
    // After the loop, only the final value is read.
    for (User *U : I->users())
      if (!L.contains(cast<Instruction>(U)) && I != LatchValue)
        return false;
  }
  if (!Set)
    return false;
  auto *Entering = dyn_cast<ConstantInt>(Phi->getIncomingValueForBlock(Preheader));
  if (Set->isZero()) {
    R.Opcode = Instruction::And;
    R.Identity = Constant::getAllOnesValue(Phi->getType());
  } else if (Set->isMinusOne() || (Entering && (Entering->isZero() || Entering == Set))) {
    R.Opcode = Instruction::Or;
    R.Identity = Constant::getNullValue(Phi->getType());
  } else {
    return false;
  }
  R.Phi = Phi;
  R.LatchValue = LatchValue;
  R.IsIntrinsic = false;
  ++NumFlagReductions;
  LLVM_DEBUG(dbgs() << "memcoro-split: " << *Phi << " is a flag the iterations set to " << *Set
                    << "; interleaved as a reduction\n");
  return true;
}
