//===- SanitizerHandlers.h - what UBSan's handlers may touch -----*- C++ -*-===//
#ifndef MEMCORO_COMPILER_SANITIZERHANDLERS_H
#define MEMCORO_COMPILER_SANITIZERHANDLERS_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// In a module with marked loops, tells LLVM that UBSan's report handlers
/// write only their own check data and the sanitizer's state, so that the
/// checks in a marked loop do not pin its loads (its bound) in the loop.
struct SanitizerHandlersPass : llvm::PassInfoMixin<SanitizerHandlersPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
