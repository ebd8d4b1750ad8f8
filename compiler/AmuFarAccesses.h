//===- AmuFarAccesses.h - memcoro-amu-far: synchronous far accesses -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_AMUFARACCESSES_H
#define MEMCORO_COMPILER_AMUFARACCESSES_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// -memcoro-amu (memcoro-cc -fmemcoro-amu): far memory is the software AMU's.
bool amuEnabled();

/// Every load, store or atomic update through an address-space-1 pointer
/// still there after memcoro-split becomes a synchronous access through the
/// thread's AMU that pays the modelled latency (AmuFarAccesses.cpp).
struct AmuFarAccessesPass : llvm::PassInfoMixin<AmuFarAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif // MEMCORO_COMPILER_AMUFARACCESSES_H
