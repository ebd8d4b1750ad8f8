//===- ResumableCallees.cpp - memcoro-resumable: callees other units resume -===//
//
// The callee's side of a nested coroutine across translation units (issue 17,
// item 7b; CoroAMU III-F). A marked loop in another translation unit cannot
// copy a lookup helper's body into itself (memcoro-nested-calls does that
// within one unit); instead the helper's own unit, built by memcoro-cc,
// gives it a resumable clone that the loop's iterations call and suspend in:
//
//   ptr __memcoro_resumable.F(ptr frame, ptr result, <F's parameters>)
//
// is F's optimised body as an LLVM switch-resume coroutine whose frame is the
// caller's buffer `frame` (llvm.coro.begin on it, no allocation): before each
// far-looking load it prefetches the address and suspends, returning to the
// caller; every `ret v` stores v to `result` and reaches the final
// suspension. CoroSplit, run right after this pass at the optimizer's end,
// builds the ramp and the resume function and lays the frame out; by that
// ABI frame[0] holds the resume function, and is null once F has returned.
// The descriptor
//
//   { i64 frame size, ptr ramp } __memcoro_resumable_v1.F
//
// is what the caller's unit references, weakly (NestedCalls.cpp): a unit
// built without memcoro has none, and the caller makes a plain call.
// ResumableDescriptorsPass, after CoroSplit, writes the frame's size (all
// ones, which no caller's buffer fits, when it cannot tell).
//
//   opt -load-pass-plugin=MemcoroPasses.so \
//       -passes='memcoro-resumable,cgscc(coro-split),coro-cleanup,memcoro-resumable-descriptors' -S in.ll
//
//===----------------------------------------------------------------------===//
#include "ResumableCallees.h"
#include "AmuFarAccesses.h"
#include "MemcoroInternal.h"
#include "NestedCalls.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-resumable"

STATISTIC(NumResumable, "Number of functions given a resumable clone for loops of other translation units");

static cl::opt<bool> EmitResumable("memcoro-resumable", cl::Hidden, cl::init(true),
                                   cl::desc("Give external functions with far-looking loads a resumable clone "
                                            "that marked loops of other translation units suspend in"));

static constexpr StringLiteral ClonePrefix = "__memcoro_resumable.";

std::string memcoro::resumableDescriptorName(StringRef Name) { return ("__memcoro_resumable_v1." + Name).str(); }

/// A function another unit may call and resume: external, defined here, no
/// exception, no setjmp, a result a plain store can hand over.
static bool qualifies(Function &F) {
  // Under the AMU far accesses are requests of their own (AmuFarAccesses.cpp).
  if (amuEnabled() || F.isDeclaration() || F.hasLocalLinkage() || !F.hasExactDefinition() || F.getName().starts_with("__memcoro") ||
      F.getName() == "main" || F.hasFnAttribute(MarkedFnAttr) ||
      !F.doesNotThrow() || F.hasFnAttribute(Attribute::ReturnsTwice) || F.hasFnAttribute(Attribute::Naked) ||
      F.getReturnType()->isStructTy() || F.getReturnType()->isArrayTy() || F.getReturnType()->isVectorTy() ||
      !mayResumeCallee(F) || isRecursive(F))
    return false;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (isa<InvokeInst>(I) || (Call && (Call->isMustTailCall() || Call->hasFnAttr(Attribute::ReturnsTwice))))
      return false;
    if (auto *Alloca = dyn_cast<AllocaInst>(&I); Alloca && !Alloca->isStaticAlloca())
      return false;
  }
  return true;
}

/// A load that walks a buffer the caller passed in steps of at most a line
/// (the key bytes a hash function reads): the hardware prefetcher follows
/// it, and a suspension at every element would cost more than the misses it
/// hides.
static bool isArgumentStream(LoadInst &Load, ScalarEvolution &SE) {
  const SCEV *S = SE.getSCEV(Load.getPointerOperand());
  auto *Rec = dyn_cast<SCEVAddRecExpr>(S);
  auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(S));
  auto *Step = Rec && Rec->isAffine() ? dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE)) : nullptr;
  return Step && Base && isa<Argument>(Base->getValue()) && Step->getAPInt().abs().ule(64);
}

