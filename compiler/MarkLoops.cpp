//===- MarkLoops.cpp - memcoro-mark: pragma markers to loop metadata ------===//
//
// The first of memcoro's passes, run at the pipeline-start extension point,
// before any optimisation has moved code around. The pragma plugin leaves
//
//   call @llvm.annotation(ptrtoint p, "memcoro.remote")   ; one per remote() name
//   call @llvm.annotation(N, "memcoro.loop")             ; then this one
//
// at the top of the marked loop's body. This pass finds the innermost loop
// around each "memcoro.loop" marker and records on it, in !llvm.loop:
//   !{"memcoro.parallel", i32 N}   the requested parallelism (0: memcoro picks)
//   !{"memcoro.id", i32 K}         so the end of the pipeline can tell whether
//                                  the loop survived to memcoro-split
//   !{"llvm.loop.unroll.disable"}  unrolling would multiply the suspension
//                                  points before memcoro-split sees the loop
// and each scalar variable declared in its body is set to zero where its
// lifetime starts, where it is uninitialised (BodyLocals.cpp), so that it
// carries nothing from one iteration to the next.
// Each remote() marker becomes `call @__memcoro_remote_base(ptr p)`, which
// keeps the base visible to the remote-access analysis without costing the
// optimiser anything. Each `#pragma memcoro ordered` marker,
//
//   call @llvm.annotation(0, "memcoro.ordered")          ; where the region starts
//
// becomes `call @__memcoro_ordered()`, a call that may touch any memory, so
// that the optimiser moves none of the region's accesses above it; memcoro-
// split makes it the point where an iteration waits for its turn (under
// `#pragma omp ordered`, before the __kmpc_ordered call that opens the
// region). The annotations are removed.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-mark -S in.ll
//
//===----------------------------------------------------------------------===//
#include "BodyLocals.h"
#include "MarkLoops.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-mark"

STATISTIC(NumLoopsMarked, "Number of loops marked by #pragma memcoro");
STATISTIC(NumOrderedRegions, "Number of #pragma memcoro ordered regions marked");
STATISTIC(NumMarkersOrphaned, "Number of memcoro markers not inside any loop");

namespace {

/// The string an llvm.annotation call carries, or "" for another call.
StringRef annotationText(const IntrinsicInst &II) {
  if (II.getIntrinsicID() != Intrinsic::annotation)
    return "";
  auto *GV = dyn_cast<GlobalVariable>(II.getArgOperand(1)->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return "";
  auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer());
  return Data && Data->isCString() ? Data->getAsCString() : "";
}

/// The source text of a remote() operand, for remarks: the name the plugin
/// put after the marker string, else the IR name when the front end kept it.
std::string baseName(const IntrinsicInst &Marker, const Value *Base) {
  StringRef Text = annotationText(Marker);
  if (Text.size() > RemoteAnnotation.size() + 1)
    return Text.drop_front(RemoteAnnotation.size() + 1).str();
  if (Base->hasName())
    return Base->getName().str();
  if (const auto *Load = dyn_cast<LoadInst>(Base))
    if (Load->getPointerOperand()->hasName())
      return Load->getPointerOperand()->getName().str();
  return "?";
}

class LoopMarker {
public:
  LoopMarker(Function &F, LoopInfo &LI, OptimizationRemarkEmitter &ORE)
      : F(F), LI(LI), ORE(ORE) {}

  bool run() {
    SmallVector<IntrinsicInst *, 8> LoopMarkers, RemoteMarkers, OrderedMarkers;
    for (Instruction &I : instructions(F))
      if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        StringRef Text = annotationText(*II);
        if (Text == LoopAnnotation || Text.starts_with((LoopAnnotation + " ").str()))
          LoopMarkers.push_back(II);
        else if (Text == OrderedAnnotation)
          OrderedMarkers.push_back(II);
        else if (Text == RemoteAnnotation || Text.starts_with(RemoteAnnotation.str() + " "))
          RemoteMarkers.push_back(II);
      }
    if (LoopMarkers.empty() && RemoteMarkers.empty() && OrderedMarkers.empty())
      return false;

