//===- ForwardedUpdates.cpp - counters GVN carries through an inner loop ---===//
//
// A step of memcoro-split before legality (see SplitInternal.h), shared by
// the pass and its printer. A statistics counter bumped in an inner loop,
//
//   for (i...) for (p = b[k[i] & m]; p; p = p->next) { g_probes++; ... }
//
// reaches memcoro-split as one read of the counter before the inner loop,
// a phi that carries it round that loop, and a store of each new value: GVN
// forwarded every store to the next read. Each iteration's updates are then
// one read and later writes with the inner loop's suspensions in between,
// which no rule of the contract covers (a commutative update reads and
// writes in one step), and the loop stayed serial ("the store and the load
// can touch the same memory in every iteration").
//
// Where the counter's values are used only to compute the next value (by a
// commutative operation with a value that does not depend on it) and to be
// stored back to the same place, each store is given the value read again
// right before it:
//
//   before                              after
//   c0 = load g                         (dead)
//   c = phi [c0, ...], [c1, latch]      (dead)
//   c1 = add c, 1                       cur = load g; c1 = add cur, 1
//   store c1, g                         store c1, g
//
// In serial order the place holds the carried value at each store (that is
// what GVN proved), so the loop computes what it computed; each update is now
// a commutative read-modify-write in one step, which the contract covers.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumForwardedUpdates, "Number of counter updates GVN forwarded through an inner loop read again");

namespace {

/// One counter: its stores, and the web of values it is carried by.
struct ForwardedCounter {
  SmallVector<StoreInst *, 2> Stores;
  SmallVector<Instruction *, 8> Values;
};

bool commutes(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Mul:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    return true;
  default:
    return false;
  }
}

/// The counter \p First stores, if every value of it is a read of the place
/// before an inner loop, a phi, or a commutative step from another of its
/// values by something else, and is used only by those and by stores back to
/// the place.
std::optional<ForwardedCounter> counterOf(const Loop &L, StoreInst *First, const DataLayout &DL) {
  Value *Place = First->getPointerOperand();
  ForwardedCounter C;
  SmallVector<Instruction *, 8> Work;
  SmallPtrSet<Instruction *, 8> Seen;
  auto add = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (I && Seen.insert(I).second)
      Work.push_back(I);
    return I != nullptr;
  };
  if (!add(First->getValueOperand()))
    return std::nullopt;
  bool HasRead = false, HasPhi = false;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!L.contains(I))
      return std::nullopt;
    C.Values.push_back(I);
    if (auto *Read = dyn_cast<LoadInst>(I)) {
      if (!Read->isSimple() || byteDistance(Read->getPointerOperand(), Place, DL) != 0)
        return std::nullopt;
      HasRead = true;
    } else if (auto *Phi = dyn_cast<PHINode>(I)) {
      HasPhi = true;
      for (Value *In : Phi->incoming_values())
        if (!add(In))
          return std::nullopt;
    } else if (commutes(*I)) {
      // One operand is the counter (a value of it, a phi, or a read of the
      // place), the other something else.
      auto counterLike = [&](Value *V) {
        auto *Read = dyn_cast<LoadInst>(V);
        return Seen.contains(dyn_cast<Instruction>(V)) || isa<PHINode>(V) ||
               (Read && byteDistance(Read->getPointerOperand(), Place, DL) == 0);
      };
      bool X = counterLike(I->getOperand(0)), Y = counterLike(I->getOperand(1));
      if (X == Y)
        return std::nullopt;
      if (!add(X ? I->getOperand(0) : I->getOperand(1)))
        return std::nullopt;
    } else {
      return std::nullopt;
    }
    for (User *U : I->users()) {
      if (auto *Store = dyn_cast<StoreInst>(U)) {
        if (!Store->isSimple() || Store->getValueOperand() != I ||
            byteDistance(Store->getPointerOperand(), Place, DL) != 0)
          return std::nullopt;
        if (!is_contained(C.Stores, Store))
          C.Stores.push_back(Store);
        continue;
      }
      auto *UI = cast<Instruction>(U);
      if (!(isa<PHINode>(UI) || commutes(*UI)))
        return std::nullopt;
      add(UI);
    }
  }
  // Only a value carried through phis from a read is GVN's forwarding, and
  // each store must store a step of it.
  if (!HasRead || !HasPhi || any_of(C.Stores, [&](StoreInst *Store) {
        auto *Step = dyn_cast<Instruction>(Store->getValueOperand());
        return !Step || !commutes(*Step) || !L.contains(Store);
      }))
    return std::nullopt;
  // Every step's other operand must not be the counter too (c + c).
  for (Instruction *I : C.Values)
    if (commutes(*I) && is_contained(C.Values, I->getOperand(0)) && is_contained(C.Values, I->getOperand(1)))
      return std::nullopt;
  return C;
}

} // namespace

bool memcoro::readForwardedUpdatesAgain(Loop &L) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  SmallPtrSet<StoreInst *, 8> Done;
  bool Changed = false;
  SmallVector<StoreInst *, 8> Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Store = dyn_cast<StoreInst>(&I); Store && Store->isSimple() &&
                                                  Store->getValueOperand()->getType()->isIntegerTy() &&
                                                  L.isLoopInvariant(Store->getPointerOperand()))
        Stores.push_back(Store);
  for (StoreInst *First : Stores) {
    if (Done.contains(First))
      continue;
    std::optional<ForwardedCounter> C = counterOf(L, First, DL);
    if (!C)
      continue;
    for (StoreInst *Store : C->Stores)
      Done.insert(Store);
    LLVM_DEBUG(dbgs() << "memcoro-split: counter stored by" << *First << " read again before each of its "
                      << C->Stores.size() << " stores\n");
    for (StoreInst *Store : C->Stores) {
      auto *Step = cast<Instruction>(Store->getValueOperand());
      auto *Cur = new LoadInst(Store->getValueOperand()->getType(), Store->getPointerOperand(), "counter.again",
                               false, Store->getAlign(), Store->getIterator());
      Cur->copyMetadata(*Store, {LLVMContext::MD_tbaa});
      Cur->setDebugLoc(Store->getDebugLoc());
      bool CounterFirst = is_contained(C->Values, Step->getOperand(0));
      auto *Again = BinaryOperator::Create(static_cast<Instruction::BinaryOps>(Step->getOpcode()),
                                           CounterFirst ? static_cast<Value *>(Cur) : Step->getOperand(0),
                                           CounterFirst ? Step->getOperand(1) : static_cast<Value *>(Cur),
                                           Step->getName() + ".again", Store->getIterator());
      Again->setDebugLoc(Step->getDebugLoc());
      Store->setOperand(0, Again);
      ++NumForwardedUpdates;
    }
    // The carried web is dead now: its values fed only each other and the
    // stores.
    for (Instruction *I : C->Values)
      I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    for (Instruction *I : C->Values)
      I->eraseFromParent();
    Changed = true;
  }
  return Changed;
}
