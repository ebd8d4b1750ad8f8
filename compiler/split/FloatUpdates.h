//===- FloatUpdates.h - floating-point updates whose order shows ----------===//
//
// Used by SplitOrdered.cpp's planner; see FloatUpdates.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_SPLIT_FLOATUPDATES_H
#define MEMCORO_SPLIT_FLOATUPDATES_H

#include "split/SplitInternal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"

#include <utility>

namespace memcoro {

/// The load and store of each floating-point update in \p Plan's loop that
/// no reassociation permits (`acc[k] += c` built without -ffast-math or a
/// reduction clause) of a location other iterations may update as well.
llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::StoreInst *>, 2>
findOrderSensitiveFloatUpdates(const SplitAnalyses &A, const LoopPlan &Plan);

} // namespace memcoro

#endif
