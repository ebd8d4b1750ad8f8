//===- NestedCalls.h - memcoro-nested-calls: callees resumed inside a loop -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_NESTEDCALLS_H
#define MEMCORO_COMPILER_NESTEDCALLS_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Loop;
}

namespace memcoro {

/// Gives each call of a marked loop to a function of this translation unit
/// with far accesses (a noinline lookup helper) a resumable copy of the
/// callee inside the loop, so that the iterations suspend at the callee's
/// accesses too; recursive callees and callees of other translation units
/// stay plain calls, with a remark.
struct NestedCallsPass : llvm::PassInfoMixin<NestedCallsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// "callee 'lookup' resumed as a nested coroutine ..." for the Transformed
/// remark of \p L, or empty when no callee of it was.
std::string nestedCalleesRemark(const llvm::Loop &L);

} // namespace memcoro

#endif
