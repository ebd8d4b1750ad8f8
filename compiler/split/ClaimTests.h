//===- ClaimTests.h - the tests and stores of first-writer-wins claims ----===//
//
// Used by SplitOrdered.cpp's first-writer-wins recogniser; see
// ClaimTests.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_SPLIT_CLAIMTESTS_H
#define MEMCORO_SPLIT_CLAIMTESTS_H

#include "split/SplitInternal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

namespace memcoro {

/// The conditional branches of \p L that test what \p Load read: a
/// comparison with a constant of its value or of bits of it (a visited
/// bitmap's `w & (1 << (v & 63))`), or a truncation of it to one bit.
llvm::SmallVector<llvm::BranchInst *, 2> branchesTesting(const llvm::Loop &L, const llvm::LoadInst &Load);

/// Whether \p Store, on the \p Side of a test of the location it writes,
/// claims it: the value differs between iterations, or the side writes
/// other memory (a visited flag set to 1 before the parent and the queue
/// slot), so which iteration passes the test decides the answer.
bool claimsBehind(const SplitAnalyses &A, const llvm::Loop &L, const llvm::BasicBlockEdge &Side,
                  const llvm::StoreInst &Store);

} // namespace memcoro

#endif
