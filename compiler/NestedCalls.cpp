//===- NestedCalls.cpp - memcoro-nested-calls: callees resumed inside a loop -===//
//
// Runs at the vectorizer start, just before memcoro-split (issue 17, item
// 7b; CoroAMU III-F). A marked loop that calls a lookup helper the inliner
// left alone (noinline, or too large) could only run it in place: the
// helper's misses would stall the iteration, and the loop would have no far
// access of its own to interleave. The paper makes such a callee a nested
// coroutine whose frame lives with the caller's and into which the caller
// suspends. For a callee defined in this translation unit that is exactly a
// private copy of its body in the loop: memcoro-split then places suspension
// points at the callee's far accesses like at the loop's own, saves the
// callee's live values in the iteration's slot (its frame), and resumes
// there. The function itself is unchanged for its other callers.
//
// A callee qualifies when it is defined here with a definition the linker
// cannot replace by another program's (a template instantiation,
// linkonce_odr, does: libstdc++'s unordered_map<string, T>::find and
// map::find, called or invoked), is not variadic, has no marked loop of its own, has at
// most -memcoro-nested-max-size instructions, cannot reach itself through
// direct calls (recursion has no bounded frame), and has a far-looking load:
// its address is neither a stack or global object nor a constant offset
// from an argument (heads[h & mask], e->key after e = e->next). Other calls
// stay where they are and run in place (split/CallsInPlace.cpp); a recursive
// one gets a missed remark saying so. Once a callee is copied, libstdc++'s
// string hashes are declared as the pure functions they are, so that the
// loop's other reads are not taken as written by them.
//
// A callee of another translation unit cannot be copied. In a loop with no
// far access of its own (which would otherwise stay serial), or when the
// callee returns a pointer (a lookup handing back the record it found, which
// the loop then reads), the iteration resumes the callee's resumable clone
// through the descriptor its unit has when built by memcoro-cc
// (resumeInOtherUnit, ResumableCallees.cpp), and makes the plain call when
// there is none; in other loops it stays a plain call, with an analysis
// remark.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-nested-calls -S in.ll
//
//===----------------------------------------------------------------------===//
#include "NestedCalls.h"
#include "AmuFarAccesses.h"
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"
#include "ResumableCallees.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-nested-calls"

STATISTIC(NumNested, "Number of calls in marked loops resumed as nested coroutines");
STATISTIC(NumResumedElsewhere, "Number of calls in marked loops that resume a callee of another translation unit");
STATISTIC(NumRecursive, "Number of calls in marked loops left plain: the callee is recursive");

static cl::opt<unsigned> MaxCalleeSize(
    "memcoro-nested-max-size", cl::Hidden, cl::init(400),
    cl::desc("Largest callee (in instructions) that a marked loop resumes as a nested coroutine"));

static constexpr StringLiteral NestedMD = "memcoro.nested";

bool memcoro::isRecursive(Function &F) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 8> Work = {&F};
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    for (Instruction &I : instructions(*G))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction(); Callee && !Callee->isDeclaration()) {
          if (Callee == &F)
            return true;
          if (Seen.insert(Callee).second)
            Work.push_back(Callee);
        }
  }
  return false;
}

bool memcoro::isFarLookingLoad(const LoadInst &Load) {
  const DataLayout &DL = Load.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Load.getPointerOperandType()), 0);
  const Value *Base = Load.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
  return !isa<Argument>(Base) && !isa<AllocaInst>(Base) && !isa<GlobalValue>(Base);
}

static bool hasFarLookingLoad(Function &F) {
  for (Instruction &I : instructions(F))
    if (auto *Load = dyn_cast<LoadInst>(&I); Load && isFarLookingLoad(*Load))
      return true;
  return false;
}

