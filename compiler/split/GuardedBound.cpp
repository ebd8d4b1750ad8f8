//===- GuardedBound.cpp - an inner bound only a guarded claim may write ----===//
//
// A step of the prefetch-ahead code generator (PrefetchAhead.cpp calls
// versionGuardedBound before it plans an inner loop's reads ahead). bfs's
// edge loop
//
//   for (e = offsets[u]; e < offsets[u + 1]; ++e)
//     if (parent[adj[e]] < 0) { parent[adj[e]] = u; ... }
//
// reads its bound again after every claim: `parent` and `offsets` are both
// 64-bit integers, so the store may write `offsets[u + 1]`. Its trip count is
// then unknown, and each read ahead of `adj[e + D]` needs a page test: about
// 10% of the loop's time at 1 GiB (docs/bench.md). But the claim writes only
// where its own test read a value that passes (`parent[v] < 0`): at
// `&offsets[u + 1]` it would have to read the bound itself. So when, before
// the loop, the bound's value fails the test, and the claim's array is laid
// out so that a claim covers the bound's bytes exactly or not at all (its
// element size divides the distance between the two), no claim can change
// the bound, and the loop reads it once. That is checked at run time, in
// front of two versions of the inner loop:
//
//   preheader: fast = (&bound - &parent[0]) % 8 == 0 && !(bound < 0)
//     fast:  the loop with its bound read once (a trip count: the reads ahead
//            are bounded by the last element, as pfd's `e + d < end`)
//     else:  the loop as written (no prefetches: an aliasing claim is rare)
//
// Both leave through the same exits. Any other write the alias analysis
// cannot separate from the bound keeps the loop as it is.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumGuardedBounds, "Number of inner loops whose bound a guarded claim may write, versioned to read it once");

static cl::opt<bool> VersionGuardedBounds("memcoro-version-guarded-bound", cl::Hidden, cl::init(true),
                                          cl::desc("Version an inner loop of a prefetching loop whose bound only a "
                                                   "first-writer-wins claim may write, reading the bound once"));

