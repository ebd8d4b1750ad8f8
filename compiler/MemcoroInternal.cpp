//===- MemcoroInternal.cpp - helpers shared by memcoro's passes -----------===//
#include "MemcoroInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

Function *memcoro::getOrInsertRemoteBaseFn(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *Ty = FunctionType::get(Type::getVoidTy(Ctx), {PointerType::get(Ctx, 0)}, false);
  FunctionCallee Callee = M.getOrInsertFunction(RemoteBaseFn, Ty);
  auto *F = cast<Function>(Callee.getCallee());
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  F->addParamAttr(0, Attribute::NoCapture);
  F->addParamAttr(0, Attribute::ReadNone);
  return F;
}

std::optional<unsigned> memcoro::getMarkedParallelism(const Loop &L) {
  const MDOperand *Op = findStringMetadataForLoop(&L, ParallelMD).value_or(nullptr);
  if (!Op)
    return std::nullopt;
  return mdconst::extract<ConstantInt>(*Op)->getZExtValue();
}

Value *memcoro::accessedPointer(Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getPointerOperand();
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getPointerOperand();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  return nullptr;
}

SmallVector<CallInst *, 4> memcoro::getRemoteBaseCalls(const Loop &L) {
  SmallVector<CallInst *, 4> Calls;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *F = CI->getCalledFunction(); F && F->getName() == RemoteBaseFn)
          Calls.push_back(CI);
  return Calls;
}

Function *memcoro::getOrInsertOrderedFn(Module &M) {
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Callee = M.getOrInsertFunction(OrderedFn, FunctionType::get(Type::getVoidTy(Ctx), false));
  auto *F = cast<Function>(Callee.getCallee());
  F->setDoesNotThrow();
  F->setWillReturn();
  // Deliberately not readnone: it is a compiler barrier for the region.
  F->setMemoryEffects(MemoryEffects::unknown());
  return F;
}

bool memcoro::isOrderedMarker(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *F = CI ? CI->getCalledFunction() : nullptr;
  return F && F->getName() == OrderedFn;
}

SmallVector<CallInst *, 2> memcoro::getOrderedMarkers(const Loop &L) {
  SmallVector<CallInst *, 2> Calls;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isOrderedMarker(I))
        Calls.push_back(cast<CallInst>(&I));
  return Calls;
}

bool memcoro::isUBSanHandler(const Function &F) { return F.getName().starts_with("__ubsan_handle_"); }

bool memcoro::isSanitizerRuntimeFn(const Function &F) {
  StringRef Name = F.getName();
  return isUBSanHandler(F) || Name.starts_with("__asan_") || Name.starts_with("__tsan_") ||
         Name.starts_with("__msan_");
}

void memcoro::recordLoopSeen(const Loop &L) {
  const MDOperand *Id = findStringMetadataForLoop(&L, LoopIdMD).value_or(nullptr);
  if (!Id || !Id->get())
    return;
  BasicBlock *Header = L.getHeader();
  Header->getModule()->getOrInsertNamedMetadata(SeenLoopsMD)->addOperand(
      MDNode::get(Header->getContext(), {Id->get()}));
}

void memcoro::unmarkLoop(Loop &L) {
  for (CallInst *Marker : getRemoteBaseCalls(L))
    Marker->eraseFromParent();
  // A serial loop runs its ordered regions in order by itself.
  for (CallInst *Marker : getOrderedMarkers(L))
    Marker->eraseFromParent();
  L.setLoopID(makePostTransformationMetadata(L.getHeader()->getContext(), L.getLoopID(),
                                             {"memcoro.", "llvm.loop.unroll.disable"}, {}));
}

bool memcoro::prepareMarkedLoop(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC) {
  bool Reshaped = simplifyLoop(&L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  Reshaped |= formLCSSARecursively(L, DT, &LI, &SE);
  if (Reshaped)
    SE.forgetLoop(&L);
  return Reshaped;
}