bool memcoro::hasMarkedLoop(Function &F) {
  for (Instruction &I : instructions(F))
    if (MDNode *ID = I.getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : drop_begin(ID->operands()))
        if (auto *Node = dyn_cast<MDNode>(Op.get()); Node && Node->getNumOperands() > 0)
          if (auto *Tag = dyn_cast<MDString>(Node->getOperand(0)); Tag && Tag->getString().starts_with("memcoro."))
            return true;
  return false;
}

bool memcoro::mayResumeCallee(Function &F) {
  if (F.isVarArg() || F.getInstructionCount() > MaxCalleeSize || !hasFarLookingLoad(F) || hasMarkedLoop(F)) {
    LLVM_DEBUG(dbgs() << "memcoro-nested-calls: " << F.getName() << " is no callee to resume\n");
    return false;
  }
  return true;
}

/// The callee's name as a remark gives it: demangled, and for a member of a
/// class template (std::_Hashtable<std::__cxx11::basic_string<char, ...>,
/// ...>::find(...), a page of text) the class's arguments and the
/// parameters elided: 'std::_Hashtable<...>::find'.
static std::string readableName(const Function &F) {
  std::string Full = demangle(F.getName());
  ItaniumPartialDemangler D;
  if (D.partialDemangle(F.getName().data()) || !D.isFunction())
    return Full;
  auto text = [](char *Buf) {
    std::string Text = Buf ? Buf : "";
    std::free(Buf);
    return Text;
  };
  std::string Context = text(D.getFunctionDeclContextName(nullptr, nullptr));
  std::string Base = text(D.getFunctionBaseName(nullptr, nullptr));
  if (Context.find('<') == std::string::npos || Base.empty())
    return Full;
  std::string Short;
  unsigned Depth = 0;
  for (char C : Context) {
    if (C == '<' && Depth++ == 0)
      Short += "<...>";
    else if (C == '>' && Depth > 0)
      --Depth;
    else if (Depth == 0)
      Short += C;
  }
  return Short + "::" + Base;
}

static std::string calleeText(const Function &F) { return "callee '" + readableName(F) + "'"; }

static constexpr StringLiteral NestedExternMD = "memcoro.nested.extern";
static constexpr StringLiteral NestedPartMD = "memcoro.nested.call";

static cl::opt<unsigned> FrameBytes(
    "memcoro-nested-frame-bytes", cl::Hidden, cl::init(256),
    cl::desc("Bytes each iteration of a marked loop keeps for the frame of a callee of another translation unit "
             "(a larger frame makes a plain call)"));

bool memcoro::isNestedCallPart(const Instruction &I) { return I.getMetadata(NestedPartMD); }

/// A call of a marked loop to a function of another translation unit that
/// may have a resumable clone there: a user's function, not the C library's
/// nor memcoro's, that cannot throw, with a result a store hands over.
/// An out-of-line function of namespace std (libstdc++'s
/// _Rb_tree_increment, std::map's iterator step): the library is not built
/// by memcoro-cc, so it has no resumable clone, and the check for one around
/// the call kept std::map's iteration from running its step at launch.
static bool inStandardLibrary(const Function &F) {
  StringRef Name = F.getName();
  return Name.starts_with("_ZSt") || Name.starts_with("_ZNSt") || Name.starts_with("_ZNKSt");
}

static bool mayResumeElsewhere(CallInst &Call, const TargetLibraryInfo &TLI) {
  Function *Callee = Call.getCalledFunction();
  LibFunc Lib;
  Type *Ret = Call.getType();
  return !amuEnabled() && !isKnownLibraryCall(Call) && Call.doesNotThrow() && !Call.isMustTailCall() && !Call.hasOperandBundles() &&
         !Call.getFunctionType()->isVarArg() && !(TLI.getLibFunc(*Callee, Lib) && TLI.has(Lib)) &&
         !Callee->getName().starts_with("__") && !Callee->getName().starts_with("memcoro_") &&
         !inStandardLibrary(*Callee) &&
         !Ret->isStructTy() && !Ret->isArrayTy() && !Ret->isVectorTy();
}