namespace {

/// A store that writes only where the load of its own address just before
/// read a value passing a test: `if (p[v] < 0) p[v] = u`.
struct Claim {
  StoreInst *Store;
  ICmpInst *Test;
  LoadInst *Read;
  /// The store runs when the test is true.
  bool OnTrue;
  /// The claims' array and its element size (the store's).
  Value *Base;
  uint64_t Size;
};

struct Bound {
  /// The bound's value entering the loop: a load of Place.
  LoadInst *Entering;
  Value *Place;
  SmallVector<PHINode *, 4> Web;
  SmallVector<LoadInst *, 2> Reloads;
  SmallVector<Claim, 2> Claims;
};

std::optional<Claim> claimOf(const Loop &Inner, const Instruction &I) {
  // The callback of firstWriterIn sees the loop's own instructions.
  auto *Store = dyn_cast<StoreInst>(const_cast<Instruction *>(&I));
  auto *GEP = Store && Store->isSimple() ? dyn_cast<GetElementPtrInst>(Store->getPointerOperand()) : nullptr;
  BasicBlock *Guard = Store ? Store->getParent()->getSinglePredecessor() : nullptr;
  auto *Br = Guard ? dyn_cast<BranchInst>(Guard->getTerminator()) : nullptr;
  auto *Test = Br && Br->isConditional() && Br->getSuccessor(0) != Br->getSuccessor(1)
                   ? dyn_cast<ICmpInst>(Br->getCondition())
                   : nullptr;
  if (!Test || !GEP || GEP->getNumIndices() != 1 || !Inner.isLoopInvariant(GEP->getPointerOperand()))
    return std::nullopt;
  const DataLayout &DL = Store->getModule()->getDataLayout();
  uint64_t Size = DL.getTypeStoreSize(Store->getValueOperand()->getType());
  if (DL.getTypeAllocSize(GEP->getSourceElementType()) != Size || !isPowerOf2_64(Size))
    return std::nullopt;
  for (unsigned Op = 0; Op < 2; ++Op) {
    auto *Read = dyn_cast<LoadInst>(Test->getOperand(Op));
    if (Read && Read->isSimple() && Inner.contains(Read) && Read->getPointerOperand() == GEP &&
        Read->getType() == Store->getValueOperand()->getType() && Inner.isLoopInvariant(Test->getOperand(1 - Op)))
      return Claim{Store, Test, Read, Br->getSuccessor(0) == Store->getParent(), GEP->getPointerOperand(), Size};
  }
  return std::nullopt;
}

/// Whether nothing writes the bound between \p Load and the entry of
/// \p Inner, along a path of single predecessors (the work counter of
/// PrefetchSwitch.cpp sits there): the value it read is the bound's as the
/// loop starts.
bool readJustBefore(const SplitAnalyses &A, const Loop &Inner, LoadInst &Load) {
  MemoryLocation Loc = MemoryLocation::get(&Load);
  // The counter is a volatile local only loaded and stored: alias analysis
  // takes a volatile access as capturing it, but no pointer reaches it.
  const Value *Bound = getUnderlyingObject(Load.getPointerOperand());
  auto writes = [&](Instruction &I) {
    auto *Local = isa<LoadInst>(I) || isa<StoreInst>(I)
                      ? dyn_cast<AllocaInst>(getUnderlyingObject(getLoadStorePointerOperand(&I)))
                      : nullptr;
    if (Local && Local != Bound && all_of(Local->users(), [&](User *U) {
          return isa<LoadInst>(U) || (isa<StoreInst>(U) && cast<StoreInst>(U)->getPointerOperand() == Local);
        }))
      return false;
    return I.mayWriteToMemory() && isModSet(A.AA.getModRefInfo(&I, Loc));
  };
  BasicBlock *B = Inner.getLoopPreheader();
  for (unsigned Steps = 0; B && B != Load.getParent() && Steps < 4; ++Steps) {
    if (any_of(*B, writes))
      return false;
    B = B->getSinglePredecessor();
  }
  if (B != Load.getParent())
    return false;
  for (Instruction *I = Load.getNextNode(); I; I = I->getNextNode())
    if (writes(*I))
      return false;
  return true;
}

std::optional<Bound> findBound(const SplitAnalyses &A, Loop &Inner) {
  BasicBlock *Latch = Inner.getLoopLatch();
  auto *Br = Latch && Inner.getLoopPreheader() && Inner.getExitingBlock() == Latch
                 ? dyn_cast<BranchInst>(Latch->getTerminator())
                 : nullptr;
  auto *Exit = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  PHINode *Phi = nullptr;
  for (unsigned Op = 0; Exit && Op < 2; ++Op)
    if (auto *P = dyn_cast<PHINode>(Exit->getOperand(Op)); P && Inner.contains(P))
      Phi = Phi ? Phi : P;
  if (!Phi) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no guarded bound in loop " << Inner.getHeader()->getName()
                      << ": its exit test at the latch compares no value carried by phis\n");
    return std::nullopt;
  }
  Bound B{nullptr, nullptr, phiWeb(Inner, Phi), {}, {}};
  for (PHINode *P : B.Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
      Value *V = P->getIncomingValue(In);
      if (auto *VP = dyn_cast<PHINode>(V); VP && is_contained(B.Web, VP))
        continue;
      auto *Load = dyn_cast<LoadInst>(V);
      if (!Load || !Load->isSimple() || (B.Place && byteDistance(B.Place, Load->getPointerOperand(), A.DL) != 0) ||
          !Inner.isLoopInvariant(Load->getPointerOperand()))
        return std::nullopt;
      B.Place = Load->getPointerOperand();
      if (!Inner.contains(Load)) {
        if (B.Entering && B.Entering != Load)
          return std::nullopt;
        B.Entering = Load;
      } else if (!is_contained(B.Reloads, Load)) {
        B.Reloads.push_back(Load);
      }
    }
  if (!B.Entering || B.Reloads.empty() || !isPowerOf2_64(A.DL.getTypeStoreSize(B.Entering->getType()))) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no guarded bound in loop " << Inner.getHeader()->getName()
                      << ": its bound is not a place it reads again\n");
    return std::nullopt;
  }
  if (!readJustBefore(A, Inner, *B.Entering)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no guarded bound in loop " << Inner.getHeader()->getName()
                      << ": memory may change between" << *B.Entering << " and the loop\n");
    return std::nullopt;
  }
  uint64_t Size = A.DL.getTypeStoreSize(B.Entering->getType());
  Instruction *Other = firstWriterIn(A, Inner, MemoryLocation::get(B.Entering), [&](const Instruction &I) {
    std::optional<Claim> C = claimOf(Inner, I);
    if (!C || C->Size != Size || C->Read->getType() != B.Entering->getType())
      return false;
    if (none_of(B.Claims, [&](const Claim &K) { return K.Store == C->Store; }))
      B.Claims.push_back(*C);
    return true;
  });
  if (Other || B.Claims.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no guarded bound in loop " << Inner.getHeader()->getName() << ": ";
               if (Other) dbgs() << "the bound may be written by" << *Other << ", not a guarded claim\n";
               else dbgs() << "nothing writes it\n");
    return std::nullopt;
  }
  return B;
}

