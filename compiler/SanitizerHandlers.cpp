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
// None of them unwinds: the runtime is C, a recoverable report returns and
// the others end the process. clang says so at each call, not on the
// declaration; it says it here too. That alone does not help the C++
// accessors a marked loop calls (`g.out_neigh(u)`, an iterator's `*`): with
// their checks they grow past the inliner's threshold, and LLVM infers
// nounwind only for definitions no other unit's copy may replace, never for
// an inline member function's linkonce_odr one. The loop then invokes them,
// the unwind edge to its cleanup is an early exit, and the loop stays
// serial where the build without the sanitizer inlines them and
// interleaves it. Every copy of such a function is compiled from the same
// source, and this one is clang's own, before any optimisation: when no
// instruction of it may throw but through the handlers (and through
// functions found the same way), no copy the linker may pick throws, so it
// is marked nounwind; its calls then run in place in the loop
// (CallsInPlace.cpp).
//
// Only modules with a marked loop are changed, so that a -fno-memcoro build
// is exactly what clang makes of the program.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-sanitizer-handlers -S in.ll
//
//===----------------------------------------------------------------------===//
#include "SanitizerHandlers.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-sanitizer-handlers"

STATISTIC(NumHandlers, "Number of UBSan handlers declared to write only their arguments' memory");
STATISTIC(NumCheckedNounwind, "Number of replaceable functions with UBSan checks found not to unwind");

/// Marks nounwind each linkonce_odr / weak_odr definition that calls a UBSan
/// handler, directly or through functions marked here, and has no other
/// instruction that may throw. Returns whether it marked any.
static bool markCheckedFunctionsNounwind(Module &M) {
  SmallPtrSet<const Function *, 16> Checked;
  for (Function &F : M)
    if (F.isDeclaration() && isUBSanHandler(F))
      Checked.insert(&F);
  bool Changed = false;
  for (bool Again = true; Again;) {
    Again = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.doesNotThrow() || !(F.hasLinkOnceODRLinkage() || F.hasWeakODRLinkage()))
        continue;
      bool CallsChecked = false, MayThrow = false;
      for (Instruction &I : instructions(F)) {
        auto *Call = dyn_cast<CallBase>(&I);
        const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (Callee && Checked.count(Callee))
          CallsChecked = true;
        if (I.mayThrow()) {
          MayThrow = true;
          break;
        }
      }
      if (!CallsChecked || MayThrow)
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-sanitizer-handlers: " << F.getName()
                        << " unwinds through nothing but UBSan's handlers: nounwind\n");
      F.setDoesNotThrow();
      Checked.insert(&F);
      ++NumCheckedNounwind;
      Changed = Again = true;
    }
  }
  return Changed;
}

PreservedAnalyses SanitizerHandlersPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!M.getNamedMetadata(MarkedLoopsMD))
    return PreservedAnalyses::all();
  const MemoryEffects Effects = MemoryEffects::readOnly() | MemoryEffects::argMemOnly(ModRefInfo::ModRef) |
                                MemoryEffects::inaccessibleMemOnly(ModRefInfo::ModRef);
  bool Changed = false;
  for (Function &F : M) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !isUBSanHandler(F))
      continue;
    if (!F.doesNotThrow()) {
      F.setDoesNotThrow();
      Changed = true;
    }
    if (Name.contains("dynamic_type_cache_miss"))
      continue;
    if (F.getMemoryEffects() == (F.getMemoryEffects() & Effects))
      continue;
    LLVM_DEBUG(dbgs() << "memcoro-sanitizer-handlers: " << Name << " writes only its arguments' memory\n");
    F.setMemoryEffects(F.getMemoryEffects() & Effects);
    ++NumHandlers;
    Changed = true;
  }
  Changed |= markCheckedFunctionsNounwind(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
