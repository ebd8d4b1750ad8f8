//===- Finalize.h - memcoro-finalize: the end of a marked loop's path -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_FINALIZE_H
#define MEMCORO_COMPILER_FINALIZE_H

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"

namespace memcoro {

/// Reports every marked loop that never reached memcoro-split and removes the
/// marker calls nothing consumed, so that no call to the (undefined) marker
/// function reaches code generation.
struct FinalizePass : llvm::PassInfoMixin<FinalizePass> {
  explicit FinalizePass(llvm::OptimizationLevel Level = llvm::OptimizationLevel::O2) : Level(Level) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::OptimizationLevel Level;
};

} // namespace memcoro

#endif
