//===- AmuFarAccesses.cpp - synchronous far accesses through the AMU -------===//
//
// Under -memcoro-amu (memcoro-cc -fmemcoro-amu) far memory, what a __remote
// pointer (address space 1) points to, is reached only through the calling
// thread's software AMU (docs/amu.md). memcoro-split has already turned the
// accesses of transformed loops into AMU requests and made them near; every
// load, store and atomic update through an address-space-1 pointer left
// after it (outside marked loops, in loops left serial, everywhere under
// -fno-memcoro) becomes a synchronous far access that pays the modelled
// latency, the emulated core stalling on far memory:
//
//   %v = load i64, ptr addrspace(1) %p
//     ->  call void @memcoro_amu__cc_far_load(ptr %tmp, ptr %p.near, i64 8)
//         %v = load i64, ptr %tmp
//   store i64 %v, ptr addrspace(1) %p
//     ->  store i64 %v, ptr %tmp
//         call void @memcoro_amu__cc_far_store(ptr %p.near, ptr %tmp, i64 8)
//   atomicrmw/cmpxchg on %p
//     ->  a far load of its bytes (the stall), then the atomic on %p.near
//
// where %tmp is an entry-block alloca. The core stalls once per line, not
// once per access: an access within one line's span (64 bytes, a constant
// distance from the same base) of a far access that dominates it within a
// short straight-line window (its block, or a dominator reached through a
// few blocks, none a loop header, with no call on the way) finds the line in
// the cache and is made near without a stall. So the write-back of `t[i] ^= v` is a posted store, as in
// the hand-written kernels, and the fields of one record or the keys of one
// bucket cost one far access, as the coroutines' coarse-grained requests do
// (split/AmuRequests.cpp). -memcoro-amu-far-lines=false charges every access.
// Runs at the optimizer's last extension point, at every -O level, after
// memcoro-split:
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-amu-far -memcoro-amu -S in.ll
//
//===----------------------------------------------------------------------===//
#include "AmuFarAccesses.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-amu-far"

STATISTIC(NumFarLoads, "Number of synchronous far loads through the AMU");
STATISTIC(NumFarStores, "Number of synchronous far stores through the AMU");
STATISTIC(NumFarAtomics, "Number of atomic updates of far memory that stall through the AMU");
STATISTIC(NumFarSameLine, "Number of far accesses to a line an earlier far access of the block brought in");
STATISTIC(NumFarOther, "Number of other uses of far memory left as they are (memcpy, calls)");

static cl::opt<bool> AmuMode("memcoro-amu", cl::Hidden, cl::init(false),
                             cl::desc("Far memory (address space 1) is reached through the thread's software AMU"));

static cl::opt<bool> FarLines("memcoro-amu-far-lines", cl::Hidden, cl::init(true),
                              cl::desc("A far access to a line an earlier far access of the block brought in "
                                       "does not stall again"));

bool memcoro::amuEnabled() { return AmuMode; }

namespace {
/// Far lines a block has brought in so far: accesses within LineBytes of
/// each other from one base.
class LineWindow {
public:
  static constexpr int64_t LineBytes = 64;

  /// Whether the bytes [P, P + Size) lie in a line already brought in; if
  /// not, they become one.
  bool covers(const Value *P, int64_t Size, const DataLayout &DL) {
    int64_t Off = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(P, Off, DL);
    for (Line &L : Lines) {
      if (L.Base != Base)
        continue;
      int64_t Lo = std::min(L.Lo, Off), Hi = std::max(L.Hi, Off + Size);
      if (Hi - Lo > LineBytes)
        continue;
      L.Lo = Lo;
      L.Hi = Hi;
      return true;
    }
    Lines.push_back({Base, Off, Off + Size});
    return false;
  }
  void clear() { Lines.clear(); }

private:
  struct Line {
    const Value *Base;
    int64_t Lo, Hi;
  };
  SmallVector<Line, 4> Lines;
};

/// Blocks at most this many apart still share their lines.
constexpr unsigned WindowBlocks = 8;

/// Whether the lines \p BB's immediate dominator brought in are still in the
/// cache when \p BB starts: no loop lies in between (BB is no loop header,
/// nor is any block between them), nor a call, and the blocks in between are
/// few.
bool windowReaches(BasicBlock *BB, BasicBlock *IDom, const LoopInfo &LI, const SmallPtrSetImpl<BasicBlock *> &Calls) {
  if (LI.isLoopHeader(BB))
    return false;
  SmallPtrSet<BasicBlock *, WindowBlocks> Seen;
  SmallVector<BasicBlock *, WindowBlocks> Work(predecessors(BB));
  while (!Work.empty()) {
    BasicBlock *P = Work.pop_back_val();
    if (P == IDom || !Seen.insert(P).second)
      continue;
    if (Seen.size() > WindowBlocks || Calls.contains(P) || LI.isLoopHeader(P))
      return false;
    append_range(Work, predecessors(P));
  }
  return true;
}
} // namespace