/// The loads to suspend before: far-looking, no stream over an argument's
/// buffer, and not preceded, on every path in the same call, by a suspension
/// at a load of the same record (e->value and e->next after e->key share its
/// line).
static SmallVector<LoadInst *, 8> suspensionLoads(Function &G, FunctionAnalysisManager &FAM) {
  DominatorTree DT(G);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(G);
  SmallVector<LoadInst *, 8> Loads;
  for (BasicBlock *BB : depth_first(&G.getEntryBlock()))
    for (Instruction &I : *BB) {
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load || !Load->isSimple() || !isFarLookingLoad(*Load))
        continue;
      if (isArgumentStream(*Load, SE)) {
        LLVM_DEBUG(dbgs() << "memcoro-resumable: no suspension at a stream over an argument:" << *Load << "\n");
        continue;
      }
      const Value *Base = getUnderlyingObject(Load->getPointerOperand());
      if (none_of(Loads, [&](LoadInst *Earlier) {
            return getUnderlyingObject(Earlier->getPointerOperand()) == Base && DT.dominates(Earlier, Load);
          }))
        Loads.push_back(Load);
    }
  return Loads;
}

static void makeResumable(Function &F, FunctionAnalysisManager &FAM) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  auto *PtrTy = PointerType::get(Ctx, 0);
  SmallVector<Type *, 8> Params = {PtrTy, PtrTy};
  append_range(Params, F.getFunctionType()->params());
  Function *G = Function::Create(FunctionType::get(PtrTy, Params, false), GlobalValue::InternalLinkage,
                                 ClonePrefix + F.getName(), M);
  ValueToValueMapTy VMap;
  for (auto [Old, New] : zip(F.args(), drop_begin(G->args(), 2))) {
    New.setName(Old.getName());
    VMap[&Old] = &New;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(G, &F, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  // CoroSplit's frame builder trips over the debug records of a clone that
  // shares F's subprogram; the clone's misses are timed, not debugged.
  stripDebugInfo(*G);
  // The clone writes its frame and the result: F's memory facts do not hold.
  G->removeFnAttr(Attribute::Memory);
  G->removeFnAttr(Attribute::NoInline);
  G->removeFnAttr(Attribute::WillReturn);
  G->setAttributes(G->getAttributes().removeAttributesAtIndex(Ctx, AttributeList::ReturnIndex));
  G->setPresplitCoroutine();
  Argument *Frame = G->getArg(0), *Result = G->getArg(1);
  Frame->setName("frame");
  Result->setName("result");

  BasicBlock *Body = &G->getEntryBlock();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "coro.entry", G, Body);
  for (Instruction &I : make_early_inc_range(*Body))
    if (isa<AllocaInst>(I))
      I.moveBefore(*Entry, Entry->end());
  IRBuilder<> B(Entry);
  Value *Null = ConstantPointerNull::get(PtrTy);
  Value *Id = B.CreateIntrinsic(Intrinsic::coro_id, {}, {B.getInt32(0), Null, G, Null});
  Value *Hdl = B.CreateIntrinsic(Intrinsic::coro_begin, {}, {Id, Frame});
  B.CreateBr(Body);

  BasicBlock *Suspend = BasicBlock::Create(Ctx, "coro.suspend", G);
  B.SetInsertPoint(Suspend);
  B.CreateIntrinsic(Intrinsic::coro_end, {}, {Hdl, B.getFalse(), ConstantTokenNone::get(Ctx)});
  B.CreateRet(Hdl);
  BasicBlock *Cleanup = BasicBlock::Create(Ctx, "coro.cleanup", G);
  BranchInst::Create(Suspend, Cleanup);
  BasicBlock *Never = BasicBlock::Create(Ctx, "coro.final.resumed", G);
  new UnreachableInst(Ctx, Never);

  auto suspend = [&](IRBuilder<> &B, bool Final, BasicBlock *Resume) {
    Value *S = B.CreateIntrinsic(Intrinsic::coro_suspend, {}, {ConstantTokenNone::get(Ctx), B.getInt1(Final)});
    SwitchInst *Sw = B.CreateSwitch(S, Suspend, 2);
    Sw->addCase(B.getInt8(0), Resume);
    Sw->addCase(B.getInt8(1), Cleanup);
  };
  for (LoadInst *Load : suspensionLoads(*G, FAM)) {
    BasicBlock *Before = Load->getParent();
    BasicBlock *After = SplitBlock(Before, Load);
    Before->getTerminator()->eraseFromParent();
    IRBuilder<> SB(Before);
    SB.SetCurrentDebugLocation(Load->getDebugLoc());
    SB.CreateIntrinsic(Intrinsic::prefetch, {PtrTy},
                       {Load->getPointerOperand(), SB.getInt32(0), SB.getInt32(3), SB.getInt32(1)});
    suspend(SB, /*Final=*/false, After);
  }
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> RB(Ret);
    if (Value *V = Ret->getReturnValue())
      RB.CreateStore(V, Result);
    suspend(RB, /*Final=*/true, Never);
    Ret->eraseFromParent();
  }

  auto *DescTy = StructType::get(Type::getInt64Ty(Ctx), PtrTy);
  new GlobalVariable(M, DescTy, /*isConstant=*/true, GlobalValue::ExternalLinkage,
                     ConstantStruct::get(DescTy, {ConstantInt::getAllOnesValue(Type::getInt64Ty(Ctx)), G}),
                     resumableDescriptorName(F.getName()));
  ++NumResumable;
  LLVM_DEBUG(dbgs() << "memcoro-resumable: " << F.getName() << " resumable as " << G->getName() << "\n");
}

