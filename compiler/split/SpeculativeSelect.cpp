//===- SpeculativeSelect.cpp - a match test on fetched data made branch-free ===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan: a test of a value the iteration has just fetched
// that guards loads of other fields of the same object becomes a select.
//
//   %k = load e->key                  %k = load e->key
//   br (%k == key), %hit, %join       %p = load e->payload   ; hoisted
// hit:                                %s1 = add %s, %p
//   %p = load e->payload              %s.j = select (%k == key), %s1, %s
//   %s1 = add %s, %p                          !unpredictable
//   br %join                          br %join
// join:
//   %s.j = phi [%s1, %hit], [%s, %bb]
//   %n = load e->next
//
// A match in a hash probe is a coin flip, and inside the coroutine the
// branch costs a flush per probe that the ring cannot hide (docs/bench.md,
// hj). SimplifyCFG leaves the branch because nothing says e->payload may be
// read where only e->key was: the load is hoisted here only when it cannot
// fault nor read another object, either because LLVM proves the pointer
// dereferenceable, or because accesses that run whenever the test does (in
// the test's block before it, or at the top of the join block) reach the
// same object through inbounds offsets from one base on both sides of it: an
// object is contiguous, so everything between two of its bytes is in it.
// The select is marked unpredictable so that x86's cmov conversion keeps it.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/Loads.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumSpeculatedTests, "Number of tests on fetched data made branch-free by hoisting sibling loads");
STATISTIC(NumSpeculatedLoads, "Number of loads of a fetched object's other fields hoisted above a test");
STATISTIC(NumTestsKept, "Number of tests on fetched data left a branch: a guarded load was not proven safe");

static cl::opt<unsigned> SpeculateMax("memcoro-speculate-max", cl::Hidden, cl::init(8),
                                      cl::desc("Most instructions a test's guarded block may have for memcoro to "
                                               "run them unconditionally and select"));

namespace {

/// An access as a byte range from a base pointer that reaches it through
/// inbounds constant offsets only.
struct Range {
  const Value *Base = nullptr;
  int64_t Begin = 0, End = 0;
};

std::optional<Range> rangeOf(Instruction &I, const DataLayout &DL) {
  Value *Ptr = accessedPointer(I);
  Type *Ty = nullptr;
  if (auto *Ld = dyn_cast<LoadInst>(&I); Ld && Ld->isSimple())
    Ty = Ld->getType();
  else if (auto *St = dyn_cast<StoreInst>(&I); St && St->isSimple())
    Ty = St->getValueOperand()->getType();
  if (!Ptr || !Ty || DL.getTypeStoreSize(Ty).isScalable())
    return std::nullopt;
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  const Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/false);
  if (Offset.getSignificantBits() > 48)
    return std::nullopt;
  int64_t Begin = Offset.getSExtValue();
  return Range{Base, Begin, Begin + int64_t(DL.getTypeStoreSize(Ty).getFixedValue())};
}

/// The memory accesses that run whenever \p Br does, with nothing between
/// them and the test that could free or allocate memory: the test's block
/// back to the last call, and the join block up to its first call.
SmallVector<Instruction *, 8> accessesAroundTest(BranchInst *Br, BasicBlock *Join) {
  SmallVector<Instruction *, 8> Around;
  auto mayChangeObjects = [](const Instruction &I) {
    return isa<CallBase>(I) && !isa<DbgInfoIntrinsic>(I) && (I.mayHaveSideEffects() || !isa<IntrinsicInst>(I));
  };
  for (Instruction *I = Br->getPrevNode(); I && !mayChangeObjects(*I); I = I->getPrevNode())
    if (isa<LoadInst>(I) || isa<StoreInst>(I))
      Around.push_back(I);
  for (Instruction &I : *Join) {
    if (mayChangeObjects(I) || !isGuaranteedToTransferExecutionToSuccessor(&I))
      break;
    if (isa<LoadInst>(I) || isa<StoreInst>(I))
      Around.push_back(&I);
  }
  return Around;
}

