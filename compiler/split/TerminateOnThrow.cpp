//===- TerminateOnThrow.cpp - an exception may not leave a marked loop ----===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan. The pragma's contract is OpenMP's, and OpenMP's
// includes its rule for exceptions: one thrown inside a worksharing loop
// must be caught in the same iteration; one that leaves the loop ends the
// program. Here every way out of the loop by unwinding goes to one landing
// pad that says which loop it left and calls std::terminate:
//
//   call @may_throw(...)              invoke @may_throw(...)
//                                        to label %cont unwind label %memcoro.terminate
//   invoke @f(...) to %c               invoke @f(...) to %c
//      unwind label %outer.lpad          unwind label %memcoro.terminate
//
//   memcoro.terminate:
//     %lp = landingpad { ptr, i32 } catch ptr null
//     call @write(2, "memcoro: an exception left the marked loop at f.cpp:12 ...")
//     call @__cxa_begin_catch(%exn) ; std::terminate()  ; unreachable
//
// Without it a C++ loop that calls anything the optimiser cannot prove
// nounwind stayed serial ("declare the callee noexcept"), advice a user
// cannot take for the standard library (`unordered_map<string, T>::find`),
// a vector's growth, or operator new. With it the unwind edges end the
// program, which legality already treats as no exit at all (an assert's
// failure path), and the calls run in place like any other. The rewrite is
// made whether or not the loop then interleaves, so that what an exception
// does never depends on the optimiser's decision; -fno-memcoro builds, like
// builds without -fopenmp, let it propagate. Landing pads inside the loop (a
// try/catch in the body) are left alone, and legality keeps such a loop
// serial.
//
// Only C++ code (the Itanium personality on the function or in the module)
// is rewritten; elsewhere a call that may throw keeps its remark.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumThrowingCallsGuarded, "Number of calls that may throw in marked loops made to terminate on a throw");
STATISTIC(NumUnwindEdgesRedirected, "Number of unwind edges out of marked loops redirected to std::terminate");

static constexpr StringLiteral ItaniumPersonality = "__gxx_personality_v0";
static constexpr StringLiteral TerminatePadName = "memcoro.terminate";