/// i1 in front of the loop: no claim can write the bound's bytes.
Value *claimsMiss(IRBuilder<> &B, const Bound &Bd) {
  Value *Fast = B.getTrue();
  Value *At = B.CreatePtrToInt(Bd.Place, B.getInt64Ty());
  for (const Claim &C : Bd.Claims) {
    Value *Apart = B.CreateSub(At, B.CreatePtrToInt(C.Base, B.getInt64Ty()));
    Value *Whole = B.CreateICmpEQ(B.CreateAnd(Apart, B.getInt64(C.Size - 1)), B.getInt64(0), "memcoro.bound.whole");
    auto *Test = cast<ICmpInst>(C.Test->clone());
    Test->replaceUsesOfWith(C.Read, Bd.Entering);
    B.Insert(Test, "memcoro.bound.claimable");
    Value *Refused = C.OnTrue ? B.CreateNot(Test) : static_cast<Value *>(Test);
    Fast = B.CreateAnd(Fast, B.CreateAnd(Whole, Refused));
  }
  return Fast;
}

} // namespace

bool memcoro::versionGuardedBound(const SplitAnalyses &A, Loop &Inner, OptimizationRemarkEmitter &ORE) {
  if (!VersionGuardedBounds) {
    LLVM_DEBUG(dbgs() << "memcoro-split: inner loop " << Inner.getHeader()->getName()
                      << " keeps its bound's reads: -memcoro-version-guarded-bound=0\n");
    return false;
  }
  std::optional<Bound> Bd = findBound(A, Inner);
  if (!Bd)
    return false;
  Function &F = A.F;
  // Values the loop leaves through its exits, the work counter's included
  // (PrefetchSwitch.cpp), go through exit phis that the copy joins.
  formLCSSA(Inner, A.DT, &A.LI, &A.SE);
  A.SE.forgetLoop(&Inner);
  BasicBlock *Check = Inner.getLoopPreheader();
  BasicBlock *FastPre =
      SplitBlock(Check, Check->getTerminator(), &A.DT, &A.LI, nullptr, Check->getName() + ".memcoro.bound.once");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Clones;
  Loop *Slow = cloneLoopWithPreheader(FastPre, Check, &Inner, VMap, ".written", &A.LI, &A.DT, Clones);
  remapInstructionsInBlocks(Clones, VMap);
  for (BasicBlock *Clone : Clones)
    if (MDNode *Id = Clone->getTerminator()->getMetadata(LLVMContext::MD_loop))
      Clone->getTerminator()->setMetadata(LLVMContext::MD_loop,
                                          makePostTransformationMetadata(F.getContext(), Id, {"memcoro."}, {}));
  SmallVector<BasicBlock *, 2> Exits;
  Inner.getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    for (PHINode &Phi : Exit->phis())
      for (unsigned In = 0, E = Phi.getNumIncomingValues(); In < E; ++In)
        if (BasicBlock *From = Phi.getIncomingBlock(In); Inner.contains(From)) {
          Value *V = Phi.getIncomingValue(In);
          Phi.addIncoming(VMap.count(V) ? static_cast<Value *>(VMap[V]) : V, cast<BasicBlock>(VMap[From]));
        }

  IRBuilder<> B(Check->getTerminator());
  B.SetCurrentDebugLocation(Inner.getStartLoc());
  Value *Fast = claimsMiss(B, *Bd);
  B.CreateCondBr(Fast, FastPre, cast<BasicBlock>(VMap[FastPre]));
  Check->getTerminator()->eraseFromParent();

  // The fast copy: the bound as it entered, throughout.
  for (LoadInst *Reload : Bd->Reloads) {
    Reload->replaceAllUsesWith(Bd->Entering);
    Reload->eraseFromParent();
  }
  for (PHINode *P : Bd->Web)
    P->replaceAllUsesWith(Bd->Entering);
  for (PHINode *P : Bd->Web)
    P->eraseFromParent();
  A.DT.recalculate(F);
  A.SE.forgetLoop(&Inner);
  A.SE.forgetLoop(Slow);
  ++NumGuardedBounds;
  ORE.emit([&] {
    const Claim &C = Bd->Claims.front();
    return OptimizationRemark(RemarkPass, "BoundReadOnce", Inner.getStartLoc(), Inner.getHeader())
           << "inner loop reads its bound once (" << accessPlace(*Bd->Entering) << "): the store at "
           << sourcePlace(*C.Store)
           << " could change it only where its test passes, and a check before the loop shows that the bound's value "
              "fails the test; otherwise the inner loop runs as written";
  });
  return true;
}
