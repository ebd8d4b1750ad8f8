//===- ClaimTests.cpp - the tests and stores of first-writer-wins claims --===//
//
// A step of memcoro-split (see SplitInternal.h), used by SplitOrdered.cpp's
// first-writer-wins recogniser: which branches of a marked loop test what a
// load read, and which stores behind such a test claim the location. Codes
// claim a vertex in several ways besides `if (parent[v] < 0) parent[v] = u`:
//
//   - a visited bitmap (the Graph500 reference BFS, Ligra's and GAP's
//     bitmaps): `if (!(vis[v >> 6] & (1ull << (v & 63)))) { vis[v >> 6] |=
//     1ull << (v & 63); pred[v] = u; queue[k2++] = v; }`, a test of one bit of
//     the loaded word (an `and` with a mask, a shift, a truncation) whose
//     store writes the word back with the bit set;
//   - a visited flag (`bool`, `char`): `if (!vis[v]) { vis[v] = 1; ... }`,
//     one constant stored by every iteration. The flag's final value is the
//     same whoever sets it, but the winner does the rest of the claim (the
//     parent it writes, the queue slot it appends): the order decides the
//     answer whenever the store's side of the test writes other memory.
//
// Neither was recognised, and neither is a commutative update (the loaded
// word is also tested), so the contract's checks took the pragma's word that
// no other iteration touches the word: interleaved, two iterations could
// both find a vertex free, both claim and append it (the Graph500 BFS
// appended a vertex twice, overran its queue and crashed), and a word
// written back from a stale read lost the bits other iterations had set.
//
//===----------------------------------------------------------------------===//
#include "split/ClaimTests.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace memcoro;

/// Whether \p V is \p Load's value or bits of it: masked by an `and` (with a
/// constant or a bit computed in the iteration), shifted right, extended or
/// truncated, a few steps deep.
static bool bitsOf(const Value *V, const LoadInst &Load, unsigned Depth = 0) {
  if (V == &Load)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth == 4)
    return false;
  switch (I->getOpcode()) {
  case Instruction::And:
    return bitsOf(I->getOperand(0), Load, Depth + 1) || bitsOf(I->getOperand(1), Load, Depth + 1);
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
    return bitsOf(I->getOperand(0), Load, Depth + 1);
  default:
    return false;
  }
}

SmallVector<BranchInst *, 2> memcoro::branchesTesting(const Loop &L, const LoadInst &Load) {
  SmallVector<BranchInst *, 2> Tests;
  for (BasicBlock *BB : L.blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional())
      continue;
    Value *Cond = Br->getCondition();
    bool Tested = false;
    if (auto *Cmp = dyn_cast<ICmpInst>(Cond))
      Tested = isa<Constant>(Cmp->getOperand(1)) && bitsOf(Cmp->getOperand(0), Load);
    else if (auto *Trunc = dyn_cast<TruncInst>(Cond))
      Tested = bitsOf(Trunc->getOperand(0), Load);
    if (Tested)
      Tests.push_back(Br);
  }
  return Tests;
}

bool memcoro::claimsBehind(const SplitAnalyses &A, const Loop &L, const BasicBlockEdge &Side,
                           const StoreInst &Store) {
  if (!L.isLoopInvariant(Store.getValueOperand()))
    return true;
  for (BasicBlock *BB : L.blocks()) {
    if (!A.DT.dominates(Side, BB))
      continue;
    for (Instruction &I : *BB)
      if (&I != &Store && I.mayWriteToMemory())
        return true;
  }
  return false;
}