/// Whether \p Ld may run where \p Br is, unconditionally. On success the load
/// may get a smaller alignment: the one the proof gives.
bool safeToHoist(LoadInst &Ld, BranchInst *Br, ArrayRef<Instruction *> Around, const DataLayout &DL,
                 AssumptionCache &AC, DominatorTree &DT, Align &Proven) {
  Proven = Ld.getAlign();
  if (!Ld.isSimple() || Ld.getPointerAddressSpace() != 0)
    return false;
  if (isDereferenceableAndAlignedPointer(Ld.getPointerOperand(), Ld.getType(), Ld.getAlign(), DL, Br, &AC, &DT))
    return true;
  std::optional<Range> Mine = rangeOf(Ld, DL);
  if (!Mine)
    return false;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  std::optional<Align> FromSibling;
  for (Instruction *I : Around) {
    std::optional<Range> R = rangeOf(*I, DL);
    if (!R || R->Base != Mine->Base)
      continue;
    Lo = std::min(Lo, R->Begin);
    Hi = std::max(Hi, R->End);
    Align A = isa<LoadInst>(I) ? cast<LoadInst>(I)->getAlign() : cast<StoreInst>(I)->getAlign();
    Align Here = commonAlignment(A, uint64_t(std::abs(Mine->Begin - R->Begin)));
    FromSibling = FromSibling ? std::max(*FromSibling, Here) : Here;
  }
  if (Lo > Mine->Begin || Hi < Mine->End)
    return false;
  Proven = std::min(Ld.getAlign(), *FromSibling);
  return true;
}

/// Whether the test reads a value loaded in the loop, a few steps back: data
/// the iteration has just fetched, as unpredictable as the data.
bool testsFetchedValue(const Loop &L, Value *V, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return false;
  if (isa<LoadInst>(I))
    return true;
  if (Depth == 0 || isa<PHINode>(I))
    return false;
  return any_of(I->operands(), [&](Value *Op) { return testsFetchedValue(L, Op, Depth - 1); });
}

class SiblingSpeculation {
public:
  SiblingSpeculation(Loop &L, LoopInfo &LI, DominatorTree &DT, AssumptionCache &AC, OptimizationRemarkEmitter &ORE)
      : L(L), LI(LI), DT(DT), AC(AC), ORE(ORE), DL(L.getHeader()->getModule()->getDataLayout()) {}

  bool run() {
    bool Changed = false;
    // Each success deletes a block of the loop: look again from the start.
    for (bool Again = true; Again;) {
      Again = false;
      for (BasicBlock *BB : L.blocks())
        if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()); Br && Br->isConditional() && tryTest(Br)) {
          Changed = Again = true;
          break;
        }
    }
    return Changed;
  }

private:
  bool tryTest(BranchInst *Br);

  Loop &L;
  LoopInfo &LI;
  DominatorTree &DT;
  AssumptionCache &AC;
  OptimizationRemarkEmitter &ORE;
  const DataLayout &DL;
};

