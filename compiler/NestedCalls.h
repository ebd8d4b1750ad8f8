//===- NestedCalls.h - memcoro-nested-calls: callees resumed inside a loop -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_NESTEDCALLS_H
#define MEMCORO_COMPILER_NESTEDCALLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class LoadInst;
class Loop;
class Module;
} // namespace llvm

namespace memcoro {

/// Gives each call of a marked loop to a function of this translation unit
/// with far accesses (a noinline lookup helper) a resumable copy of the
/// callee inside the loop, so that the iterations suspend at the callee's
/// accesses too; a loop with no far access of its own, or a call that returns
/// a pointer, resumes a callee of another translation unit through its
/// descriptor; recursive callees stay plain calls, with a remark.
struct NestedCallsPass : llvm::PassInfoMixin<NestedCallsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// A load whose address is neither a stack or global object nor a constant
/// offset from an argument: a table indexed by a computed value, or a pointer
/// the callee loaded.
bool isFarLookingLoad(const llvm::LoadInst &Load);
/// Whether \p F can reach itself through direct calls of this module.
bool isRecursive(llvm::Function &F);
/// Whether \p F has a marked loop of its own, which memcoro-split interleaves
/// there (a copy would be a second loop with the same memcoro.id).
bool hasMarkedLoop(llvm::Function &F);
/// Whether a loop's iterations could suspend inside \p F: not variadic, at
/// most -memcoro-nested-max-size instructions, a far-looking load, no marked
/// loop of its own (recursion is checked apart, for its remark).
bool mayResumeCallee(llvm::Function &F);

/// `void __memcoro_nested_yield()`: where an iteration waits for a callee of
/// another translation unit it resumes; memcoro-split makes it a suspension
/// point with nothing to prefetch, memcoro-finalize removes what is left.
inline constexpr llvm::StringLiteral NestedYieldFn = "__memcoro_nested_yield";
llvm::Function *getOrInsertNestedYield(llvm::Module &M);
/// The yield markers in the loop's blocks.
llvm::SmallVector<llvm::CallInst *, 2> getNestedYields(const llvm::Loop &L);
/// Whether \p I is part of the code that resumes a callee of another unit
/// (the descriptor test, the ramp and resume calls, the marker, the plain
/// call beside them).
bool isNestedCallPart(const llvm::Instruction &I);

/// Makes the resumptions of callees of other units among \p Blocks plain
/// calls (the descriptor test folded to false; the resuming blocks are left
/// unreachable), for a serial copy of the loop: serially there is nothing to
/// overlap, and the plain call is what the loop without the pragma makes.
/// Whether there was one.
bool callNestedCalleesPlainly(llvm::ArrayRef<llvm::BasicBlock *> Blocks);

/// "callee 'lookup' resumed as a nested coroutine ..." for the Transformed
/// remark of \p L, or empty when no callee of it was.
std::string nestedCalleesRemark(const llvm::Loop &L);

} // namespace memcoro

#endif