PreservedAnalyses ResumableCalleesPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!EmitResumable)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<Function *, 4> Todo;
  for (Function &F : M)
    if (qualifies(F)) {
      // A function whose far-looking loads are all streams has nothing to
      // suspend at: its callers make the plain call.
      if (suspensionLoads(F, FAM).empty()) {
        LLVM_DEBUG(dbgs() << "memcoro-resumable: " << F.getName() << " has no load to suspend at\n");
        continue;
      }
      Todo.push_back(&F);
    }
  for (Function *F : Todo)
    makeResumable(*F, FAM);
  return Todo.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

PreservedAnalyses ResumableDescriptorsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  bool Changed = false;
  for (GlobalVariable &Desc : M.globals()) {
    if (!Desc.getName().starts_with(resumableDescriptorName("")) || !Desc.hasInitializer())
      continue;
    auto *Init = dyn_cast<ConstantStruct>(Desc.getInitializer());
    auto *Ramp = Init ? dyn_cast<Function>(Init->getOperand(1)) : nullptr;
    if (!Ramp)
      continue;
    // CoroSplit names the frame's type after the coroutine.
    StructType *FrameTy = StructType::getTypeByName(M.getContext(), (Ramp->getName() + ".Frame").str());
    if (!FrameTy || Ramp->isPresplitCoroutine()) {
      LLVM_DEBUG(dbgs() << "memcoro-resumable: no frame for " << Ramp->getName() << "\n");
      continue;
    }
    uint64_t Size = M.getDataLayout().getTypeAllocSize(FrameTy);
    Desc.setInitializer(ConstantStruct::get(Init->getType(),
                                            {ConstantInt::get(Type::getInt64Ty(M.getContext()), Size), Ramp}));
    LLVM_DEBUG(dbgs() << "memcoro-resumable: " << Ramp->getName() << ": a frame of " << Size << " bytes\n");
    // CoroSplit leaves the pieces as it cut them; nothing after the
    // optimizer's end would tidy them.
    FunctionPassManager Tidy;
    Tidy.addPass(SimplifyCFGPass());
    Tidy.addPass(InstCombinePass());
    Tidy.addPass(SimplifyCFGPass());
    FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    for (Function &Piece : M)
      if (Piece.getName().starts_with(Ramp->getName()) && !Piece.isDeclaration())
        FAM.invalidate(Piece, Tidy.run(Piece, FAM));
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
