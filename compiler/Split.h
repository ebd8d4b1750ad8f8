//===- Split.h - memcoro-split: marked loops become coroutines --*- C++ -*-===//
#ifndef MEMCORO_COMPILER_SPLIT_H
#define MEMCORO_COMPILER_SPLIT_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace memcoro {

/// Turns every marked loop of a function into N interleaved coroutines, or
/// leaves it serial with a missed remark that says why.
struct SplitPass : llvm::PassInfoMixin<SplitPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

/// print<memcoro-plan>: what memcoro-split would decide for each marked loop
/// (shape, suspension points, coalescing, dispatch, or why it stays serial),
/// without transforming it.
class SplitPlanPrinterPass : public llvm::PassInfoMixin<SplitPlanPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit SplitPlanPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
