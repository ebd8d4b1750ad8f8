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
// where %tmp is an entry-block alloca. Runs at the optimizer's last
// extension point, at every -O level, after memcoro-split:
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-amu-far -memcoro-amu -S in.ll
//
//===----------------------------------------------------------------------===//
#include "AmuFarAccesses.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/Statistic.h"
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
STATISTIC(NumFarOther, "Number of other uses of far memory left as they are (memcpy, calls)");

static cl::opt<bool> AmuMode("memcoro-amu", cl::Hidden, cl::init(false),
                             cl::desc("Far memory (address space 1) is reached through the thread's software AMU"));

bool memcoro::amuEnabled() { return AmuMode; }

PreservedAnalyses AmuFarAccessesPass::run(Function &F, FunctionAnalysisManager &) {
  if (!AmuMode || F.isDeclaration())
    return PreservedAnalyses::all();
  SmallVector<Instruction *, 16> Far;
  for (Instruction &I : instructions(F)) {
    Value *P = accessedPointer(I);
    if (P && P->getType()->getPointerAddressSpace() == 1)
      Far.push_back(&I);
    else if (isa<MemIntrinsic>(I) && any_of(I.operands(), [](Value *V) {
               return V->getType()->isPointerTy() && V->getType()->getPointerAddressSpace() == 1;
             })) {
      LLVM_DEBUG(dbgs() << "memcoro-amu-far: left as it is (no AMU request for it): " << I << "\n");
      ++NumFarOther;
    }
  }
  if (Far.empty())
    return PreservedAnalyses::all();

  Module &M = *F.getParent();
  LLVMContext &Ctx = F.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *Ptr = PointerType::get(Ctx, 0), *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Load = M.getOrInsertFunction("memcoro_amu__cc_far_load", Type::getVoidTy(Ctx), Ptr, Ptr, I64);
  FunctionCallee Store = M.getOrInsertFunction("memcoro_amu__cc_far_store", Type::getVoidTy(Ctx), Ptr, Ptr, I64);
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());

  for (Instruction *I : Far) {
    IRBuilder<> B(I);
    Value *P = accessedPointer(*I);
    Value *Near = B.CreateAddrSpaceCast(P, Ptr, P->getName() + ".near");
    Type *T = isa<LoadInst>(I)          ? I->getType()
              : isa<StoreInst>(I)       ? cast<StoreInst>(I)->getValueOperand()->getType()
              : isa<AtomicRMWInst>(I)   ? cast<AtomicRMWInst>(I)->getValOperand()->getType()
                                        : cast<AtomicCmpXchgInst>(I)->getNewValOperand()->getType();
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
