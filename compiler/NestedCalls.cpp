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
// cannot replace, is not variadic, has no marked loop of its own, has at
// most -memcoro-nested-max-size instructions, cannot reach itself through
// direct calls (recursion has no bounded frame), and has a far-looking load:
// its address is neither a stack or global object nor a constant offset
// from an argument (heads[h & mask], e->key after e = e->next). Other calls
// stay where they are and run in place (split/CallsInPlace.cpp); a recursive
// one gets a missed remark, one into another translation unit an analysis
// remark, saying so.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-nested-calls -S in.ll
//
//===----------------------------------------------------------------------===//
#include "NestedCalls.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-nested-calls"

STATISTIC(NumNested, "Number of calls in marked loops resumed as nested coroutines");
STATISTIC(NumRecursive, "Number of calls in marked loops left plain: the callee is recursive");

static cl::opt<unsigned> MaxCalleeSize(
    "memcoro-nested-max-size", cl::Hidden, cl::init(400),
    cl::desc("Largest callee (in instructions) that a marked loop resumes as a nested coroutine"));

static constexpr StringLiteral NestedMD = "memcoro.nested";

/// Whether \p F can reach itself through direct calls of this module.
static bool isRecursive(Function &F) {
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

/// A load whose address is neither a stack or global object nor a constant
/// offset from an argument: a table indexed by a computed value, or a pointer
/// the callee loaded.
static bool hasFarLookingLoad(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (Instruction &I : instructions(F)) {
    auto *Load = dyn_cast<LoadInst>(&I);
    if (!Load)
      continue;
    APInt Offset(DL.getIndexTypeSizeInBits(Load->getPointerOperandType()), 0);
    const Value *Base = Load->getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
    if (!isa<Argument>(Base) && !isa<AllocaInst>(Base) && !isa<GlobalValue>(Base))
      return true;
  }
  return false;
}

/// Whether \p F has a marked loop of its own, which memcoro-split interleaves
/// there (a copy would be a second loop with the same memcoro.id).
static bool hasMarkedLoop(Function &F) {
  for (Instruction &I : instructions(F))
    if (MDNode *ID = I.getMetadata(LLVMContext::MD_loop))
      for (const MDOperand &Op : drop_begin(ID->operands()))
        if (auto *Node = dyn_cast<MDNode>(Op.get()); Node && Node->getNumOperands() > 0)
          if (auto *Tag = dyn_cast<MDString>(Node->getOperand(0)); Tag && Tag->getString().starts_with("memcoro."))
            return true;
  return false;
}

static std::string calleeText(const Function &F) { return "callee '" + demangle(F.getName()) + "'"; }

PreservedAnalyses NestedCallsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  SmallVector<std::pair<CallInst *, Loop *>, 4> ToInline;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!getMarkedParallelism(*L))
      continue;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        auto *Call = dyn_cast<CallInst>(&I);
        Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (!Callee || Callee->isIntrinsic() || Callee == &F || !Call->mayReadOrWriteMemory() ||
            any_of(ToInline, [&](auto &P) { return P.first == Call; }))
          continue;
        if (Callee->isDeclaration()) {
          ORE.emit([&] {
            return OptimizationRemarkAnalysis(RemarkPass, "CallInPlace", Call)
                   << calleeText(*Callee)
                   << " is defined in another translation unit: it runs in place, as a plain call, and the "
                      "iteration does not suspend inside it";
          });
          continue;
        }
        if (!Callee->hasExactDefinition() || Callee->isVarArg() || !hasFarLookingLoad(*Callee) ||
            hasMarkedLoop(*Callee))
          continue;
        if (isRecursive(*Callee)) {
          ++NumRecursive;
          LLVM_DEBUG(dbgs() << "memcoro-nested-calls: recursive, left plain:" << *Call << "\n");
          ORE.emit([&] {
            return OptimizationRemarkMissed(RemarkPass, "RecursiveCallee", Call)
                   << calleeText(*Callee)
                   << " is recursive, so its frames have no bound: it runs in place, as a plain call, and its "
                      "far accesses are not overlapped with other iterations";
          });
          continue;
        }
        if (Callee->getInstructionCount() > MaxCalleeSize) {
          LLVM_DEBUG(dbgs() << "memcoro-nested-calls: too large, left plain:" << *Call << "\n");
          continue;
        }
        ToInline.push_back({Call, L});
      }
  }
  if (ToInline.empty())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = F.getContext();
  for (auto &[Call, L] : ToInline) {
    Function &Callee = *Call->getCalledFunction();
    DebugLoc Loc = Call->getDebugLoc();
    std::string Name = demangle(Callee.getName());
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
  SmallVector<std::string, 2> Names;
  if (MDNode *ID = L.getLoopID())
    for (const MDOperand &Op : drop_begin(ID->operands()))
      if (auto *Node = dyn_cast<MDNode>(Op.get()); Node && Node->getNumOperands() == 2)
        if (auto *Tag = dyn_cast<MDString>(Node->getOperand(0)); Tag && Tag->getString() == NestedMD)
          if (std::string Name = cast<MDString>(Node->getOperand(1))->getString().str(); !is_contained(Names, Name))
            Names.push_back(Name);
  std::string Text;
  for (const std::string &Name : Names)
    Text += (Text.empty() ? "" : "; ") + ("callee '" + Name + "' resumed as a nested coroutine");
  if (!Text.empty())
    Text += Names.size() == 1 ? " (its frame lives in the iteration's slot, its far accesses suspend it)"
                              : " (their frames live in the iteration's slot, their far accesses suspend it)";
  return Text;
}