/// The caller's side of a callee resumed across translation units
/// (ResumableCallees.cpp has the callee's): the descriptor is referenced
/// weakly; where the callee's unit gave one and its frame fits this
/// iteration's buffer, the iteration calls the ramp and, until the frame's
/// resume function is null, yields (the callee has prefetched) and resumes
/// it; otherwise it makes the plain call. The buffer and the result are
/// stack objects of the loop body, which each slot of memcoro-split has its
/// own copy of; the yield is a marker the planner makes a suspension point.
static void resumeInOtherUnit(CallInst &Call, Loop &L, OptimizationRemarkEmitter &ORE) {
  Function &F = *Call.getFunction();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Function &Callee = *Call.getCalledFunction();
  std::string Name = readableName(Callee);
  auto *PtrTy = PointerType::get(Ctx, 0);
  auto *I64 = Type::getInt64Ty(Ctx);
  auto *DescTy = StructType::get(I64, PtrTy);
  GlobalVariable *Desc = M.getGlobalVariable(resumableDescriptorName(Callee.getName()));
  if (!Desc)
    Desc = new GlobalVariable(M, DescTy, /*isConstant=*/true, GlobalValue::ExternalWeakLinkage, nullptr,
                              resumableDescriptorName(Callee.getName()));
  MDNode *Part = MDNode::get(Ctx, {});
  MDNode *Nested = MDNode::get(Ctx, {MDString::get(Ctx, NestedExternMD), MDString::get(Ctx, Name)});
  L.setLoopID(makePostTransformationMetadata(Ctx, L.getLoopID(), {}, {Nested}));

  // The iteration's frame buffer and result, private to it.
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Frame = EB.CreateAlloca(ArrayType::get(Type::getInt8Ty(Ctx), FrameBytes), nullptr, "nested.frame");
  Frame->setAlignment(Align(16));
  Type *RetTy = Call.getType();
  AllocaInst *Result = RetTy->isVoidTy() ? nullptr : EB.CreateAlloca(RetTy, nullptr, "nested.result");

  BasicBlock *Before = Call.getParent();
  BasicBlock *Join = SplitBlock(Before, Call.getNextNode());
  BasicBlock *Plain = SplitBlock(Before, &Call);
  Before->getTerminator()->eraseFromParent();
  auto tag = [&](Instruction *I) {
    I->setMetadata(NestedPartMD, Part);
    return I;
  };
  DebugLoc Loc = Call.getDebugLoc();
  auto block = [&](const char *N) { return BasicBlock::Create(Ctx, N, &F, Plain); };
  BasicBlock *Check = block("nested.check"), *Start = block("nested.start"), *Poll = block("nested.poll"),
             *Wait = block("nested.wait"), *Done = block("nested.done");

  IRBuilder<> B(Before);
  B.SetCurrentDebugLocation(Loc);
  B.CreateLifetimeStart(Frame, B.getInt64(FrameBytes));
  if (Result)
    B.CreateLifetimeStart(Result);
  tag(B.CreateCondBr(B.CreateIsNotNull(Desc), Check, Plain));
  B.SetInsertPoint(Check);
  B.CreateCondBr(B.CreateICmpULE(B.CreateLoad(I64, Desc), B.getInt64(FrameBytes)), Start, Plain);
  B.SetInsertPoint(Start);
  SmallVector<Value *, 8> Args = {Frame, Result ? static_cast<Value *>(Result) : ConstantPointerNull::get(PtrTy)};
  append_range(Args, Call.args());
  SmallVector<Type *, 8> Params = {PtrTy, PtrTy};
  append_range(Params, Call.getFunctionType()->params());
  Value *Ramp = B.CreateLoad(PtrTy, B.CreateStructGEP(DescTy, Desc, 1));
  tag(B.CreateCall(FunctionType::get(PtrTy, Params, false), Ramp, Args));
  B.CreateBr(Poll);
  // Switch-resume ABI: frame[0] is the resume function, null once returned.
  B.SetInsertPoint(Poll);
  B.CreateCondBr(B.CreateIsNull(B.CreateLoad(PtrTy, Frame)), Done, Wait);
  B.SetInsertPoint(Wait);
  tag(B.CreateCall(getOrInsertNestedYield(M)));
  CallInst *Resume =
      B.CreateCall(FunctionType::get(Type::getVoidTy(Ctx), {PtrTy}, false), B.CreateLoad(PtrTy, Frame), {Frame});
  Resume->setCallingConv(CallingConv::Fast);
  tag(Resume);
  B.CreateBr(Poll);
  B.SetInsertPoint(Done);
  Value *Nest = Result ? B.CreateLoad(RetTy, Result) : nullptr;
  B.CreateBr(Join);

  tag(&Call);
  B.SetInsertPoint(&*Join->getFirstInsertionPt());
  if (Result) {
    PHINode *Phi = B.CreatePHI(RetTy, 2);
    Call.replaceAllUsesWith(Phi);
    Phi->addIncoming(Nest, Done);
    Phi->addIncoming(&Call, Plain);
    B.SetInsertPoint(&*Join->getFirstInsertionPt());
    B.SetInsertPoint(Join, std::next(Phi->getIterator()));
    B.CreateLifetimeEnd(Result);
  }
  B.CreateLifetimeEnd(Frame, B.getInt64(FrameBytes));
  ++NumResumedElsewhere;
  LLVM_DEBUG(dbgs() << "memcoro-nested-calls: " << Name << " resumed through its descriptor when present\n");
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(RemarkPass, "NestedExternCallee", Loc, L.getHeader())
           << "callee '" << Name
           << "' is defined in another translation unit: the iteration resumes its resumable version there, "
              "when that unit was built by memcoro-cc, and suspends at its far accesses; otherwise a plain call";
  });
}

