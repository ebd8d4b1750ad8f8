//===- Finalize.cpp - memcoro-finalize: the end of a marked loop's path ---===//
//
// Runs last in the optimisation pipeline (optimizer-last extension point, at
// every -O level). A loop marked by memcoro-mark that memcoro-split never
// saw was deleted, fully unrolled or folded away by earlier optimisations, or
// the pipeline had no memcoro-split at all (-O0): the user gets a missed
// remark at the pragma saying which. Leftover __memcoro_remote_base and
// __memcoro_ordered calls are removed so that they cost nothing and need no definition at link time.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-finalize -S in.ll
//
//===----------------------------------------------------------------------===//
#include "Finalize.h"
#include "MemcoroInternal.h"
#include "NestedCalls.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-finalize"

STATISTIC(NumLoopsVanished, "Number of marked loops that never reached memcoro-split");

static DenseSet<unsigned> idsIn(const NamedMDNode *List) {
  DenseSet<unsigned> Ids;
  if (List)
    for (const MDNode *Entry : List->operands())
      Ids.insert(mdconst::extract<ConstantInt>(Entry->getOperand(0))->getZExtValue());
  return Ids;
}

/// Debian's LLVM is a release build: it collects the counters of a plugin
/// built with statistics (memcoro's) but its own -stats printer only says
/// "Statistics are disabled". Print them all, memcoro's among them, in
/// the layout of an assertions-enabled LLVM.
static void printStatistics() {
  if (!AreStatisticsEnabled())
    return;
  auto Stats = GetStatistics();
  if (Stats.empty())
    return;
  errs() << "===" << std::string(73, '-') << "===\n"
         << "                          ... Statistics Collected ...\n"
         << "===" << std::string(73, '-') << "===\n";
  for (const auto &[Name, Value] : Stats)
    errs() << format("%8llu", (unsigned long long)Value) << " " << Name << "\n";
}

PreservedAnalyses FinalizePass::run(Module &M, ModuleAnalysisManager &MAM) {
  printStatistics();
  bool Changed = false;
  if (Function *BaseFn = M.getFunction(RemoteBaseFn)) {
    for (User *U : make_early_inc_range(BaseFn->users()))
      cast<Instruction>(U)->eraseFromParent();
    BaseFn->eraseFromParent();
    Changed = true;
  }
  // Ordered-region markers of loops that stayed serial or never reached
  // memcoro-split: a serial loop runs its regions in order anyway.
  if (Function *OrdFn = M.getFunction(OrderedFn)) {
    for (User *U : make_early_inc_range(OrdFn->users()))
      cast<Instruction>(U)->eraseFromParent();
    OrdFn->eraseFromParent();
    Changed = true;
  }

  // Yields into callees of other units in loops that stayed serial (or the
  // serial copy of an adapting loop): the callee then runs to its end there.
  if (Function *YieldFn = M.getFunction(NestedYieldFn)) {
    for (User *U : make_early_inc_range(YieldFn->users()))
      cast<Instruction>(U)->eraseFromParent();
    YieldFn->eraseFromParent();
    Changed = true;
  }

  NamedMDNode *Marked = M.getNamedMetadata(MarkedLoopsMD);
  if (!Marked)
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  DenseSet<unsigned> Seen = idsIn(M.getNamedMetadata(SeenLoopsMD));
  // A remark needs a function to hang on; any defined one will do, the
  // location is the pragma's.
  Function *Anchor = nullptr;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      Anchor = &F;
      break;
    }
  for (const MDNode *Entry : Marked->operands()) {
    unsigned Id = mdconst::extract<ConstantInt>(Entry->getOperand(0))->getZExtValue();
    if (Seen.contains(Id) || !Anchor)
      continue;
    ++NumLoopsVanished;
    auto *Loc = dyn_cast<DILocation>(Entry->getOperand(1));
    LLVM_DEBUG(dbgs() << "memcoro-finalize: marked loop " << Id << " never reached memcoro-split\n");
    OptimizationRemarkEmitter ORE(Anchor);
    ORE.emit([&] {
      OptimizationRemarkMissed R(RemarkPass, "LoopVanished", DebugLoc(Loc), &Anchor->getEntryBlock());
      if (Level == OptimizationLevel::O0)
        R << "marked loop not transformed: memcoro transforms loops only when optimising (-O1 or higher)";
      else
        R << "marked loop not transformed: earlier optimisations removed it (deleted, fully unrolled "
             "or folded away) before memcoro could turn it into coroutines";
      return R;
    });
  }
  Marked->eraseFromParent();
  if (NamedMDNode *SeenMD = M.getNamedMetadata(SeenLoopsMD))
    SeenMD->eraseFromParent();
  return PreservedAnalyses::none();
}
