//===- LateSplit.h - memcoro-split where the pipeline has no vectorizer -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_LATESPLIT_H
#define MEMCORO_COMPILER_LATESPLIT_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// Runs memcoro-split's steps (given as \p Steps) on a function that still
/// holds a marked loop at the end of the optimisation pipeline: the pipeline
/// had no vectorizer-start extension point (ThinLTO's pre-link pipeline).
/// Wherever memcoro-split already ran, no marked loop is left and it does
/// nothing.
class LateSplitPass : public llvm::PassInfoMixin<LateSplitPass> {
  llvm::FunctionPassManager Steps;

public:
  explicit LateSplitPass(llvm::FunctionPassManager Steps) : Steps(std::move(Steps)) {}
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