bool memcoro::callNestedCalleesPlainly(ArrayRef<BasicBlock *> Blocks) {
  bool Changed = false;
  for (BasicBlock *BB : Blocks)
    if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()); Br && Br->isConditional() && isNestedCallPart(*Br)) {
      Value *HasDescriptor = Br->getCondition();
      Br->setCondition(ConstantInt::getFalse(BB->getContext()));
      RecursivelyDeleteTriviallyDeadInstructions(HasDescriptor);
      Changed = true;
    }
  return Changed;
}

Function *memcoro::getOrInsertNestedYield(Module &M) {
  if (Function *Fn = M.getFunction(NestedYieldFn))
    return Fn;
  Function *Fn = Function::Create(FunctionType::get(Type::getVoidTy(M.getContext()), false),
                                  GlobalValue::ExternalLinkage, NestedYieldFn, M);
  Fn->setDoesNotThrow();
  Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  return Fn;
}

SmallVector<CallInst *, 2> memcoro::getNestedYields(const Loop &L) {
  SmallVector<CallInst *, 2> Yields;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->getCalledFunction() &&
                                               Call->getCalledFunction()->getName() == NestedYieldFn)
        Yields.push_back(Call);
  return Yields;
}

/// libstdc++'s string hashes (std::hash<std::string>, reached from a copy
/// of unordered_map<string, T>::find) read the key's bytes and nothing else,
/// and do not throw; declared without those effects, each call would seem
/// to write any memory, and the loop's own reads (the keys vector's data
/// pointer) would be read again after it and carried to the next iteration.
static void describeStringHashes(Module &M) {
  for (StringRef Name : {"_ZSt11_Hash_bytesPKvmm", "_ZSt15_Fnv_hash_bytesPKvmm"})
    if (Function *Hash = M.getFunction(Name); Hash && Hash->isDeclaration() && Hash->arg_size() == 3) {
      Hash->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
      Hash->setDoesNotThrow();
      Hash->setWillReturn();
    }
}

