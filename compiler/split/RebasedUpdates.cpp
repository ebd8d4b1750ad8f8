//===- RebasedUpdates.cpp - an update read early, applied at its store ----===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// the remote accesses are found, legality and the plan. An update of a
// location the user spread over the iteration,
//
//   c = h[k]; for (...) c += w[ix[j]]; h[k] = c;   (written so, or an inner
//   h[k[i]] += W[a[i]]; h[k[i]] += W[b[i]];         loop's `h[k] += ...` that
//                                                   LICM promoted, or two
//                                                   updates GVN merged)
//
// reads the location, computes across the iteration's suspensions and writes
// the sum back: another iteration's update of h[k] in between is lost, while
// the user wrote updates (`+=`) the contract lets iterations make in any
// order. From the read to the store the value only goes through one
// commutative, associative operation; started from its identity, the same
// operations give the iteration's contribution, which the store applies to
// the location read again right before it:
//
//   c = 0; for (...) c += w[ix[j]]; h[k] = h[k] + c;
//
// Nothing else in the loop may write the location, so the read just before
// the store sees what the early read saw (or another iteration's update, now
// counted). The read-modify-write is then whole, a commutative update
// legality accepts as any other; the early read goes, and with it a
// suspension that bought nothing. Integer operations only: their result does
// not depend on the grouping (wrap flags are dropped, since partial sums may
// wrap where the serial ones did not).
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumRebasedUpdates, "Number of updates read early that are applied to the location read at their store");

/// The operation of an update step of the running value \p From: the step
/// must take \p From once (as a difference's minuend, counted as an
/// addition); 0 when \p Step is no such step.
static unsigned stepOperation(const Instruction &Step, const Value *From) {
  auto *BO = dyn_cast<BinaryOperator>(&Step);
  if (!BO || (BO->getOperand(0) == From) == (BO->getOperand(1) == From))
    return 0;
  switch (BO->getOpcode()) {
  case Instruction::Sub:
    return BO->getOperand(0) == From ? unsigned(Instruction::Add) : 0;
  case Instruction::Add:
  case Instruction::Mul:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return BO->getOpcode();
  default:
    return 0;
  }
}

/// The one store of an update chain from \p Read, a plain integer load of
/// the loop \p L, with the chain's operation; null when the value read goes
/// anywhere else than through one operation and phis of the chain to a store
/// to the place it was read from.
static StoreInst *updateChainFrom(const Loop &L, LoadInst &Read, SmallVectorImpl<Instruction *> &Chain,
                                  unsigned &Operation) {
  Operation = 0;
  StoreInst *Sink = nullptr;
  SmallPtrSet<Instruction *, 8> InChain = {&Read};
  SmallVector<Instruction *, 8> Work = {&Read};
  while (!Work.empty()) {
    Instruction *Cur = Work.pop_back_val();
    for (User *U : Cur->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI))
        return nullptr;
      if (auto *Store = dyn_cast<StoreInst>(UI)) {
        if (Sink || !Store->isSimple() || Store->getValueOperand() != Cur ||
            Store->getPointerOperand() != Read.getPointerOperand())
          return nullptr;
        Sink = Store;
        continue;
      }
      if (InChain.contains(UI))
        continue;
      if (!isa<PHINode>(UI)) {
        unsigned Op = stepOperation(*UI, Cur);
        if (!Op || (Operation && Op != Operation))
          return nullptr;
        Operation = Op;
      }
      InChain.insert(UI);
      Chain.push_back(UI);
      Work.push_back(UI);
    }
  }
  // A phi that merges a value from outside the chain is no update of it
  // (`c = hit ? h[k] + v : 0`); a step whose other operand is the chain's
  // again would count the read twice.
  for (Instruction *I : Chain) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      // Through the loop's header it would be the next iteration's value,
      // stored to that iteration's place.
      if (Phi->getParent() == L.getHeader())
        return nullptr;
      if (!all_of(Phi->incoming_values(), [&](Value *V) { return InChain.contains(dyn_cast<Instruction>(V)); }))
        return nullptr;
    } else if (InChain.contains(dyn_cast<Instruction>(I->getOperand(0))) &&
               InChain.contains(dyn_cast<Instruction>(I->getOperand(1)))) {
      return nullptr;
    }
  }
  return Operation ? Sink : nullptr;
}

bool memcoro::rebaseSpreadUpdates(Loop &L, AAResults &AA) {
  SmallVector<LoadInst *, 4> Reads;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Read = dyn_cast<LoadInst>(&I); Read && Read->isSimple() && Read->getType()->isIntegerTy())
        Reads.push_back(Read);
  bool Changed = false;
  for (LoadInst *Read : Reads) {
    SmallVector<Instruction *, 8> Chain;
    unsigned Operation = 0;
    StoreInst *Store = updateChainFrom(L, *Read, Chain, Operation);
    // A step straight from the read to the store is an update already.
    if (!Store || (Chain.size() == 1 && Chain.front()->getParent() == Read->getParent() &&
                   Store->getParent() == Read->getParent()))
      continue;
    // The store applies the iteration's whole contribution once: not a
    // running total stored again and again by an inner loop (LICM keeps
    // GAP-style `checksum += v` stored in the loop it cannot leave early),
    // which applied at each store would count the earlier steps again.
    if (!Store->getValueOperand()->hasOneUse() ||
        any_of(L.getSubLoops(), [&](const Loop *Inner) { return Inner->contains(Store); })) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the update from" << *Read << " is stored before its last step\n");
      continue;
    }
    if (firstWriterIn(AA, L, MemoryLocation::get(Store), [&](const Instruction &I) { return &I == Store; })) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the update from" << *Read << " is not rebased: the loop may write "
                        << "its place elsewhere\n");
      continue;
    }
    Constant *Identity = ConstantExpr::getBinOpIdentity(Operation, Read->getType());
    for (Instruction *I : Chain)
      I->dropPoisonGeneratingFlags();
    auto *Again = cast<LoadInst>(Read->clone());
    Again->insertBefore(Store);
    Again->setName(Read->getName() + ".at.store");
    auto *Applied = BinaryOperator::Create(Instruction::BinaryOps(Operation), Again, Store->getValueOperand(),
                                           "memcoro.update", Store->getIterator());
    Applied->setDebugLoc(Store->getDebugLoc());
    Store->setOperand(0, Applied);
    Read->replaceAllUsesWith(Identity);
    LLVM_DEBUG(dbgs() << "memcoro-split: an update read at" << *Read << " is applied at its store" << *Store
                      << "\n");
    Read->eraseFromParent();
    ++NumRebasedUpdates;
    Changed = true;
  }
  return Changed;
}
