//===- BodyLocals.cpp - a marked loop's body variables begin uninitialised -===//
//
// Called by memcoro-mark (MarkLoops.cpp) for each loop it marks, while the
// IR is still clang's. A variable declared in the body,
//
//   for (i = 0; i < n; i++) {
//     uint64_t value;
//     if (lsm_get(&t, queries[i], &value)) { hits++; checksum += value; }
//   }
//
// begins each iteration uninitialised: clang's llvm.lifetime.start says so
// (its contents are undefined from there). Promoting it to a register,
// mem2reg ignores that and hands the value of the previous iteration's last
// store to the next iteration through a header phi. Read only on a hit, it
// is dead at every iteration's start, but seeing that takes the correlation
// of the lookup's result and its store, which -O1 (no jump threading) or a
// sanitizer's checks leave unresolved; memcoro-split then finds a value
// carried from one iteration to the next and keeps the loop serial.
//
// A store right after the lifetime start of one of the values the variable
// may then hold says no more than the lifetime start does, in a form
// promotion keeps: the phi goes, and no iteration depends on another through
// the variable. The value is zero, not undef: InstCombine deletes a store of
// undef, which promises nothing, before the loop is simplified. Scalars only, which
// are what promotion turns into phis; an array or struct keeps its memory,
// which legality judges as the stack memory it is.
//
// The other way round, a variable declared before the loop that the body
// sets to a value it read from memory (`start = starts[j + 1]`) hands that
// value to the next iteration, which reads no memory for it in the source.
// After GVN such a variable looks like the value LLVM itself forwards from
// one iteration's `off[u + 1]` to the next one's `off[u]`, which the next
// iteration does read (CarriedLoad.cpp reads it again); memcoro-mark notes
// on the loop that the source carries one, while the source is still there
// to tell.
//
//===----------------------------------------------------------------------===//
#include "BodyLocals.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "memcoro-mark"

STATISTIC(NumBodyLocals, "Number of scalar variables of marked loops' bodies set to zero where their lifetime starts");

unsigned memcoro::restartBodyLocals(Loop &L) {
  unsigned Count = 0;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Start = dyn_cast<IntrinsicInst>(&I);
      if (!Start || Start->getIntrinsicID() != Intrinsic::lifetime_start)
        continue;
      auto *Var = dyn_cast<AllocaInst>(Start->getArgOperand(1)->stripPointerCasts());
      if (!Var || !Var->isStaticAlloca() || !Var->getAllocatedType()->isSingleValueType())
        continue;
      auto *Zero = new StoreInst(Constant::getNullValue(Var->getAllocatedType()), Var, Start->getNextNode());
      Zero->setAlignment(Var->getAlign());
      LLVM_DEBUG(dbgs() << "memcoro-mark: " << *Var << " begins each iteration uninitialised\n");
      ++NumBodyLocals;
      ++Count;
    }
  return Count;
}

/// Whether \p Var's lifetime starts inside \p L: a variable of the body.
static bool declaredInBody(const Loop &L, const AllocaInst &Var) {
  return any_of(Var.users(), [&](const User *U) {
    const auto *II = dyn_cast<IntrinsicInst>(U);
    return II && II->getIntrinsicID() == Intrinsic::lifetime_start && L.contains(II);
  });
}

bool memcoro::copiesMemoryIntoOuterLocal(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Store = dyn_cast<StoreInst>(&I);
      auto *Var = Store ? dyn_cast<AllocaInst>(Store->getPointerOperand()->stripPointerCasts()) : nullptr;
      if (!Var || declaredInBody(L, *Var))
        continue;
      Value *V = Store->getValueOperand();
      while (auto *Cast = dyn_cast<CastInst>(V))
        V = Cast->getOperand(0);
      // A local variable's value copied (clang's temporaries of a C11
      // atomic's operand hold `share`, read from its own slot) is no read of
      // memory the source makes.
      auto *Load = dyn_cast<LoadInst>(V);
      if (Load && !isa<AllocaInst>(Load->getPointerOperand()->stripPointerCasts())) {
        LLVM_DEBUG(dbgs() << "memcoro-mark: the body hands" << *Store << " to the next iteration\n");
        return true;
      }
    }
  return false;
}