/// The type a load, store or atomic update moves.
static Type *accessedType(const Instruction &I) {
  if (isa<LoadInst>(I))
    return I.getType();
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getValueOperand()->getType();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getValOperand()->getType();
  return cast<AtomicCmpXchgInst>(I).getNewValOperand()->getType();
}

PreservedAnalyses AmuFarAccessesPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!AmuMode || F.isDeclaration())
    return PreservedAnalyses::all();
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Instruction *, 16> Far;
  /// Far accesses whose line an earlier one of the block brought in.
  SmallPtrSet<Instruction *, 16> Cached;
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  SmallPtrSet<BasicBlock *, 16> Calls;
  for (BasicBlock &BB : F)
    if (any_of(BB, [](Instruction &I) { return isa<CallBase>(I) && !isa<IntrinsicInst>(I); }))
      Calls.insert(&BB);
  /// The lines in the cache at the end of each block visited (dominators
  /// come first in reverse post-order).
  DenseMap<BasicBlock *, LineWindow> AtEnd;
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BBp : RPOT) {
    BasicBlock &BB = *BBp;
    LineWindow Window;
    if (DomTreeNode *N = DT.getNode(&BB); N && N->getIDom()) {
      BasicBlock *IDom = N->getIDom()->getBlock();
      if (AtEnd.count(IDom) && windowReaches(&BB, IDom, LI, Calls))
        Window = AtEnd[IDom];
    }
    for (Instruction &I : BB) {
      Value *P = accessedPointer(I);
      if (P && P->getType()->getPointerAddressSpace() == 1) {
        Far.push_back(&I);
        if (FarLines && Window.covers(P, DL.getTypeStoreSize(accessedType(I)).getFixedValue(), DL))
          Cached.insert(&I);
        continue;
      }
      // A call ends the window: it may take long enough for the line to go.
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        Window.clear();
      if (isa<MemIntrinsic>(I) && any_of(I.operands(), [](Value *V) {
               return V->getType()->isPointerTy() && V->getType()->getPointerAddressSpace() == 1;
             })) {
        LLVM_DEBUG(dbgs() << "memcoro-amu-far: left as it is (no AMU request for it): " << I << "\n");
        ++NumFarOther;
      }
    }
    AtEnd[&BB] = Window;
  }
  if (Far.empty())
    return PreservedAnalyses::all();

  LLVMContext &Ctx = F.getContext();
  Type *Ptr = PointerType::get(Ctx, 0), *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Load = M.getOrInsertFunction("memcoro_amu__cc_far_load", Type::getVoidTy(Ctx), Ptr, Ptr, I64);
  FunctionCallee Store = M.getOrInsertFunction("memcoro_amu__cc_far_store", Type::getVoidTy(Ctx), Ptr, Ptr, I64);
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());

  for (Instruction *I : Far) {
    IRBuilder<> B(I);
    Value *P = accessedPointer(*I);
    Value *Near = B.CreateAddrSpaceCast(P, Ptr, P->getName() + ".near");
    if (Cached.contains(I)) {
      // The line is in the cache: a near access, no stall.
      I->replaceUsesOfWith(P, Near);
      ++NumFarSameLine;
      continue;
    }
    Type *T = accessedType(*I);
    Value *Bytes = B.getInt64(DL.getTypeStoreSize(T).getFixedValue());
    AllocaInst *Tmp = EB.CreateAlloca(T, nullptr, "memcoro.far.tmp");
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      B.CreateCall(Load, {Tmp, Near, Bytes});
      LI->replaceUsesOfWith(P, Tmp);
      ++NumFarLoads;
    } else if (auto *SI = dyn_cast<StoreInst>(I)) {
      SI->replaceUsesOfWith(P, Tmp);
      B.SetInsertPoint(SI->getNextNode());
      B.CreateCall(Store, {Near, Tmp, Bytes});
      ++NumFarStores;
    } else {
      // An atomic update cannot be split into a far load and a far store:
      // the stall is paid by a far load, the update is made in place.
      B.CreateCall(Load, {Tmp, Near, Bytes});
      I->replaceUsesOfWith(P, Near);
      ++NumFarAtomics;
    }
  }
  return PreservedAnalyses::none();
}
