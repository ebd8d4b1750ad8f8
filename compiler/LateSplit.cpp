//===- LateSplit.cpp - memcoro-split where the pipeline has no vectorizer ---===//
//
// clang -flto=thin compiles each unit with ThinLTO's pre-link pipeline, which
// stops after the simplification passes: the vectorizer-start extension point,
// where memcoro-split runs, belongs to the optimisation passes the linker runs
// later, without memcoro's plugin. The marked loops would reach
// memcoro-finalize untouched and stay serial. Run at the optimizer-last
// extension point, which the pre-link pipeline does have, this pass gives each
// function that still holds a marked loop memcoro-split's steps there: the IR
// is what the vectorizer-start point would have seen (simplified, loops
// rotated), and the linker's optimisations then treat the coroutines as any
// other code. In every other pipeline memcoro-split has already taken or
// unmarked each marked loop, and this pass only looks.
//
//===----------------------------------------------------------------------===//
#include "LateSplit.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-late-split"

STATISTIC(NumLateFunctions, "Number of functions whose marked loops memcoro-split took at the optimizer's end");

PreservedAnalyses LateSplitPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (none_of(LI.getLoopsInPreorder(), [](Loop *L) { return getMarkedParallelism(*L).has_value(); }))
    return PreservedAnalyses::all();
  ++NumLateFunctions;
  LLVM_DEBUG(dbgs() << "memcoro-late-split: '" << F.getName()
                    << "' holds marked loops no memcoro-split has seen (ThinLTO pre-link pipeline)\n");
  return Steps.run(F, FAM);
}
