//===- ThrowingCalls.cpp - an exception that would leave a marked loop ----===//
//
// A step of memcoro-split (see SplitInternal.h), recognised by legality's
// checkExits and applied by the lowering: C++ bodies call functions that may
// throw, most often without the user knowing (a std::vector declared in the
// body allocates with operator new, which throws std::bad_alloc; std::sort's
// helpers are invoked). Each such call is an `invoke` whose unwind edge
// leaves the loop, and legality counted it as an early exit or a call that
// may throw, and a block outside the loop that only throws (a vector's
// reserve calls std::__throw_length_error) as an early exit: LDBC's label
// propagation, a vector of neighbour labels sorted per vertex, stayed serial.
//
// An exception must not leave an interleaved loop: the iterations in flight
// would be abandoned half done, earlier ones included. An OpenMP parallel
// for has the same problem and the same answer: an exception that leaves the
// body of a `#pragma omp parallel for` ends the program (clang wraps the body
// in a handler that calls std::terminate). A marked loop gets that rule:
// each invoke whose exception would leave the loop (and each throw an exit
// leads to) unwinds to a landing pad of its own that catches everything and
// calls std::terminate, so those exits end the program as a failed assert's
// do. The program
// ends loudly where the serial build would have thrown; every run that does
// not throw is unchanged. Calls that run in iteration order after an append
// (a buffer's flush, BufferAppend.cpp) keep their unwind edge: every earlier
// iteration has ended when they run.
//
// Missed remarks name the call no longer; an analysis remark on the
// transformed loop names each call whose exception now ends the program.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumTerminatingInvokes, "Number of calls whose exception, leaving a marked loop, ends the program");

/// A block that ends in a call that never returns normally: a throw
/// (`std::__throw_length_error` of a vector's reserve), invoked.
static bool throwsOnly(const InvokeInst &Invoke) {
  return isa<UnreachableInst>(Invoke.getNormalDest()->getTerminator());
}

/// The throw \p BB leads to, through the blocks that only branch on that
/// LoopSimplify puts in front of a throw several exits share; or null.
static InvokeInst *throwReached(BasicBlock *BB) {
  for (unsigned Steps = 0; Steps < 4 && BB; ++Steps) {
    if (auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator()))
      return throwsOnly(*Invoke) ? Invoke : nullptr;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || Br->isConditional() || BB->getFirstNonPHI() != Br)
      return nullptr;
    BB = Br->getSuccessor(0);
  }
  return nullptr;
}

void memcoro::recogniseThrowingCalls(const SplitAnalyses &A, LoopPlan &Plan) {
  // The loop's own calls, and the throws its exits lead to.
  SmallVector<BasicBlock *, 8> Blocks(Plan.L.blocks());
  SmallVector<BasicBlock *, 4> Exits;
  Plan.L.getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    if (InvokeInst *Throw = throwReached(Exit); Throw && !is_contained(Blocks, Throw->getParent()))
      Blocks.push_back(Throw->getParent());
  for (BasicBlock *BB : Blocks) {
    auto *Invoke = dyn_cast<InvokeInst>(BB->getTerminator());
    if (!Invoke || Plan.L.contains(Invoke->getUnwindDest()) || runsAfterBufferAppend(Plan, A.DT, Invoke))
      continue;
    // Only the Itanium ABI's landing pads: a funclet's pads (Windows) stay.
    if (!isa<LandingPadInst>(Invoke->getUnwindDest()->getFirstNonPHI())) {
      LLVM_DEBUG(dbgs() << "memcoro-split: not a landing pad behind" << *Invoke << "\n");
      continue;
    }
    LLVM_DEBUG(dbgs() << "memcoro-split: an exception from" << *Invoke << " will end the program\n");
    Plan.ThrowingCalls.push_back(Invoke);
  }
}

bool memcoro::leftOnlyByThrowingCalls(const LoopPlan &Plan, const BasicBlock *BB) {
  if (InvokeInst *Throw = throwReached(const_cast<BasicBlock *>(BB)); Throw && is_contained(Plan.ThrowingCalls, Throw))
    return true;
  return BB->isEHPad() && any_of(predecessors(BB), [&](const BasicBlock *Pred) { return Plan.L.contains(Pred); }) &&
         all_of(predecessors(BB), [&](const BasicBlock *Pred) {
           return !Plan.L.contains(Pred) || is_contained(Plan.ThrowingCalls, Pred->getTerminator());
         });
}

void memcoro::terminateThrowingCalls(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  Module &M = *A.F.getParent();
  FunctionCallee Terminate = M.getOrInsertFunction(
      "_ZSt9terminatev", FunctionType::get(Type::getVoidTy(M.getContext()), /*isVarArg=*/false));
  if (auto *Fn = dyn_cast<Function>(Terminate.getCallee())) {
    Fn->setDoesNotReturn();
    Fn->setDoesNotThrow();
  }
  for (InvokeInst *Invoke : Plan.ThrowingCalls) {
    BasicBlock *From = Invoke->getParent(), *Old = Invoke->getUnwindDest();
    auto *OldPad = cast<LandingPadInst>(Old->getFirstNonPHI());
    BasicBlock *Pad = BasicBlock::Create(M.getContext(), "memcoro.terminate", &A.F);
    IRBuilder<> B(Pad);
    B.SetCurrentDebugLocation(Invoke->getDebugLoc());
    LandingPadInst *LP = B.CreateLandingPad(OldPad->getType(), 1);
    LP->addClause(ConstantPointerNull::get(PointerType::getUnqual(M.getContext())));
    B.CreateCall(Terminate)->setDoesNotReturn();
    B.CreateUnreachable();
    Old->removePredecessor(From);
    Invoke->setUnwindDest(Pad);
    A.DT.addNewBlock(Pad, From);
    A.DT.deleteEdge(From, Old);
    ++NumTerminatingInvokes;
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "ThrowingCall", remarkLocation(Invoke, Plan.L), From)
             << "an exception from the call to " << calleeName(*Invoke)
             << " ends the program (std::terminate), as one leaving an OpenMP parallel for body does: it "
                "would leave interleaved iterations half done";
    });
  }
}