namespace {

/// The Itanium C++ personality this function uses or may be given: null for
/// a function of another language (C, or C++ with another personality). A
/// C++ function without cleanups has none; its mangled name, or a mangled
/// callee in \p Calls, says it is C++.
Function *cxxPersonality(Function &F, ArrayRef<CallInst *> Calls) {
  if (F.hasPersonalityFn())
    return F.getPersonalityFn()->stripPointerCasts()->getName() == ItaniumPersonality
               ? cast<Function>(F.getPersonalityFn()->stripPointerCasts())
               : nullptr;
  Module &M = *F.getParent();
  if (Function *Known = M.getFunction(ItaniumPersonality))
    return Known;
  auto mangled = [](const Function *G) { return G && G->getName().starts_with("_Z"); };
  if (!mangled(&F) && none_of(Calls, [&](CallInst *Call) { return mangled(Call->getCalledFunction()); }))
    return nullptr;
  return cast<Function>(
      M.getOrInsertFunction(ItaniumPersonality, FunctionType::get(Type::getInt32Ty(M.getContext()), true))
          .getCallee());
}

/// A call that may unwind out of the loop, which an invoke to the terminate
/// pad can replace.
bool mayThrowOut(const CallInst &Call) {
  if (Call.doesNotThrow() || Call.isInlineAsm() || Call.isMustTailCall() || isa<IntrinsicInst>(Call))
    return false;
  // A funclet-based personality's operand bundles have no Itanium meaning.
  return !Call.getOperandBundle(LLVMContext::OB_funclet);
}

/// The loop as the message names it: file:line, or the function.
std::string loopPlace(const Loop &L) {
  if (DebugLoc Loc = L.getStartLoc())
    return (cast<DIScope>(Loc.getScope())->getFilename() + ":" + Twine(Loc.getLine())).str();
  return ("the function '" + L.getHeader()->getParent()->getName() + "'").str();
}

void emitTerminate(IRBuilder<> &B, Loop &L, Value *Exception);

BasicBlock *createTerminatePad(Loop &L, Function &Personality) {
  Function &F = *L.getHeader()->getParent();
  LLVMContext &Ctx = F.getContext();
  if (!F.hasPersonalityFn())
    F.setPersonalityFn(&Personality);
  Type *PadTy = StructType::get(PointerType::get(Ctx, 0), Type::getInt32Ty(Ctx));
  for (BasicBlock &BB : F)
    if (auto *Pad = dyn_cast<LandingPadInst>(BB.getFirstNonPHI()))
      PadTy = Pad->getType();
  BasicBlock *Pad = BasicBlock::Create(Ctx, TerminatePadName, &F);
  IRBuilder<> B(Pad);
  B.SetCurrentDebugLocation(L.getStartLoc());
  LandingPadInst *LP = B.CreateLandingPad(PadTy, 1);
  LP->addClause(ConstantPointerNull::get(PointerType::get(Ctx, 0)));
  emitTerminate(B, L, B.CreateExtractValue(LP, 0));
  return Pad;
}

/// Ends the program for the exception \p Exception (the pointer a landing
/// pad gives) that left the loop \p L, saying so on stderr.
void emitTerminate(IRBuilder<> &B, Loop &L, Value *Exception) {
  Module &M = *B.GetInsertBlock()->getModule();
  std::string Text = "memcoro: an exception left the marked loop at " + loopPlace(L) +
                     "; as from an OpenMP parallel for, the program terminates\n";
  Type *I64 = B.getInt64Ty();
  FunctionCallee Write = M.getOrInsertFunction("write", I64, B.getInt32Ty(), B.getPtrTy(), I64);
  B.CreateCall(Write, {B.getInt32(2), B.CreateGlobalStringPtr(Text, "memcoro.exception.left"),
                       ConstantInt::get(I64, Text.size())})
      ->setDoesNotThrow();
  FunctionCallee BeginCatch = M.getOrInsertFunction("__cxa_begin_catch", B.getPtrTy(), B.getPtrTy());
  B.CreateCall(BeginCatch, {Exception})->setDoesNotThrow();
  FunctionCallee Terminate = M.getOrInsertFunction("_ZSt9terminatev", B.getVoidTy());
  CallInst *Stop = B.CreateCall(Terminate);
  Stop->setDoesNotReturn();
  Stop->setDoesNotThrow();
  B.CreateUnreachable();
}

} // namespace

/// The blocks from \p BB along unconditional branches (LoopSimplify's
/// dedicated exit blocks lead to the block that throws or aborts), at most a
/// few, ending in the block where the chain stops.
static SmallVector<BasicBlock *, 4> straightChain(BasicBlock *BB) {
  SmallVector<BasicBlock *, 4> Chain{BB};
  while (Chain.size() < 8) {
    auto *Br = dyn_cast<BranchInst>(Chain.back()->getTerminator());
    if (!Br || Br->isConditional() || is_contained(Chain, Br->getSuccessor(0)))
      break;
    Chain.push_back(Br->getSuccessor(0));
  }
  return Chain;
}

static bool endsInUnreachable(const BasicBlock *BB) {
  return isa<UnreachableInst>(straightChain(const_cast<BasicBlock *>(BB)).back()->getTerminator());
}

/// Also clang's own terminate pads (a call inside a noexcept function's
/// cleanup): a landing pad that ends in unreachable, maybe after blocks that
/// only branch on (a later pass may split the pad).
bool memcoro::unwindEndsProgram(const Instruction &I) {
  auto *Invoke = dyn_cast<InvokeInst>(&I);
  return Invoke && endsInUnreachable(Invoke->getUnwindDest());
}

bool memcoro::blockThrowsToTerminate(const BasicBlock *BB) {
  auto *Invoke = dyn_cast<InvokeInst>(straightChain(const_cast<BasicBlock *>(BB)).back()->getTerminator());
  return Invoke && endsInUnreachable(Invoke->getNormalDest()) && unwindEndsProgram(*Invoke);
}

bool memcoro::blockEndsProgram(const BasicBlock *BB) {
  return endsInUnreachable(BB) || blockThrowsToTerminate(BB);
}

