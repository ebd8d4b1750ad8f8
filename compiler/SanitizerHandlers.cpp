//===- SanitizerHandlers.cpp - what UBSan's handlers may touch ------------===//
//
// Run at the pipeline-start extension point, after memcoro-mark. Under
// -fsanitize=undefined each check of a loop is a branch to a call of a
// `__ubsan_handle_*` function, which clang declares with no memory effects:
// LLVM must assume the call writes any memory. In a marked loop that pins
// every load the loop could otherwise read once (`j < lastrow - firstrow + 1`
// on globals, `u < g.num_nodes()`, a table's base pointer) inside the loop,
// after the checks: the bound is read again in every iteration, its own
// overflow check becomes a check of a value the loop computes, and the loop
// stays a `while` loop memcoro-split must keep serial. The sanitized build
// would then not test the interleaved loop the user ships.
//
// What the handlers do: read the static check data their first argument
// points to and write its "already reported" flag, read the values they are
// given (by value, or through a pointer to a temporary clang made for a wide
// value), print a report, and for the abort variants end the process with
// the sanitizer's own exit, which runs no handler of the program. So they
// may read any memory and write only memory their arguments point to and
// memory the program cannot see; saying so lets LICM and GVN treat the loop
// as in the build without the sanitizer. The vptr check's handler is left
// alone: it fills a cache the instrumented code reads directly.
//
// Only modules with a marked loop are changed, so that a -fno-memcoro build
// is exactly what clang makes of the program.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-sanitizer-handlers -S in.ll
//
//===----------------------------------------------------------------------===//
#include "SanitizerHandlers.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-sanitizer-handlers"

STATISTIC(NumHandlers, "Number of UBSan handlers declared to write only their arguments' memory");

PreservedAnalyses SanitizerHandlersPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!M.getNamedMetadata(MarkedLoopsMD))
    return PreservedAnalyses::all();
  const MemoryEffects Effects = MemoryEffects::readOnly() | MemoryEffects::argMemOnly(ModRefInfo::ModRef) |
                                MemoryEffects::inaccessibleMemOnly(ModRefInfo::ModRef);
  bool Changed = false;
  for (Function &F : M) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !isUBSanHandler(F) || Name.contains("dynamic_type_cache_miss"))
      continue;
    if (F.getMemoryEffects() == (F.getMemoryEffects() & Effects))
      continue;
    LLVM_DEBUG(dbgs() << "memcoro-sanitizer-handlers: " << Name << " writes only its arguments' memory\n");
    F.setMemoryEffects(F.getMemoryEffects() & Effects);
    ++NumHandlers;
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