    // The plugin only accepts `ordered` inside a marked loop; whether that
    // loop is interleaved, and how the region keeps its order, is
    // memcoro-split's decision.
    for (IntrinsicInst *Marker : OrderedMarkers) {
      // Under `#pragma omp ordered` the region's statement follows libomp's
      // wait for the chunk's turn: that call runs in iteration order too, so
      // that __kmpc_ordered and __kmpc_end_ordered pair up one iteration at
      // a time, as in the serial chunk.
      Instruction *At = Marker;
      if (auto *Call = dyn_cast_or_null<CallInst>(Marker->getPrevNode());
          Call && Call->getCalledFunction() && Call->getCalledFunction()->getName() == "__kmpc_ordered")
        At = Call;
      IRBuilder<> B(At);
      B.CreateCall(getOrInsertOrderedFn(*F.getParent()))->setDebugLoc(Marker->getDebugLoc());
      ++NumOrderedRegions;
      LLVM_DEBUG(dbgs() << "memcoro-mark: ordered region in " << F.getName() << "\n");
      eraseMarker(*Marker);
    }

    for (IntrinsicInst *Marker : LoopMarkers)
      markLoop(*Marker, RemoteMarkers);
    // A remote() marker always precedes its loop marker in the same block, so
    // markLoop has consumed them all; anything left was orphaned by a loop
    // marker that found no loop, and carries no information of its own.
    for (IntrinsicInst *Marker : RemoteMarkers)
      if (Marker)
        eraseMarker(*Marker);
    return true;
  }

private:
  void markLoop(IntrinsicInst &Marker, SmallVectorImpl<IntrinsicInst *> &RemoteMarkers) {
    Loop *L = LI.getLoopFor(Marker.getParent());
    if (!L) {
      ++NumMarkersOrphaned;
      LLVM_DEBUG(dbgs() << "memcoro-mark: marker outside any loop in " << F.getName() << "\n");
      ORE.emit([&] {
        return OptimizationRemarkMissed(RemarkPass, "NoLoop", Marker.getDebugLoc(), Marker.getParent())
               << "#pragma memcoro: the marked statement is not a loop in the generated code";
      });
      eraseMarker(Marker);
      return;
    }

    auto *NConst = dyn_cast<ConstantInt>(Marker.getArgOperand(0));
    // The plugin checks N on the AST; a non-constant here means the IR did not
    // come from it, so say so rather than guess a parallelism.
    if (!NConst) {
      F.getContext().diagnose(DiagnosticInfoUnsupported(
          F, "#pragma memcoro: parallel(N) is not a constant in the IR", Marker.getDebugLoc()));
      eraseMarker(Marker);
      return;
    }
    unsigned N = NConst->getZExtValue();

    // The remote() markers of this loop are those before it in its block.
    SmallVector<std::string, 4> Names;
    Function *BaseFn = nullptr;
    for (IntrinsicInst *&RM : RemoteMarkers) {
      if (!RM || RM->getParent() != Marker.getParent() || !RM->comesBefore(&Marker))
        continue;
      Value *Base = RM->getArgOperand(0);
      if (auto *P2I = dyn_cast<PtrToIntInst>(Base))
        Base = P2I->getPointerOperand();
      if (Base->getType()->isPointerTy()) {
        if (!BaseFn)
          BaseFn = getOrInsertRemoteBaseFn(*F.getParent());
        IRBuilder<> B(RM);
        Value *Generic = B.CreateAddrSpaceCast(Base, BaseFn->getArg(0)->getType());
        B.CreateCall(BaseFn, {Generic})->setDebugLoc(RM->getDebugLoc());
      }
      Names.push_back(baseName(*RM, Base));
      eraseMarker(*RM);
      RM = nullptr;
    }

    unsigned Id = NextLoopId();
    LLVMContext &Ctx = F.getContext();
    auto *I32 = Type::getInt32Ty(Ctx);
    SmallVector<MDNode *, 4> Props = {
        MDNode::get(Ctx, {MDString::get(Ctx, ParallelMD), ConstantAsMetadata::get(ConstantInt::get(I32, N))}),
        MDNode::get(Ctx, {MDString::get(Ctx, LoopIdMD), ConstantAsMetadata::get(ConstantInt::get(I32, Id))})};
    // The user's own unroll pragma wins; then the loop may not survive to
    // memcoro-split, and the end of the pipeline says so.
    if (!findOptionMDForLoop(L, "llvm.loop.unroll.full") && !findOptionMDForLoop(L, "llvm.loop.unroll.count") &&
        !findOptionMDForLoop(L, "llvm.loop.unroll.enable"))
      Props.push_back(MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.unroll.disable")}));
    if (!Names.empty())
      Props.push_back(MDNode::get(Ctx, {MDString::get(Ctx, RemoteNamesMD),
                                        MDString::get(Ctx, join(Names, ", "))}));
    // An OpenMP reduction clause on the loop permits reassociating these
    // floating-point reductions, whatever the file's fast-math flags.
    StringRef Ops = annotationText(Marker).drop_front(LoopAnnotation.size());
    bool Insist = Ops.consume_back(InsistSuffix);
    if (Ops.consume_front(ReassocSuffix))
      Props.push_back(MDNode::get(Ctx, {MDString::get(Ctx, ReassocMD), MDString::get(Ctx, Ops)}));
    if (copiesMemoryIntoOuterLocal(*L))
      Props.push_back(MDNode::get(Ctx, {MDString::get(Ctx, CopiesMemoryMD)}));
    // The user wants every remote access to be a suspension point.
    if (Insist)
      Props.push_back(MDNode::get(Ctx, {MDString::get(Ctx, InsistMD)}));
    // The pragma's own location gives the remarks a place when the loop
    // metadata carries none (no -g and no -Rpass).
    if (DILocation *Loc = Marker.getDebugLoc())
      Props.insert(Props.begin(), Loc);
    MDNode *NewID = makePostTransformationMetadata(Ctx, L->getLoopID(), {}, Props);
    L->setLoopID(NewID);
    restartBodyLocals(*L);

    // Its interleaved loop is no callee another unit should resume
    // (ResumableCallees.cpp).
    F.addFnAttr(MarkedFnAttr);
    NamedMDNode *Marked = F.getParent()->getOrInsertNamedMetadata(MarkedLoopsMD);
    Marked->addOperand(MDNode::get(
        Ctx, {ConstantAsMetadata::get(ConstantInt::get(I32, Id)),
              Marker.getDebugLoc() ? static_cast<Metadata *>(Marker.getDebugLoc().get())
                                   : MDString::get(Ctx, F.getName())}));

    ++NumLoopsMarked;
    LLVM_DEBUG(dbgs() << "memcoro-mark: loop " << Id << " at " << L->getHeader()->getName()
                      << " in " << F.getName() << ": parallel " << N << ", "
                      << Names.size() << " remote bases\n");
    ORE.emit([&] {
      OptimizationRemark R(RemarkPass, "Marked", Marker.getDebugLoc(), L->getHeader());
      R << "loop marked for coroutine interleaving: ";
      if (N)
        R << "parallel(" << ore::NV("Parallelism", N) << ")";
      else
        R << "parallelism chosen by memcoro";
      if (!Names.empty())
        R << ", remote(" << ore::NV("Remote", join(Names, ", ")) << ")";
      return R;
    });
    eraseMarker(Marker);
  }

  /// Module-wide ids: count what memcoro.marked already lists.
  unsigned NextLoopId() {
    NamedMDNode *Marked = F.getParent()->getNamedMetadata(MarkedLoopsMD);
    return Marked ? Marked->getNumOperands() + 1 : 1;
  }

  static void eraseMarker(IntrinsicInst &Marker) {
    // The pointer operand of a remote marker is a ptrtoint made for it alone.
    Instruction *Operand = dyn_cast<Instruction>(Marker.getArgOperand(0));
    Marker.replaceAllUsesWith(Marker.getArgOperand(0));
    Marker.eraseFromParent();
    if (Operand && Operand->use_empty() && isa<PtrToIntInst>(Operand))
      Operand->eraseFromParent();
  }

  Function &F;
  LoopInfo &LI;
  OptimizationRemarkEmitter &ORE;
};

} // namespace

PreservedAnalyses MarkLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  if (!LoopMarker(F, LI, ORE).run())
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  PA.preserve<LoopAnalysis>();
  return PA;
}