bool SiblingSpeculation::tryTest(BranchInst *Br) {
  BasicBlock *BB = Br->getParent();
  unsigned HitSide = 0;
  BasicBlock *Guarded = nullptr, *Join = nullptr;
  for (unsigned Side = 0; Side < 2 && !Guarded; ++Side) {
    BasicBlock *Then = Br->getSuccessor(Side), *Other = Br->getSuccessor(1 - Side);
    if (Then != Other && Then->getSinglePredecessor() == BB && Then->getSingleSuccessor() == Other &&
        LI.getLoopFor(Then) == LI.getLoopFor(BB) && LI.getLoopFor(Other) == LI.getLoopFor(BB) &&
        !LI.isLoopHeader(Other) && !isa<PHINode>(Then->front())) {
      Guarded = Then;
      Join = Other;
      HitSide = Side;
    }
  }
  if (!Guarded || !testsFetchedValue(L, Br->getCondition(), 3))
    return false;
  SmallVector<Instruction *, 8> Body;
  SmallVector<LoadInst *, 2> Loads;
  for (Instruction &I : Guarded->instructionsWithoutDebug()) {
    if (I.isTerminator())
      continue;
    if (auto *Ld = dyn_cast<LoadInst>(&I))
      Loads.push_back(Ld);
    else if (I.mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(&I)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: test" << *Br << " stays a branch: its block has" << I
                        << ", which may not run unconditionally\n");
      return false;
    }
    Body.push_back(&I);
  }
  // Without a load the guarded block is SimplifyCFG's to fold; with too
  // much in it the branch is cheaper than running it all.
  if (Loads.empty() || Body.size() > SpeculateMax)
    return false;
  SmallVector<Instruction *, 8> Around = accessesAroundTest(Br, Join);
  SmallVector<Align, 2> Aligns;
  for (LoadInst *Ld : Loads) {
    Align Proven;
    if (!safeToHoist(*Ld, Br, Around, DL, AC, DT, Proven)) {
      ++NumTestsKept;
      LLVM_DEBUG(dbgs() << "memcoro-split: test" << *Br << " stays a branch: the guarded" << *Ld
                        << " is not proven to read the object the iteration reads anyway\n");
      return false;
    }
    Aligns.push_back(Proven);
  }

  for (unsigned I = 0; I < Loads.size(); ++I) {
    Loads[I]->setAlignment(Aligns[I]);
    // Whatever the guarded block knew about the value held only there.
    Loads[I]->dropUnknownNonDebugMetadata({LLVMContext::MD_tbaa});
  }
  for (Instruction *I : Body) {
    I->moveBefore(Br);
    I->dropPoisonGeneratingAnnotations();
  }
  MDNode *Unpredictable = MDNode::get(BB->getContext(), {});
  IRBuilder<> B(Br);
  for (PHINode &Phi : Join->phis()) {
    Value *Hit = Phi.getIncomingValueForBlock(Guarded), *Miss = Phi.getIncomingValueForBlock(BB);
    Value *Chosen = Hit;
    if (Hit != Miss) {
      auto *Sel = cast<SelectInst>(B.CreateSelect(Br->getCondition(), HitSide == 0 ? Hit : Miss,
                                                  HitSide == 0 ? Miss : Hit, Phi.getName() + ".sel"));
      Sel->setMetadata(LLVMContext::MD_unpredictable, Unpredictable);
      Chosen = Sel;
    }
    Phi.setIncomingValueForBlock(BB, Chosen);
    Phi.removeIncomingValue(Guarded, /*DeletePHIIfEmpty=*/false);
  }
  DebugLoc Loc = Br->getDebugLoc();
  BranchInst::Create(Join, Br)->setDebugLoc(Loc);
  Br->eraseFromParent();
  DT.eraseNode(Guarded);
  LI.removeBlock(Guarded);
  Guarded->eraseFromParent();

  ++NumSpeculatedTests;
  NumSpeculatedLoads += Loads.size();
  LLVM_DEBUG(dbgs() << "memcoro-split: test in " << BB->getName() << " made branch-free, " << Loads.size()
                    << " loads hoisted\n");
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(RemarkPass, "BranchFreeTest", Loc, BB)
           << "test on fetched data runs branch-free: " << ore::NV("Loads", unsigned(Loads.size()))
           << (Loads.size() == 1 ? " load of another field" : " loads of other fields")
           << " of the same object moved above it and the results selected, so that a mispredicted match "
              "does not cost a pipeline flush";
  });
  return true;
}

} // namespace

bool memcoro::speculateSiblingLoads(Loop &L, LoopInfo &LI, DominatorTree &DT, AssumptionCache &AC,
                                    OptimizationRemarkEmitter &ORE) {
  return SiblingSpeculation(L, LI, DT, AC, ORE).run();
}