/// Whether every pointer \p Call passes points into memory allocated in
/// \p L (operator new, malloc), by this iteration as the contract has it:
/// LDBC label propagation sorts each vertex's neighbour labels in a vector
/// it has just filled, and libstdc++'s insertion sort, copied in as a nested
/// coroutine for its loads off the iterators, gave the loop 21 suspension
/// points where 4 miss (1.97x serial before, 0.95x with them).
static bool worksOnFreshMemory(CallBase &Call, Loop &L, const TargetLibraryInfo &TLI) {
  bool AnyPointer = false;
  for (Value *Arg : Call.args()) {
    if (!Arg->getType()->isPointerTy())
      continue;
    AnyPointer = true;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Arg, Objects, nullptr);
    for (const Value *Object : Objects) {
      auto *Alloc = dyn_cast<CallBase>(Object);
      if (isa<ConstantPointerNull>(Object))
        continue;
      if (!Alloc || !L.contains(Alloc) || !isAllocationFn(Alloc, &TLI))
        return false;
    }
  }
  return AnyPointer;
}

/// The remark for a call left as it is, running in place: what the callee
/// is, then \p Why. A missed remark where its far accesses are not overlapped.
static void leftPlain(OptimizationRemarkEmitter &ORE, CallBase &Call, StringRef Kind, StringRef Why,
                      bool Missed = false) {
  auto Say = [&](auto &&Remark) {
    Remark << calleeText(*Call.getCalledFunction()) << Why;
    ORE.emit(Remark);
  };
  if (Missed)
    Say(OptimizationRemarkMissed(RemarkPass, Kind, &Call));
  else
    Say(OptimizationRemarkAnalysis(RemarkPass, Kind, &Call));
}

