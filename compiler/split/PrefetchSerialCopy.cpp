//===- PrefetchSerialCopy.cpp - an adapting loop's serial copy prefetches ahead ===//
//
// A step of memcoro-split, run once every marked loop of a function is done
// (SplitPass::run in Split.cpp), before the serial copies move into
// functions of their own (OutlineSerialCopy.cpp). Run-time adaptation
// (Adaptation.cpp) runs an interleaved loop's serial copy whenever the
// coroutines measure no faster, and on a ring of many suspension points
// that is often: union-find over 16 Mi random edges (bench/programs/
// unionfind.c, 7 suspension points, a CAS per edge) ran interleaved at 0.6x
// serial, 40 ns an edge the serial core already overlaps across edges
// against a dispatch misprediction per suspension. The serial copy was then
// all the loop had. Its first miss of every iteration is a gather off an
// affine sequence (`parent[edges[e].u]`), which the hand loop prefetches
// ahead: 1.25-1.3x serial. So the serial copy of a ring gets the
// prefetch-ahead code generator's prefetches (PrefetchAhead.cpp), planned on
// the copy with its own analyses, for the copies of the loop's remote
// accesses. A pipeline's or lockstep's serial copy gets none: its one
// suspension per iteration is a prefetch distance already, and its serial
// copy is what runs on data near the core, where prefetches only cost
// instructions (a gather at 1 MiB: 1.3x).
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumPrefetchedSerialCopies, "Number of adapting loops' serial copies prefetched ahead");

static cl::opt<bool> PrefetchSerialCopy("memcoro-prefetch-serial-copy", cl::Hidden, cl::init(true),
                                        cl::desc("The serial copy of an adapting ring prefetches its "
                                                 "gathers off affine sequences ahead"));

static constexpr StringLiteral CopyHeaderMD = "memcoro.serial.prefetch";
static constexpr StringLiteral CopyRemoteMD = "memcoro.serial.remote";

void memcoro::markSerialCopyForPrefetch(BasicBlock &Header, ArrayRef<Instruction *> Remote) {
  if (!PrefetchSerialCopy)
    return;
  LLVMContext &Ctx = Header.getContext();
  Header.getTerminator()->setMetadata(CopyHeaderMD, MDNode::get(Ctx, {}));
  for (Instruction *I : Remote)
    I->setMetadata(CopyRemoteMD, MDNode::get(Ctx, {}));
}

bool memcoro::prefetchSerialCopies(Function &F, FunctionAnalysisManager &FAM) {
  SmallVector<BasicBlock *, 2> Headers;
  SmallVector<Instruction *, 16> Marked;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (I.getMetadata(CopyRemoteMD))
        Marked.push_back(&I);
      if (I.isTerminator() && I.getMetadata(CopyHeaderMD))
        Headers.push_back(&BB);
    }
  for (Instruction *I : Marked)
    I->setMetadata(CopyRemoteMD, nullptr);
  for (BasicBlock *Header : Headers)
    Header->getTerminator()->setMetadata(CopyHeaderMD, nullptr);
  if (Headers.empty())
    return false;

  // The lowering changed the function under every analysis.
  FAM.invalidate(F, PreservedAnalyses::none());
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  SplitAnalyses A{F,
                  LI,
                  FAM.getResult<DominatorTreeAnalysis>(F),
                  FAM.getResult<ScalarEvolutionAnalysis>(F),
                  FAM.getResult<AssumptionAnalysis>(F),
                  FAM.getResult<DependenceAnalysis>(F),
                  FAM.getResult<RemoteAccessAnalysis>(F),
                  F.getParent()->getDataLayout(),
                  FAM.getResult<AAManager>(F)};
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  bool Changed = false;
  for (BasicBlock *Header : Headers) {
    Loop *Copy = LI.getLoopFor(Header);
    if (!Copy || Copy->getHeader() != Header) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the serial copy at " << Header->getName()
                        << " is no longer a loop's header: no prefetches ahead\n");
      continue;
    }
    SmallVector<Instruction *, 8> Remote;
    for (Instruction *I : Marked)
      if (Copy->contains(I))
        Remote.push_back(I);
    if (prefetchAheadInOrder(A, *Copy, Remote, ORE)) {
      ++NumPrefetchedSerialCopies;
      Changed = true;
    }
  }
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());
  return Changed;
}
