//===- Split.h - memcoro-split: marked loops become coroutines --*- C++ -*-===//
#ifndef MEMCORO_COMPILER_SPLIT_H
#define MEMCORO_COMPILER_SPLIT_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// Turns every marked loop of a function into N interleaved coroutines driven
/// by a static round-robin scheduler, or leaves it serial with a missed remark
/// that says why.
struct SplitPass : llvm::PassInfoMixin<SplitPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