PreservedAnalyses NestedCallsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  auto &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  auto &RAI = FAM.getResult<RemoteAccessAnalysis>(F);
  auto HasOwnFarAccesses = [&](Loop *L) {
    const auto *Remote = RAI.lookup(L);
    return Remote && !Remote->empty();
  };
  // A call in C++ code with cleanups (main's vectors) is an invoke: copied
  // in like a call, its unwind edge taken by the copy's calls.
  SmallVector<std::pair<CallBase *, Loop *>, 4> ToInline;
  SmallVector<std::pair<CallInst *, Loop *>, 4> ToResume;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!getMarkedParallelism(*L))
      continue;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        Function *Callee = Call && !isa<CallBrInst>(Call) ? Call->getCalledFunction() : nullptr;
        if (!Callee || Callee->isIntrinsic() || Callee == &F || !Call->mayReadOrWriteMemory() ||
            isNestedCallPart(*Call) || any_of(ToInline, [&](auto &P) { return P.first == Call; }))
          continue;
        // memcoro's own markers (remote(), ordered) are no call of the user's,
        // nor are a sanitizer's checks, which run in place.
        if (Callee->getName() == RemoteBaseFn || Callee->getName() == OrderedFn || isSanitizerRuntimeFn(*Callee))
          continue;
        if (Callee->isDeclaration()) {
          // A loop with far accesses of its own interleaves anyway and keeps
          // its plain calls, except to a lookup that hands back the record
          // it found (memcached's assoc_find): the loop's own far accesses
          // read that record, and the walk to it is the iteration's misses.
          auto *Plain = dyn_cast<CallInst>(Call);
          if (Plain && (!HasOwnFarAccesses(L) || Call->getType()->isPointerTy()) && mayResumeElsewhere(*Plain, TLI)) {
            ToResume.push_back({Plain, L});
            continue;
          }
          leftPlain(ORE, *Call, "CallInPlace",
                    " is defined in another translation unit: it runs in place, as a plain call, and the "
                    "iteration does not suspend inside it");
          continue;
        }
        // A linkonce_odr or weak_odr definition (a template instantiation:
        // unordered_map<string, T>::find) is not exact, as another unit's copy
        // may be optimised differently, but every copy has the source's
        // meaning: copying it is what the inliner does. Only a definition
        // the linker may replace by another program's is left alone.
        if (Callee->isInterposable() || !mayResumeCallee(*Callee)) {
          LLVM_DEBUG(dbgs() << "memcoro-nested-calls: left plain:" << *Call << "\n");
          continue;
        }
        if (isRecursive(*Callee)) {
          ++NumRecursive;
          LLVM_DEBUG(dbgs() << "memcoro-nested-calls: recursive, left plain:" << *Call << "\n");
          leftPlain(ORE, *Call, "RecursiveCallee",
                    " is recursive, so its frames have no bound: it runs in place, as a plain call, and its "
                    "far accesses are not overlapped with other iterations",
                    /*Missed=*/true);
          continue;
        }
        if (worksOnFreshMemory(*Call, *L, TLI)) {
          LLVM_DEBUG(dbgs() << "memcoro-nested-calls: on the iteration's own allocation, left plain:" << *Call
                            << "\n");
          leftPlain(ORE, *Call, "CallOnFreshMemory",
                    " works on memory the iteration allocated itself, which is near the core: it runs in "
                    "place, and the iteration does not suspend inside it");
          continue;
        }
        ToInline.push_back({Call, L});
      }
  }
  if (ToInline.empty() && ToResume.empty())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = F.getContext();
  if (!ToInline.empty())
    describeStringHashes(*F.getParent());
  for (auto &[Call, L] : ToResume)
    resumeInOtherUnit(*Call, *L, ORE);
  for (auto &[Call, L] : ToInline) {
    Function &Callee = *Call->getCalledFunction();
    DebugLoc Loc = Call->getDebugLoc();
    std::string Name = readableName(Callee);
    // Inlining splits the call's block, which may be the latch: the loop's
    // properties are set while LoopInfo still names it.
    MDNode *OldID = L->getLoopID();
    MDNode *Nested = MDNode::get(Ctx, {MDString::get(Ctx, NestedMD), MDString::get(Ctx, Name)});
    L->setLoopID(makePostTransformationMetadata(Ctx, OldID, {}, {Nested}));
    InlineFunctionInfo IFI;
    if (!InlineFunction(*Call, IFI).isSuccess()) {
      LLVM_DEBUG(dbgs() << "memcoro-nested-calls: could not copy " << Name << "\n");
      L->setLoopID(OldID);
      continue;
    }
    ++NumNested;
    LLVM_DEBUG(dbgs() << "memcoro-nested-calls: " << Name << " resumed inside its loop\n");
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "NestedCallee", Loc, L->getHeader())
             << "callee '" << Name
             << "' copied into the marked loop, so that the iteration can suspend at its far accesses";
    });
  }
  return PreservedAnalyses::none();
}

std::string memcoro::nestedCalleesRemark(const Loop &L) {
  SmallVector<std::string, 2> Names, Extern;
  if (MDNode *ID = L.getLoopID())
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *Node = dyn_cast<MDNode>(Op.get()); Node && Node->getNumOperands() == 2)
        if (auto *Tag = dyn_cast<MDString>(Node->getOperand(0));
            Tag && (Tag->getString() == NestedMD || Tag->getString() == NestedExternMD)) {
          auto &List = Tag->getString() == NestedMD ? Names : Extern;
          if (std::string Name = cast<MDString>(Node->getOperand(1))->getString().str(); !is_contained(List, Name))
            List.push_back(Name);
        }
  std::string Text;
  for (const std::string &Name : Names)
    Text += (Text.empty() ? "" : "; ") + ("callee '" + Name + "' resumed as a nested coroutine");
  if (!Names.empty())
    Text += Names.size() == 1 ? " (its frame lives in the iteration's slot, its far accesses suspend it)"
                              : " (their frames live in the iteration's slot, their far accesses suspend it)";
  for (const std::string &Name : Extern)
    Text += (Text.empty() ? "" : "; ") +
            ("callee '" + Name +
             "' of another translation unit resumed as a nested coroutine where that unit was built by memcoro-cc "
             "(a plain call otherwise)");
  return Text;
}
