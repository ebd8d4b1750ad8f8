//===- RotatedSearch.cpp - a while search's counted test moved to the latch ===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan. A search written as a `while` loop
//
//   while (i < n) {                 header:  i = phi [0, ...], [i + 1, latch]
//     int v = big[r[i]];                     br (i == n), exit, latch
//     if (v == stop) {               latch:   v = load big[r[i]]
//       found = i; break;                     br (v == stop), exit, header
//     }
//     i++;
//   }
//
// reaches memcoro-split unrotated: LoopRotate leaves a loop whose latch
// already exits, taking it for rotated. The plan reads the latch's exit as
// the loop's count, and the counted test at the header as an exit test to
// run at launch; the found iteration's `i`, leaving through the latch, then
// has no value before the loop ends, and the loop stayed serial ("a value
// computed in the loop is used after it"). The `for` form of the same search
// has the match test in the body and the count at the latch. LLVM's rotation,
// asked to rotate regardless of its profitability test, gives the `while`
// form that shape: the match becomes an early exit, whose winner's values
// the plan already takes, and the count sits at the latch.
//
// Only when the header's exit is counted (scalar evolution has its exit
// count) and the latch's is not, and the header holds nothing but the test:
// rotation copies the header into the preheader, and a call or a store there
// would run once more.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopRotationUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumSearchesRotated, "Number of marked while searches rotated so that their count is tested at the latch");

/// The largest header rotation may copy: a counted test and the casts and
/// compares that feed it.
static constexpr unsigned MaxHeaderInstructions = 16;

static bool headerIsOnlyATest(const BasicBlock &Header) {
  if (Header.size() > MaxHeaderInstructions)
    return false;
  return none_of(Header, [](const Instruction &I) { return I.mayReadOrWriteMemory() || isa<CallBase>(I); });
}

bool memcoro::rotateWhileSearch(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                                AssumptionCache &AC, const TargetTransformInfo &TTI,
                                const TargetLibraryInfo &TLI) {
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || Latch == Header || !L.isLoopExiting(Header) || !L.isLoopExiting(Latch) ||
      !L.getLoopPreheader())
    return false;
  auto *HeaderBranch = dyn_cast<BranchInst>(Header->getTerminator());
  if (!HeaderBranch || !HeaderBranch->isConditional() || !headerIsOnlyATest(*Header))
    return false;
  if (isa<SCEVCouldNotCompute>(SE.getExitCount(&L, Header)) ||
      !isa<SCEVCouldNotCompute>(SE.getExitCount(&L, Latch))) {
    LLVM_DEBUG(dbgs() << "memcoro-split: header and latch both exit, but the header's exit is not the counted one\n");
    return false;
  }
  MDNode *LoopId = L.getLoopID();
  const DataLayout &DL = Header->getModule()->getDataLayout();
  SimplifyQuery SQ(DL, &TLI, &DT, &AC);
  if (!LoopRotation(&L, &LI, &TTI, &AC, &DT, &SE, /*MSSAU=*/nullptr, SQ, /*RotationOnly=*/true,
                    MaxHeaderInstructions, /*IsUtilMode=*/true)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: LoopRotation declined the while search\n");
    return false;
  }
  // The marks sit on the old latch's branch, which is no back edge now.
  if (LoopId) {
    if (Latch != L.getLoopLatch())
      Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
    L.setLoopID(LoopId);
  }
  SE.forgetLoop(&L);
  ++NumSearchesRotated;
  LLVM_DEBUG(dbgs() << "memcoro-split: while search rotated: its count is tested at the latch\n");
  return true;
}
