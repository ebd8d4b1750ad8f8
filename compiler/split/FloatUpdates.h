//===- FloatUpdates.h - updates whose order shows in their result --------===//
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

/// The load and store of each update in \p Plan's loop whose result depends
/// on the order iterations apply it, of a location other iterations may
/// update as well: a floating-point `acc[k] += c` no reassociation permits,
/// a floating-point minimum or maximum (NaN, signed zeros), an argmin.
llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::StoreInst *>, 2>
findOrderSensitiveUpdates(const SplitAnalyses &A, const LoopPlan &Plan);

} // namespace memcoro

#endif
