//===- KeepLoopMarks.cpp - marked loops' metadata through SCCP, SimplifyCFG ===//
//
// A marked loop is known to memcoro-split by its !llvm.loop metadata
// (MarkLoops.cpp), which sits on the branch of the loop's latch. LLVM 19's
// SCCP, when it finds such a branch's condition constant, replaces the branch
// by an unconditional one and does not copy the metadata: the loop is still
// there, but unmarked, and memcoro-finalize says "removed by earlier
// optimisations". Under -fno-sanitize-recover=undefined (or
// -fsanitize-trap) this happens to whole programs: a check whose failure
// ends the program becomes the latch, loop unswitching and GVN prove it
// passes, and SCCP folds it (hashjoin's probe, hashbuild's build loop).
// SimplifyCFG does the same when it turns a latch's switch into a branch: a
// `while` body that declares a variable and may `break` ends in a switch on
// the cleanup's destination, and the loop lost its mark to it.
//
// GVN's load PRE puts a reload on a back edge it splits: the metadata stays
// on a branch that is no latch any more.
//
// Not a pass: pass-instrumentation callbacks around every function and module
// pass, for functions memcoro-mark marked. Before the pass, the header of
// each marked loop is noted; after it, when the latch of the loop of that
// header does not carry the loop's metadata, it gets it back. A latch folded
// towards the exit is no loop any more and stays as it is.
//
//===----------------------------------------------------------------------===//
#include "KeepLoopMarks.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <memory>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-keep-marks"

STATISTIC(NumMarksRestored, "Number of marked loops whose latch lost its metadata to a pass, put back");

namespace {

struct Mark {
  BasicBlock *Header;
  MDNode *LoopID;
};

class MarkKeeper {
public:
  void before(StringRef PassID, Any IR) {
    Marks.clear();
    if (!dropsMarks(PassID))
      return;
    forEachMarkedFunction(IR, [&](Function &F) {
      DominatorTree DT(F);
      LoopInfo LI(DT);
      for (Loop *L : LI.getLoopsInPreorder())
        if (getMarkedParallelism(*L) && L->getLoopLatch())
          Marks[&F].push_back({L->getHeader(), L->getLoopID()});
    });
  }

  void after(StringRef PassID, Any IR) {
    if (Marks.empty())
      return;
    forEachMarkedFunction(IR, [&](Function &F) {
      auto It = Marks.find(&F);
      if (It == Marks.end())
        return;
      SmallPtrSet<const BasicBlock *, 32> Blocks;
      for (BasicBlock &BB : F)
        Blocks.insert(&BB);
      std::unique_ptr<DominatorTree> DT;
      std::unique_ptr<LoopInfo> LI;
      for (const Mark &M : It->second) {
        if (!Blocks.count(M.Header))
          continue;
        // The loop of the same header, whose latch may be another block now:
        // SimplifyCFG threads a switch on a cleanup's destination (a `while`
        // body that declares a variable and may break) into the blocks
        // before it, GVN's load PRE splits the back edge to put a reload of
        // the bound on it (an OpenMP chunk loop at -O3), and the new latch
        // has no metadata.
        if (!LI) {
          DT = std::make_unique<DominatorTree>(F);
          LI = std::make_unique<LoopInfo>(*DT);
        }
        Loop *L = LI->getLoopFor(M.Header);
        BasicBlock *Latch = L && L->getHeader() == M.Header ? L->getLoopLatch() : nullptr;
        auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
        if (!Br || Br->getMetadata(LLVMContext::MD_loop) == M.LoopID)
          continue;
        LLVM_DEBUG(dbgs() << "memcoro-keep-marks: " << PassID << " dropped the metadata of a marked loop in "
                          << F.getName() << "; put back\n");
        Br->setMetadata(LLVMContext::MD_loop, M.LoopID);
        // A branch of the loop that kept the metadata is no back edge: an
        // inner loop it may come to close later must not take the mark.
        for (BasicBlock *BB : L->blocks())
          if (BB != Latch && BB->getTerminator()->getMetadata(LLVMContext::MD_loop) == M.LoopID)
            BB->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
        ++NumMarksRestored;
      }
    });
    Marks.clear();
  }

private:
  /// Any pass that changes a function's blocks may move a latch. Loop
  /// passes keep their loop's latch and its metadata; pass managers and
  /// adaptors only run the passes checked one by one; memcoro's own passes
  /// unmark what they turn into a state machine or leave serial.
  static bool dropsMarks(StringRef PassID) {
    return !PassID.starts_with("memcoro::") && !PassID.contains("PassManager") && !PassID.contains("Adaptor") && !PassID.contains("Analysis") &&
           !PassID.contains("Verifier") && !PassID.contains("Print");
  }

  template <typename Fn> static void forEachMarkedFunction(Any IR, Fn &&Visit) {
    auto visit = [&](const Function *F) {
      if (F && !F->isDeclaration() && F->hasFnAttribute(MarkedFnAttr))
        Visit(const_cast<Function &>(*F));
    };
    if (const auto *F = llvm::any_cast<const Function *>(&IR))
      visit(*F);
    else if (const auto *M = llvm::any_cast<const Module *>(&IR))
      for (const Function &F : **M)
        visit(&F);
  }

  DenseMap<const Function *, SmallVector<Mark, 2>> Marks;
};

} // namespace

void memcoro::keepLoopMarksThroughSCCP(PassInstrumentationCallbacks &PIC) {
  auto Keeper = std::make_shared<MarkKeeper>();
  PIC.registerBeforeNonSkippedPassCallback([Keeper](StringRef PassID, Any IR) { Keeper->before(PassID, IR); });
  PIC.registerAfterPassCallback(
      [Keeper](StringRef PassID, Any IR, const PreservedAnalyses &) { Keeper->after(PassID, IR); });
}