bool memcoro::terminateEscapingExceptions(Loop &L, LoopInfo &LI, DominatorTree &DT) {
  Function &F = *L.getHeader()->getParent();
  // Each with whether it lies in a block outside the loop: those unwind to a
  // pad of their own, so that the loop's pad stays a dedicated exit.
  SmallVector<std::pair<CallInst *, bool>, 4> Calls;
  SmallVector<std::pair<InvokeInst *, bool>, 4> Invokes;
  auto collect = [&](BasicBlock *BB, bool Outside) {
    for (Instruction &I : *BB)
      if (auto *Call = dyn_cast<CallInst>(&I); Call && mayThrowOut(*Call))
        Calls.push_back({Call, Outside});
    if (auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator());
        Invoke && !L.contains(Invoke->getUnwindDest()) && !unwindEndsProgram(*Invoke))
      Invokes.push_back({Invoke, Outside});
  };
  for (BasicBlock *BB : L.blocks())
    collect(BB, false);
  // A path that leaves the loop only to throw (a vector's __throw_length_error,
  // at()'s out-of-range report) ends the program once its exception does.
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  SmallPtrSet<BasicBlock *, 8> Collected;
  SmallVector<ResumeInst *, 1> Resumes;
  SmallVector<std::pair<BasicBlock *, ResumeInst *>, 1> SharedResumes;
  bool RedirectedResume = false;
  for (BasicBlock *Exit : Exits) {
    SmallVector<BasicBlock *, 4> Chain = straightChain(Exit);
    const Instruction *T = Chain.back()->getTerminator();
    auto *Invoke = dyn_cast<InvokeInst>(T);
    bool Throws = isa<UnreachableInst>(T) || (Invoke && endsInUnreachable(Invoke->getNormalDest()));
    // Only paths the loop alone reaches: code after the loop keeps its own
    // exceptions.
    auto reachedFromLoop = [&](BasicBlock *BB) {
      return all_of(predecessors(BB), [&](BasicBlock *Pred) {
        return L.contains(Pred) || is_contained(Exits, Pred) || is_contained(Chain, Pred);
      });
    };
    if (Throws && all_of(Chain, reachedFromLoop))
      for (BasicBlock *BB : Chain)
        if (Collected.insert(BB).second)
          collect(BB, true);
    // An exception a try/catch in the body does not catch goes on from its
    // handler's dispatch: resumed, it leaves the loop.
    if (auto *Resume = dyn_cast<ResumeInst>(Chain.back()->getTerminator())) {
      if (all_of(Chain, reachedFromLoop))
        Resumes.push_back(Resume);
      else
        SharedResumes.push_back({Exit, Resume});
    }
  }
  for (ResumeInst *Resume : Resumes) {
    IRBuilder<> B(Resume);
    B.SetCurrentDebugLocation(L.getStartLoc());
    emitTerminate(B, L, B.CreateExtractValue(Resume->getValue(), 0));
    Resume->eraseFromParent();
    ++NumUnwindEdgesRedirected;
  }
  // A resume other code reaches too (clang shares one between the loops of
  // a function): each edge from the loop goes to a block of its own that
  // ends the program, with the exception the resume would have thrown on.
  for (auto [Exit, Resume] : SharedResumes) {
    SmallVector<BasicBlock *, 4> Chain = straightChain(Exit);
    SmallVector<BasicBlock *, 2> Preds;
    for (BasicBlock *Pred : predecessors(Exit))
      if (L.contains(Pred))
        Preds.push_back(Pred);
    // What the resume throws, from the loop's block \p Pred: back through
    // the phis of the blocks on the way (cleanups that destroy the
    // function's locals, then the resume of the { exception, selector }
    // pair they rebuild), its exception pointer or the pair.
    auto thrownFrom = [&](BasicBlock *Pred) -> Value * {
      auto back = [&](Value *V) {
        for (auto *Phi = dyn_cast<PHINode>(V); Phi && is_contained(Chain, Phi->getParent());
             Phi = dyn_cast<PHINode>(V)) {
          auto At = find(Chain, Phi->getParent());
          V = Phi->getIncomingValueForBlock(At == Chain.begin() ? Pred : *std::prev(At));
        }
        return V;
      };
      Value *Thrown = back(Resume->getValue());
      while (auto *Insert = dyn_cast<InsertValueInst>(Thrown)) {
        if (Insert->getNumIndices() == 1 && Insert->getIndices()[0] == 0)
          return back(Insert->getInsertedValueOperand());
        Thrown = back(Insert->getAggregateOperand());
      }
      return Thrown;
    };
    for (BasicBlock *Pred : Preds) {
      Value *Thrown = thrownFrom(Pred);
      if (auto *I = dyn_cast<Instruction>(Thrown); I && !DT.dominates(I, Pred->getTerminator()))
        continue;
      BasicBlock *Stop = BasicBlock::Create(F.getContext(), "memcoro.rethrow.terminate", &F);
      IRBuilder<> B(Stop);
      B.SetCurrentDebugLocation(L.getStartLoc());
      // Outside the loop, a value of it goes through a phi (LCSSA).
      PHINode *Exception = B.CreatePHI(Thrown->getType(), 1);
      Exception->addIncoming(Thrown, Pred);
      emitTerminate(B, L, Exception->getType()->isPointerTy() ? Exception : B.CreateExtractValue(Exception, 0));
      Pred->getTerminator()->replaceSuccessorWith(Exit, Stop);
      Exit->removePredecessor(Pred);
      ++NumUnwindEdgesRedirected;
      RedirectedResume = true;
    }
  }
  // The unwinder ends the program at once when its search finds no handler,
  // before any landing pad runs: the loop's pads now catch everything, so
  // that what they do not handle reaches the terminate above.
  if (RedirectedResume || !Resumes.empty())
    for (BasicBlock *BB : L.blocks())
      if (LandingPadInst *LP = BB->getLandingPadInst();
          LP && none_of(seq(LP->getNumClauses()), [&](unsigned C) {
            return LP->isCatch(C) && isa<ConstantPointerNull>(LP->getClause(C));
          }))
        LP->addClause(ConstantPointerNull::get(PointerType::get(F.getContext(), 0)));
  if (RedirectedResume)
    DT.recalculate(F);
  if (Calls.empty() && Invokes.empty())
    return !Resumes.empty() || RedirectedResume;
  SmallVector<CallInst *, 4> CallsOnly(make_first_range(Calls));
  Function *Personality = cxxPersonality(F, CallsOnly);
  if (!Personality) {
    LLVM_DEBUG(dbgs() << "memcoro-split: calls that may throw left as they are: no C++ personality\n");
    return false;
  }
  BasicBlock *Pads[2] = {nullptr, nullptr};
  auto padFor = [&](bool Outside) {
    if (!Pads[Outside])
      Pads[Outside] = createTerminatePad(L, *Personality);
    return Pads[Outside];
  };
  for (auto [Invoke, Outside] : Invokes) {
    Invoke->getUnwindDest()->removePredecessor(Invoke->getParent());
    Invoke->setUnwindDest(padFor(Outside));
    ++NumUnwindEdgesRedirected;
  }
  for (auto [Call, Outside] : Calls) {
    BasicBlock *Cont = SplitBlock(Call->getParent(), Call->getNextNode(), &DT, &LI);
    SmallVector<OperandBundleDef, 1> Bundles;
    Call->getOperandBundlesAsDefs(Bundles);
    SmallVector<Value *, 8> Args(Call->args());
    auto *Invoke = InvokeInst::Create(Call->getFunctionType(), Call->getCalledOperand(), Cont, padFor(Outside), Args,
                                      Bundles, "", Call->getParent()->getTerminator());
    Invoke->takeName(Call);
    Invoke->setCallingConv(Call->getCallingConv());
    Invoke->setAttributes(Call->getAttributes());
    Invoke->setDebugLoc(Call->getDebugLoc());
    Invoke->copyMetadata(*Call);
    Call->replaceAllUsesWith(Invoke);
    Invoke->getParent()->getTerminator()->eraseFromParent();
    Call->eraseFromParent();
    ++NumThrowingCallsGuarded;
  }
  DT.recalculate(F);
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Calls.size() << " calls and " << Invokes.size()
                    << " invokes of the loop unwind to std::terminate\n");
  return true;
}
