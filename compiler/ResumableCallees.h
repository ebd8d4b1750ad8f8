//===- ResumableCallees.h - memcoro-resumable: callees other units resume -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_RESUMABLECALLEES_H
#define MEMCORO_COMPILER_RESUMABLECALLEES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace memcoro {

/// Gives every external function with far-looking loads a resumable clone
/// (an LLVM switch-resume coroutine that prefetches and suspends before each
/// of them) and a descriptor other translation units find by name. Runs
/// before CoroSplit, which lays the clone's frame out.
struct ResumableCalleesPass : llvm::PassInfoMixin<ResumableCalleesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// After CoroSplit: writes each descriptor's frame size.
struct ResumableDescriptorsPass : llvm::PassInfoMixin<ResumableDescriptorsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// The descriptor of function \p Name: { i64 frame size, ptr ramp }, where
/// ramp(ptr frame, ptr result, args...) runs the callee up to its first
/// suspension in \p frame; frame[0], the resume function, is null once it has
/// returned, its value stored to result.
std::string resumableDescriptorName(llvm::StringRef Name);

} // namespace memcoro

#endif
