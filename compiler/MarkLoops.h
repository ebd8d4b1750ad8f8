//===- MarkLoops.h - memcoro-mark: pragma markers to loop metadata -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_MARKLOOPS_H
#define MEMCORO_COMPILER_MARKLOOPS_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// Turns the llvm.annotation markers the pragma plugin leaves in a loop body
/// into loop metadata (memcoro.parallel, memcoro.id, unrolling disabled) and
/// __memcoro_remote_base calls; reports every marked loop.
struct MarkLoopsPass : llvm::PassInfoMixin<MarkLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
