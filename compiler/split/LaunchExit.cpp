//===- LaunchExit.cpp - exit tests on data the loop reads, run at launch ---===//
//
// A part of memcoro-split (see SplitInternal.h): loops whose exit test
// depends on data they read, so that no trip count exists before the loop
// starts: `for (i = 0; key[i] != 0; i++)`, a work list walked with
// `while (p) { ...; p = p->next; }`. Legality asks recogniseExitAtLaunch when
// scalar evolution has no trip count; the lowering calls emitExitAtLaunch at
// iter.start through the EarlyExitCodeGen (EarlyExits.cpp), which owns the
// launch limit.
//
// The exit test, and whatever the next iteration starts from (`p->next`),
// must be computable from the inductions, the carried values themselves and
// loop invariants, by loads and arithmetic every iteration runs. Then
// iteration k computes them first thing, at its launch: the carried values
// come from a cursor the previous launch left, the next values go back to it,
// and a failed test limits launches to k + 1. Launches run in iteration
// order, so the test sees what the serial loop sees, one iteration after the
// other: a serial chain by nature (p->next after p->next). Only the rest of
// the body, its misses included, interleaves. The test's loads read what
// they read before the body in the serial loop; a store of the loop that may
// reach them keeps the loop serial.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumExitAtLaunch, "Number of marked loops whose exit test runs at launch");

std::optional<SerialReason> memcoro::recogniseExitAtLaunch(const SplitAnalyses &A, LoopPlan &Plan) {
  Loop &L = Plan.L;
  auto *Br = cast<BranchInst>(Plan.Latch->getTerminator());
  SmallVector<Instruction *, 8> Slice;
  SmallPtrSet<Instruction *, 8> InSlice;
  SmallVector<PHINode *, 1> Chains;
  auto isInduction = [&](PHINode *Phi) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    return AR && AR->getLoop() == &L && AR->isAffine();
  };
  std::function<bool(Value *)> add = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || InSlice.contains(I))
      return true;
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      if (Phi->getParent() != Plan.Header)
        return false;
      if (isInduction(Phi) || is_contained(Chains, Phi))
        return true;
      Chains.push_back(Phi);
      return add(Phi->getIncomingValueForBlock(Plan.Latch));
    }
    // Run by every iteration, once: what launch runs in its place.
    if (A.LI.getLoopFor(I->getParent()) != &L || !A.DT.dominates(I->getParent(), Plan.Latch))
      return false;
    if (auto *Load = dyn_cast<LoadInst>(I)) {
      if (!Load->isSimple())
        return false;
    } else if (auto *Call = dyn_cast<CallInst>(I)) {
      // A step that only reads (std::map's iterator: libstdc++'s pure
      // _Rb_tree_increment, out of line) runs at launch like a load.
      if (!Call->onlyReadsMemory() || !Call->doesNotThrow() || !Call->willReturn() || Call->isConvergent() ||
          Call->isInlineAsm() || !Call->getCalledFunction())
        return false;
    } else if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<GetElementPtrInst>(I) && !isa<CmpInst>(I) &&
               !isa<SelectInst>(I) && !isa<FreezeInst>(I)) {
      return false;
    }
    InSlice.insert(I);
    for (Value *Op : I->operands())
      if (!add(Op))
        return false;
    Slice.push_back(I);
    return true;
  };
  if (!add(Br->getCondition())) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the exit test cannot run at launch:" << *Br << "\n");
    return SerialReason{"UnknownTripCount", "", nullptr};
  }
  // A value the test computes that the next iteration reuses (key[i + 1],
  // loaded for the test, is the next iteration's key[i]) is carried too.
  for (PHINode &Phi : Plan.Header->phis())
    if (auto *Next = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Plan.Latch));
        Next && InSlice.contains(Next) && !isInduction(&Phi) && !is_contained(Chains, &Phi))
      Chains.push_back(&Phi);
  // Launch moves the test ahead of its own iteration's body: a store of the
  // body to the bytes the test reads, in the same iteration, is what alias
  // analysis of the exact locations answers (key[i + 1] cut short while the
  // latch tests it, half of p->next). Earlier iterations' stores the test
  // also runs ahead of are the contract's, as for any other read: dependence
  // analysis proves key[i + 2] one iteration apart. The bytes around the read
  // (CarriedLoad's location) would keep serial every walk that marks its own
  // node (p->seen = 1).
  for (Instruction *I : Slice) {
    if (auto *Call = dyn_cast<CallInst>(I)) {
      for (BasicBlock *BB : L.blocks())
        for (Instruction &W : *BB)
          if (W.mayWriteToMemory() && isModSet(A.AA.getModRefInfo(&W, Call))) {
            LLVM_DEBUG(dbgs() << "memcoro-split: the exit test calls" << *Call << ", which" << W
                              << " may change\n");
            return SerialReason{"UnknownTripCount",
                                "the exit test calls a function (at " + sourcePlace(*Call) +
                                    ") that reads memory the loop may write: it cannot be evaluated at launch, "
                                    "before the body",
                                &W};
          }
      continue;
    }
    auto *Load = dyn_cast<LoadInst>(I);
    if (!Load)
      continue;
    if (Instruction *W = firstWriterIn(A, L, MemoryLocation::get(Load))) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the exit test reads" << *Load << ", which" << *W << " may write\n");
      return SerialReason{"UnknownTripCount",
                          "the exit test reads memory (at " + sourcePlace(*Load) +
                              ") that the loop may write: it cannot be evaluated at launch, before the body",
                          W};
    }
  }
  // Users first: an instruction is only for the test when its users are.
  for (Instruction *I : reverse(Slice))
    if (all_of(I->users(), [&](User *U) {
          auto *Phi = dyn_cast<PHINode>(U);
          return U == Br || (Phi && is_contained(Chains, Phi)) || Plan.LaunchOnly.contains(cast<Instruction>(U));
        }))
      Plan.LaunchOnly.insert(I);
  // A call of the test (an iterator's step) runs at launch, where the
  // lowering moves it: it is no call of the body to run in place (the body's
  // list would name it after it is gone).
  erase_if(Plan.CallsInPlace, [&](CallBase *Call) { return Plan.LaunchOnly.contains(Call); });
  Plan.ExitAtLaunch = true;
  Plan.LaunchSlice = std::move(Slice);
  Plan.LaunchChains = std::move(Chains);
  Type *I64 = Type::getInt64Ty(A.F.getContext());
  Plan.BackedgeTakenCount = A.SE.getConstant(I64, INT64_MAX - 1);
  ++NumExitAtLaunch;
  LLVM_DEBUG(dbgs() << "memcoro-split: the exit test runs at launch: " << Plan.LaunchSlice.size()
                    << " instructions, " << Plan.LaunchChains.size() << " carried values\n");
  return std::nullopt;
}

void memcoro::emitExitAtLaunch(const LoopPlan &Plan, IRBuilder<> &B, Value *K, ArrayRef<AllocaInst *> Cursors,
                               AllocaInst *Limit) {
  auto *Br = cast<BranchInst>(Plan.Latch->getTerminator());
  // What the iteration starts from; the body reads it there too.
  SmallVector<Value *, 1> Next;
  for (PHINode *Chain : Plan.LaunchChains)
    Next.push_back(Chain->getIncomingValueForBlock(Plan.Latch));
  for (unsigned C = 0; C < Plan.LaunchChains.size(); ++C) {
    PHINode *Chain = Plan.LaunchChains[C];
    Value *AtK = B.CreateLoad(Chain->getType(), Cursors[C], Chain->getName() + ".at.k");
    Chain->replaceAllUsesWith(AtK);
    // The plan names the carried value itself as an address to prefetch
    // (p->key at p); the phi goes, the iteration's value stays.
    for (const Suspension &Sp : Plan.Suspensions) {
      for (auto &[Ptr, Write] : const_cast<Suspension &>(Sp).Prefetch)
        if (Ptr == Chain)
          Ptr = AtK;
      for (auto &[Ptr, Offset] : const_cast<Suspension &>(Sp).PrefetchFields)
        if (Ptr == Chain)
          Ptr = AtK;
    }
  }
  ValueToValueMapTy Copies;
  for (Instruction *I : Plan.LaunchSlice) {
    Instruction *Copy = I->clone();
    B.Insert(Copy, I->getName() + ".launch");
    RemapInstruction(Copy, Copies, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    Copies[I] = Copy;
  }
  auto copied = [&](Value *V) { return Copies.count(V) ? static_cast<Value *>(Copies[V]) : V; };
  for (unsigned C = 0; C < Plan.LaunchChains.size(); ++C)
    B.CreateStore(copied(Next[C]), Cursors[C]);
  Value *Test = copied(Br->getCondition());
  Value *Goes = Br->getSuccessor(0) == Plan.Header ? Test : B.CreateNot(Test);
  Value *Old = B.CreateLoad(B.getInt64Ty(), Limit);
  Value *Last = B.CreateBinaryIntrinsic(Intrinsic::umin, Old, B.CreateAdd(K, B.getInt64(1)));
  B.CreateStore(B.CreateSelect(Goes, Old, Last, "memcoro.limit.launch"), Limit);
}
