//===- Split.cpp - memcoro-split: marked loops become coroutines ----------===//
//
// The heart of memcoro, run at the vectorizer-start extension point, after
// the O2 simplification pipeline has made the marked loop simple (rotated,
// LCSSA, one induction variable, invariants hoisted) and before unrolling or
// vectorisation. Each iteration of the loop becomes a stackless coroutine
// whose phases are cut at the suspension points the remote-access analysis
// chose: before a long-latency access the coroutine prefetches its address,
// saves what it needs later into its slot, and yields; when the round-robin
// scheduler comes back to the slot, it restores and performs the access,
// which by then hits in the cache. The structure is CoroAMU's (Fig. 6):
//
//   before                          after (ring dispatch)
//
//   preheader                       preheader: TC = trip count, slots <- START
//       |                               |
//       v                               v
//   +-> header                      +-> sched: switch ctx[s].resume ----------+
//   |     |  ...body...             |     | START        | j = 1..S    | DEAD  |
//   |     v                         |     v              v             |       |
//   +-- latch                       |   launch:        resume.j:       |       |
//         |                         |   k < TC ? ------+ restore       |       |
//         v                         |     | yes   | no | then the      |       |
//       exit                        |     v       v    | access        |       |
//                                   |   iter.start die |   |           |       |
//                                   |   (IVs at k)  |  |   v           |       |
//                                   |     v         |  | ...body...    |       |
//                                   |   ...body...  |  | (phase j)     |       |
//                                   |     | at a suspension point:     |       |
//                                   |     | prefetch, save, resume = j |       |
//                                   |     v         v                  v       |
//                                   +-- next: s = (s + 1) mod N <--------------+
//                                         | all slots dead
//                                         v
//                                       done -> exit (reductions, IV exit values)
//
// The slot array is an alloca sized at compile time; a finished iteration's
// slot is refilled with the next iteration straight away (iter.end -> launch),
// so there is no allocation anywhere. Only values live across a suspension
// point and defined in the iteration are saved; loop invariants are not;
// reductions accumulate in place.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "Split.h"
#include "MemcoroInternal.h"
#include "RemoteAccesses.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumLoopsSplit, "Number of loops turned into coroutines");
STATISTIC(NumLoopsRejected, "Number of marked loops left serial");
STATISTIC(NumSuspensionPoints, "Number of suspension points created");
STATISTIC(NumCoalesced, "Number of remote accesses coalesced into another's suspension");
STATISTIC(NumSavedValues, "Number of values saved in coroutine slots");
STATISTIC(NumReductions, "Number of reductions updated in place");
STATISTIC(NumPrivatized, "Number of stack objects given one copy per slot");
STATISTIC(NumPreservedSaves, "Number of saves dropped because the slot still holds the value");

enum class DispatchStyle { Auto, Ring, Lockstep };
static cl::opt<DispatchStyle> ForcedDispatch(
    "memcoro-dispatch", cl::Hidden, cl::init(DispatchStyle::Auto),
    cl::desc("Dispatch style of transformed loops (lockstep only where legal)"),
    cl::values(clEnumValN(DispatchStyle::Auto, "auto", "lockstep where legal, else ring"),
               clEnumValN(DispatchStyle::Ring, "ring", "always the ring scheduler"),
               clEnumValN(DispatchStyle::Lockstep, "lockstep", "lockstep where legal")));

static cl::opt<unsigned> DefaultParallelism(
    "memcoro-default-parallelism", cl::Hidden, cl::init(32),
    cl::desc("Iterations in flight when the pragma gives no parallel(N)"));

namespace {

/// An associative, commutative update of a header phi: the iteration computes
/// its contribution from the identity, and the contribution is folded into a
/// shared accumulator when the iteration ends.
struct Reduction {
  PHINode *Phi = nullptr;
  Value *LatchValue = nullptr;
  /// Instruction::Add/Mul/And/Or/Xor/FAdd/FMul, or an Intrinsic ID for min/max.
  unsigned Opcode = 0;
  bool IsIntrinsic = false;
  Constant *Identity = nullptr;
  AllocaInst *Accumulator = nullptr;
  Instruction *ReassocSource = nullptr; ///< carries the fast-math flags of FP updates
};

/// Remote accesses sharing one suspension: the first is where the iteration
/// yields; the others' addresses are ready by then and are prefetched with it.
struct Suspension {
  Instruction *At = nullptr;
  SmallVector<Instruction *, 2> Accesses;
  /// Addresses to prefetch, each with whether it will be written.
  SmallVector<std::pair<Value *, bool>, 2> Prefetch;
  BasicBlock *Post = nullptr;   ///< the block starting at At after the split
  BasicBlock *Resume = nullptr; ///< where the scheduler resumes this suspension
};

/// How many bytes \p B lies after \p A, when both are constant offsets from
/// one base pointer.
std::optional<int64_t> byteDistance(Value *A, Value *B, const DataLayout &DL) {
  if (A == B)
    return 0;
  int64_t OffA = 0, OffB = 0;
  Value *BaseA = GetPointerBaseWithConstantOffset(A, OffA, DL);
  Value *BaseB = GetPointerBaseWithConstantOffset(B, OffB, DL);
  if (BaseA != BaseB)
    return std::nullopt;
  return OffB - OffA;
}

class LoopSplitter {
public:
  LoopSplitter(Function &F, Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
               AssumptionCache &AC, OptimizationRemarkEmitter &ORE, const RemoteAccessInfo &RAI,
               bool HasTwin)
      : F(F), L(L), LI(LI), DT(DT), SE(SE), AC(AC), ORE(ORE), RAI(RAI), HasTwin(HasTwin),
        DL(F.getParent()->getDataLayout()), Ctx(F.getContext()),
        I64(Type::getInt64Ty(Ctx)), I32(Type::getInt32Ty(Ctx)) {}

  /// Transforms the loop, or explains in a missed remark why it stays serial.
  bool run();

private:
  // Legality and planning; each returns false after emitting its remark.
  bool checkExits();
  bool checkTripCount();
  bool classifyHeaderPhis();
  bool recogniseReduction(PHINode *Phi, Reduction &R);
  bool checkCallsAndControlFlow();
  bool checkLiveOuts();
  bool checkLocalMemory();
  bool planSuspensions();
  bool makeAvailableAt(Value *V, Instruction *At, unsigned Depth);
  bool everyIterationSuspendsAlike() const;
  void dropCoveredSuspensions();
  bool suspendsBetween(Instruction *Early, Instruction *Late, const Instruction *Ignore) const;
  bool checkUpdatesNotSplit();

  // Transformation.
  void transform();
  void computeSavedValues();
  void chooseRematerialized();
  void markUnpredictableSelects();
  void repairSSA();
  void dropPreservedSaves();

  void reject(StringRef Tag, const Twine &Why, const Instruction *At = nullptr);

  Function &F;
  Loop &L;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  AssumptionCache &AC;
  OptimizationRemarkEmitter &ORE;
  const RemoteAccessInfo &RAI;
  /// Another copy of the same marked loop exists (loop versioning or
  /// unswitching made it); a copy without remote accesses is then the
  /// cache-resident special case and not worth a remark.
  bool HasTwin;
  const DataLayout &DL;
  LLVMContext &Ctx;
  Type *I64;
  Type *I32;

  unsigned Parallelism = 0;
  bool ParallelismChosen = false;
  /// Step the in-flight iterations phase by phase instead of dispatching on
  /// each slot's own resume state.
  bool Lockstep = false;
  /// Slot fields before the saved values: the resume state, in ring dispatch.
  unsigned FieldBase = 1;
  BasicBlock *Preheader = nullptr;
  BasicBlock *Header = nullptr;
  BasicBlock *Latch = nullptr;
  BasicBlock *Exit = nullptr;
  const SCEV *BackedgeTakenCount = nullptr;
  SmallVector<PHINode *, 4> Inductions;
  SmallVector<Reduction, 2> Reductions;
  /// Values used after the loop that are affine in it: their exit value.
  SmallVector<std::pair<PHINode *, const SCEV *>, 2> ExitValues;
  SmallVector<Suspension, 4> Suspensions;
  /// Stack objects private to an iteration (declared in the loop body; LLVM
  /// hoisted them to the function entry): each slot gets its own copy.
  SmallVector<AllocaInst *, 2> PrivateAllocas;
  /// Set by recogniseReduction when only FP reassociation stands in the way.
  Instruction *FloatingPointOrderMatters = nullptr;

  // Built by transform().
  BasicBlock *IterStart = nullptr;
  BasicBlock *IterEnd = nullptr;
  /// Saved values, in slot-field order, and the suspensions each crosses.
  SetVector<Instruction *> Saved;
  /// Saved values that are stored in the slot (one field each), and those
  /// recomputed on resume from other saved values instead.
  SmallVector<Instruction *, 8> Stored;
  SmallPtrSet<Instruction *, 8> Rematerialized;
  /// The blocks of one iteration, from iter.start to iter.end.
  SmallPtrSet<BasicBlock *, 32> Region;
  SmallVector<BasicBlock *, 32> RegionOrder;
  DenseMap<Instruction *, SmallVector<unsigned, 2>> SavedAt;
  StructType *SlotTy = nullptr;
  AllocaInst *Slots = nullptr;
  AllocaInst *SlotIndex = nullptr;
  DenseMap<std::pair<Instruction *, unsigned>, Instruction *> Restored;
  /// Instructions inside the loop's inner loops: redefined within an iteration.
  SmallPtrSet<Instruction *, 32> InInnerLoop;
  /// The stores that save a value at a suspension, with the slot field.
  SmallVector<std::pair<StoreInst *, unsigned>, 16> SaveStores;
};

void LoopSplitter::reject(StringRef Tag, const Twine &Why, const Instruction *At) {
  ++NumLoopsRejected;
  std::string Text = Why.str();
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " in " << F.getName()
                    << " left serial: " << Text << "\n");
  DebugLoc Loc = At && At->getDebugLoc() ? At->getDebugLoc() : DebugLoc(L.getStartLoc());
  ORE.emit([&] {
    return OptimizationRemarkMissed(RemarkPass, Tag, Loc, L.getHeader())
           << "marked loop left serial: " << Text;
  });
}

bool LoopSplitter::checkExits() {
  Preheader = L.getLoopPreheader();
  Header = L.getHeader();
  Latch = L.getLoopLatch();
  Exit = L.getExitBlock();
  if (!Preheader || !Latch || !L.hasDedicatedExits()) {
    reject("NotSimplified", "the loop is not in a form memcoro can handle (no preheader or single latch)");
    return false;
  }
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting)
    if (BB != Latch) {
      reject("EarlyExit", "the loop has an early exit (break, return or goto out of the loop)",
             BB->getTerminator());
      return false;
    }
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (Exiting.size() != 1 || !Exit || !Br || !Br->isConditional()) {
    reject("NotSimplified", "the loop's exit is not a single test at the end of the body");
    return false;
  }
  return true;
}

bool LoopSplitter::checkTripCount() {
  BackedgeTakenCount = SE.getBackedgeTakenCount(&L);
  SCEVExpander Probe(SE, DL, "memcoro");
  if (isa<SCEVCouldNotCompute>(BackedgeTakenCount) || !Probe.isSafeToExpand(BackedgeTakenCount) ||
      SE.getTypeSizeInBits(BackedgeTakenCount->getType()) > 64) {
    reject("UnknownTripCount",
           "the number of iterations cannot be computed before the loop starts (the exit test "
           "depends on values computed in the loop)",
           Latch->getTerminator());
    return false;
  }
  return true;
}

bool LoopSplitter::recogniseReduction(PHINode *Phi, Reduction &R) {
  // The closure of the phi's users inside the loop must be a tree of one
  // associative, commutative operation (plus phis and selects that only move
  // partial results around), so that starting from the identity yields this
  // iteration's contribution.
  SmallVector<Instruction *, 8> Work = {Phi};
  SmallPtrSet<Instruction *, 16> Closure = {Phi};
  std::optional<unsigned> Kind;
  bool KindIsIntrinsic = false;
  auto inClosure = [&](Value *V) { auto *I = dyn_cast<Instruction>(V); return I && Closure.contains(I); };

  while (!Work.empty()) {
    Instruction *Cur = Work.pop_back_val();
    for (User *U : Cur->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI)) {
        if (Cur != Phi->getIncomingValueForBlock(Latch))
          return false; // an intermediate sum escapes the loop
        continue;
      }
      if (Closure.insert(UI).second)
        Work.push_back(UI);
    }
  }
  for (Instruction *I : Closure) {
    if (I == Phi)
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!all_of(P->incoming_values(), inClosure))
        return false;
      continue;
    }
    if (auto *S = dyn_cast<SelectInst>(I)) {
      if (inClosure(S->getCondition()) || !inClosure(S->getTrueValue()) || !inClosure(S->getFalseValue()))
        return false;
      continue;
    }
    unsigned Op = 0;
    bool IsIntr = false;
    unsigned ClosureOperands = 0;
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      Op = BO->getOpcode();
      if (Op == Instruction::Sub) {
        // sum - x is sum + (-x): only the minuend may be the running value.
        if (inClosure(BO->getOperand(1)))
          return false;
        Op = Instruction::Add;
      }
      if (Op != Instruction::Add && Op != Instruction::Mul && Op != Instruction::And &&
          Op != Instruction::Or && Op != Instruction::Xor && Op != Instruction::FAdd &&
          Op != Instruction::FMul)
        return false;
      if ((Op == Instruction::FAdd || Op == Instruction::FMul) && !BO->hasAllowReassoc()) {
        FloatingPointOrderMatters = BO;
        return false;
      }
      if (Op == Instruction::FAdd || Op == Instruction::FMul)
        R.ReassocSource = BO;
      ClosureOperands = inClosure(BO->getOperand(0)) + inClosure(BO->getOperand(1));
    } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        Op = II->getIntrinsicID();
        IsIntr = true;
        ClosureOperands = inClosure(II->getArgOperand(0)) + inClosure(II->getArgOperand(1));
        break;
      default:
        return false;
      }
    } else {
      return false;
    }
    if (ClosureOperands != 1 || (Kind && (*Kind != Op || KindIsIntrinsic != IsIntr)))
      return false;
    Kind = Op;
    KindIsIntrinsic = IsIntr;
  }
  if (!Kind)
    return false;

  Type *Ty = Phi->getType();
  R.Phi = Phi;
  R.LatchValue = Phi->getIncomingValueForBlock(Latch);
  R.Opcode = *Kind;
  R.IsIntrinsic = KindIsIntrinsic;
  if (KindIsIntrinsic) {
    unsigned Bits = Ty->getIntegerBitWidth();
    switch (*Kind) {
    case Intrinsic::smin: R.Identity = ConstantInt::get(Ctx, APInt::getSignedMaxValue(Bits)); break;
    case Intrinsic::smax: R.Identity = ConstantInt::get(Ctx, APInt::getSignedMinValue(Bits)); break;
    case Intrinsic::umin: R.Identity = ConstantInt::get(Ctx, APInt::getMaxValue(Bits)); break;
    default: R.Identity = ConstantInt::get(Ctx, APInt::getMinValue(Bits)); break;
    }
  } else {
    switch (*Kind) {
    case Instruction::Mul: R.Identity = ConstantInt::get(Ty, 1); break;
    case Instruction::And: R.Identity = Constant::getAllOnesValue(Ty); break;
    case Instruction::FAdd: R.Identity = ConstantFP::getNegativeZero(Ty); break;
    case Instruction::FMul: R.Identity = ConstantFP::get(Ty, 1.0); break;
    default: R.Identity = Constant::getNullValue(Ty); break;
    }
  }
  return true;
}

bool LoopSplitter::classifyHeaderPhis() {
  for (PHINode &Phi : Header->phis()) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
        AR && AR->getLoop() == &L && AR->isAffine()) {
      SCEVExpander Probe(SE, DL, "memcoro");
      if (Probe.isSafeToExpand(AR->getStart()) && Probe.isSafeToExpand(AR->getStepRecurrence(SE))) {
        Inductions.push_back(&Phi);
        continue;
      }
    }
    Reduction R;
    FloatingPointOrderMatters = nullptr;
    if (recogniseReduction(&Phi, R)) {
      Reductions.push_back(R);
      continue;
    }
    auto *Update = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Latch));
    if (FloatingPointOrderMatters) {
      reject("FPReduction",
             "floating-point reduction whose result depends on the order of the additions; "
             "allow reassociation (-ffast-math or -fassociative-math) to interleave it",
             FloatingPointOrderMatters);
      return false;
    }
    reject("LoopCarried",
           "a value is carried from one iteration to the next and is not a reduction memcoro "
           "recognises (integer + - * & | ^ min max, or floating-point + * with reassociation)",
           Update);
    return false;
  }
  return true;
}

bool LoopSplitter::checkCallsAndControlFlow() {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (I.isVolatile()) {
        reject("Volatile", "the loop has a volatile access, whose order memcoro must not change", &I);
        return false;
      }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (isa<InvokeInst>(CB) || isa<CallBrInst>(CB)) {
        reject("Call", "the loop contains a call that may throw an exception", CB);
        return false;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isAssumeLikeIntrinsic() || II->getIntrinsicID() == Intrinsic::prefetch ||
            isa<MemIntrinsic>(II))
          continue;
      if (Function *Callee = CB->getCalledFunction(); Callee && Callee->getName() == RemoteBaseFn)
        continue;
      if (CB->mayReadOrWriteMemory()) {
        Function *Callee = CB->getCalledFunction();
        std::string Name = Callee ? ("'" + Callee->getName() + "'").str() : "through a pointer";
        reject("Call", "call to " + Name + " may access memory and could not be inlined", CB);
        return false;
      }
    }
  // Only cycles through the loop's own blocks matter: another marked loop's
  // state machine elsewhere in the function is irreducible by construction.
  CycleInfo Cycles;
  Cycles.compute(F);
  SmallVector<const Cycle *, 8> Work(Cycles.toplevel_cycles());
  while (!Work.empty()) {
    const Cycle *C = Work.pop_back_val();
    if (!C->isReducible() && any_of(C->blocks(), [&](BasicBlock *BB) { return L.contains(BB); })) {
      reject("Irreducible", "the loop has irreducible control flow (a goto into the middle of a cycle)",
             C->getHeader()->getTerminator());
      return false;
    }
    append_range(Work, C->children());
  }
  return true;
}

bool LoopSplitter::checkLiveOuts() {
  SmallPtrSet<Value *, 4> ReductionResults;
  for (Reduction &R : Reductions)
    ReductionResults.insert(R.LatchValue);
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Latch);
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || ReductionResults.contains(V))
      continue;
    const SCEV *AtExit = SE.getSCEVAtScope(SE.getSCEV(V), L.getParentLoop());
    SCEVExpander Probe(SE, DL, "memcoro");
    if (isa<SCEVCouldNotCompute>(AtExit) || !SE.isLoopInvariant(AtExit, &L) || !Probe.isSafeToExpand(AtExit)) {
      reject("LiveOut", "a value computed in the loop is used after it and is not a reduction", I);
      return false;
    }
    ExitValues.push_back({&Phi, AtExit});
  }
  return true;
}

/// A local array or struct declared in the loop body is private to each
/// iteration in C, but LLVM allocates it once in the function's entry block
/// (lifetime markers in the loop say where it lives). Interleaved iterations
/// would share it, so each slot gets its own copy. A stack object declared
/// outside the loop and written in it is shared by all iterations: the loop
/// stays serial. One that the loop only reads is shared safely.
bool LoopSplitter::checkLocalMemory() {
  for (Instruction &I : instructions(F)) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A)
      continue;
    bool UsedInLoop = false, UsedOutside = false, StartsInLoop = false, WrittenInLoop = false;
    Instruction *FirstInLoop = nullptr;
    SmallVector<Instruction *, 8> Work = {A};
    SmallPtrSet<Instruction *, 16> Seen;
    while (!Work.empty()) {
      Instruction *Ptr = Work.pop_back_val();
      for (User *U : Ptr->users()) {
        auto *UI = cast<Instruction>(U);
        if (!Seen.insert(UI).second)
          continue;
        bool InLoop = L.contains(UI);
        UsedInLoop |= InLoop;
        if (InLoop && !FirstInLoop)
          FirstInLoop = UI;
        // Address arithmetic LICM hoisted out of the loop (&f[1]) is no use
        // of the object by itself; its users decide.
        if (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI) || isa<PHINode>(UI) || isa<SelectInst>(UI)) {
          if (!InLoop && !isa<GetElementPtrInst>(UI) && !isa<CastInst>(UI))
            UsedOutside = true;
          Work.push_back(UI);
          continue;
        }
        UsedOutside |= !InLoop;
        if (auto *II = dyn_cast<IntrinsicInst>(UI); II && II->isLifetimeStartOrEnd()) {
          StartsInLoop |= InLoop && II->getIntrinsicID() == Intrinsic::lifetime_start;
          continue;
        }
        if (auto *Load = dyn_cast<LoadInst>(UI); Load && Load->getPointerOperand() == Ptr)
          continue;
        // A store through it, a memset/memcpy into it, an atomic, or the
        // address escaping: all count as writing it.
        if (auto *Mem = dyn_cast<MemTransferInst>(UI); Mem && Mem->getSource() == Ptr && Mem->getDest() != Ptr)
          continue;
        WrittenInLoop |= InLoop;
      }
    }
    if (!UsedInLoop)
      continue;
    if (L.contains(A) || !A->isStaticAlloca()) {
      reject("LocalMemory", "the loop allocates stack memory of a size known only at run time", A);
      return false;
    }
    if (StartsInLoop && !UsedOutside) {
      PrivateAllocas.push_back(A);
      continue;
    }
    if (WrittenInLoop) {
      reject("LocalMemory",
             "a local variable or array declared outside the loop is written in it, so interleaved "
             "iterations would share it; declare it inside the loop body",
             FirstInLoop);
      return false;
    }
  }
  return true;
}

/// Hoists the pure address computation \p V above \p At when its operands
/// allow, so that several accesses can be prefetched at one suspension.
bool LoopSplitter::makeAvailableAt(Value *V, Instruction *At, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return true;
  if (Depth == 0 || I->getParent() != At->getParent() || isa<PHINode>(I) ||
      !(isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!makeAvailableAt(Op, At, Depth - 1))
      return false;
  I->moveBefore(At);
  return true;
}

bool LoopSplitter::planSuspensions() {
  const auto *Remote = RAI.lookup(&L);
  if (!Remote || Remote->empty()) {
    if (HasTwin) {
      LLVM_DEBUG(dbgs() << "memcoro-split: a copy of a marked loop without remote accesses stays serial\n");
      return false;
    }
    reject("NoSuspension",
           "no access in the loop looks long-latency: name the far data in remote(...), type it "
           "__remote, or index it through a loaded value");
    return false;
  }
  SmallPtrSet<Instruction *, 16> IsRemote;
  for (const RemoteAccess &A : *Remote)
    IsRemote.insert(A.Access);

  for (BasicBlock *BB : L.getBlocksVector()) {
    Suspension *Open = nullptr;
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (!IsRemote.contains(&I))
        continue;
      Value *Ptr = accessedPointer(I);
      bool Write = !isa<LoadInst>(&I);
      if (Open && makeAvailableAt(Ptr, Open->At, 6)) {
        ++NumCoalesced;
        Open->Accesses.push_back(&I);
        auto Same = find_if(Open->Prefetch, [&](auto &P) { return P.first == Ptr; });
        if (Same == Open->Prefetch.end())
          Open->Prefetch.push_back({Ptr, Write});
        else
          Same->second |= Write;
        continue;
      }
      Suspensions.emplace_back();
      Open = &Suspensions.back();
      Open->At = &I;
      Open->Accesses.push_back(&I);
      Open->Prefetch.push_back({Ptr, Write});
    }
  }
  dropCoveredSuspensions();
  return true;
}

/// Whether the iteration may yield after \p Early and before \p Late (which
/// \p Early dominates): a suspension point other than \p Ignore lies in
/// between, on a path through the innermost loop holding both that does not
/// go round that loop's back edge.
bool LoopSplitter::suspendsBetween(Instruction *Early, Instruction *Late, const Instruction *Ignore) const {
  auto yieldsAt = [&](const Instruction *I) {
    return I != Ignore && any_of(Suspensions, [&](const Suspension &S) { return S.At == I; });
  };
  auto yieldsIn = [&](Instruction *First, Instruction *Last) {
    for (Instruction *I = First; I; I = I == Last ? nullptr : I->getNextNode())
      if (yieldsAt(I))
        return true;
    return false;
  };
  BasicBlock *From = Early->getParent(), *To = Late->getParent();
  if (From == To)
    return Early != Late && yieldsIn(Early->getNextNode(), Late);
  if (yieldsIn(Early->getNextNode(), nullptr) || yieldsIn(&To->front(), Late))
    return true;
  Loop *Around = LI.getLoopFor(From);
  while (!Around->contains(To))
    Around = Around->getParentLoop();
  auto walk = [&](BasicBlock *Start, bool Forward) {
    SmallPtrSet<BasicBlock *, 16> Seen;
    SmallVector<BasicBlock *, 8> Work = {Start};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second || (BB != Start && (BB == From || BB == To)))
        continue;
      if (Forward) {
        for (BasicBlock *Succ : successors(BB))
          if (Around->contains(Succ) && Succ != Around->getHeader())
            Work.push_back(Succ);
      } else if (BB != Around->getHeader()) {
        for (BasicBlock *Pred : predecessors(BB))
          if (Around->contains(Pred))
            Work.push_back(Pred);
      }
    }
    return Seen;
  };
  SmallPtrSet<BasicBlock *, 16> After = walk(From, true), Before = walk(To, false);
  for (BasicBlock *BB : After)
    if (BB != From && BB != To && Before.contains(BB) && yieldsIn(&BB->front(), nullptr))
      return true;
  return false;
}

/// A load and a later store of the same location with a suspension in
/// between (t[k] += v split by another access's yield, or two increments that
/// GVN and DSE merged across a dependent load) would let another iteration
/// update the location in between, losing its update. Serial loops never do
/// that, so such a loop stays serial. The paper's lock table (III-E) would
/// make the update atomic instead.
bool LoopSplitter::checkUpdatesNotSplit() {
  auto sameLocation = [&](Value *A, Value *B) { return byteDistance(A, B, DL) == 0; };
  SmallVector<Instruction *, 16> Loads, Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<LoadInst>(&I))
        Loads.push_back(&I);
      else if (isa<StoreInst>(&I) || isa<AtomicRMWInst>(&I) || isa<AtomicCmpXchgInst>(&I))
        Stores.push_back(&I);
    }
  for (Instruction *Store : Stores)
    for (Instruction *Load : Loads)
      if (sameLocation(accessedPointer(*Load), accessedPointer(*Store)) && DT.dominates(Load, Store) &&
          suspendsBetween(Load, Store, nullptr)) {
        reject("SplitUpdate",
               "a read-modify-write of one memory location would be split by a suspension point, so "
               "another iteration could update the location in between",
               Store);
        return false;
      }
  return true;
}

/// A suspension whose accesses all touch a line that an earlier access of the
/// same phase already brought in (the conditional store of `if (u < p[v])
/// p[v] = u`, or e->next after e->key) must not yield: the line is there, and yielding between
/// the read and the write would let another iteration update the location
/// in between, which the serial loop never does.
void LoopSplitter::dropCoveredSuspensions() {
  // Fields of one record (e->key, then e->next in the latch): same base, and
  // offsets less than a cache line apart.
  auto sameLine = [&](Value *A, Value *B) {
    std::optional<int64_t> Distance = byteDistance(A, B, DL);
    return Distance && std::abs(*Distance) < 64;
  };
  auto coveredBy = [&](Instruction *Late, Instruction *Early, const Instruction *Deciding) {
    return sameLine(accessedPointer(*Late), accessedPointer(*Early)) && DT.dominates(Early, Late) &&
           LI.getLoopFor(Early->getParent()) == LI.getLoopFor(Late->getParent()) &&
           !suspendsBetween(Early, Late, Deciding);
  };
  SmallVector<Instruction *, 16> AllAccesses;
  for (Suspension &S : Suspensions)
    append_range(AllAccesses, S.Accesses);
  // Dropping one suspension removes a yield that may have stood between
  // another pair, so repeat until nothing changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Suspensions.begin(); It != Suspensions.end(); ++It) {
      bool Covered = all_of(It->Accesses, [&](Instruction *A) {
        return any_of(AllAccesses, [&](Instruction *E) { return E != A && coveredBy(A, E, It->At); });
      });
      if (!Covered)
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *It->At
                        << ": its line was fetched earlier in the same phase\n");
      ++NumCoalesced;
      Suspensions.erase(It);
      Changed = true;
      break;
    }
  }
}

/// Lockstep needs every iteration to meet the same suspension points in the
/// same order: each one outside the loop's inner loops and on every path
/// through the body (its block dominates the latch; there are no early exits).
bool LoopSplitter::everyIterationSuspendsAlike() const {
  return all_of(Suspensions, [&](const Suspension &S) {
    BasicBlock *BB = S.At->getParent();
    return LI.getLoopFor(BB) == &L && DT.dominates(BB, Latch);
  });
}

bool LoopSplitter::run() {
  auto Marked = getMarkedParallelism(L);
  assert(Marked && "memcoro-split runs only on marked loops");
  ParallelismChosen = *Marked == 0;
  Parallelism = ParallelismChosen ? DefaultParallelism.getValue() : *Marked;
  Parallelism = std::max(1u, Parallelism);
  PrettyStackTraceFormat StackEntry("memcoro-split: transforming the marked loop '%s' in '%s'",
                                    L.getHeader()->getName().str().c_str(), F.getName().str().c_str());

  if (!checkExits() || !checkTripCount() || !classifyHeaderPhis() || !checkCallsAndControlFlow() ||
      !checkLocalMemory() || !checkLiveOuts() || !planSuspensions() || !checkUpdatesNotSplit())
    return false;
  Lockstep = ForcedDispatch != DispatchStyle::Ring && everyIterationSuspendsAlike();
  FieldBase = Lockstep ? 0 : 1;
  transform();
  unsigned ContextBytes = DL.getTypeAllocSize(SlotTy);
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Header->getName() << " in " << F.getName() << ": "
                    << Suspensions.size() << " suspension points, " << Saved.size()
                    << " saved values, " << ContextBytes << " bytes per slot, N = " << Parallelism << "\n");
  ORE.emit([&] {
    OptimizationRemark R(RemarkPass, "Transformed", L.getStartLoc(), Header);
    R << "loop turned into " << ore::NV("Parallelism", Parallelism) << " interleaved coroutines"
      << (ParallelismChosen ? " (parallelism chosen by memcoro)" : "") << ": "
      << ore::NV("SuspendPoints", unsigned(Suspensions.size())) << " suspension point"
      << (Suspensions.size() == 1 ? "" : "s") << ", " << ore::NV("Dispatch", Lockstep ? "lockstep" : "ring")
      << " dispatch, " << ore::NV("ContextBytes", ContextBytes) << " bytes of context per slot";
    return R;
  });
  return true;
}

} // namespace

namespace {

void LoopSplitter::transform() {
  const unsigned N = Parallelism;
  const unsigned Dead = Suspensions.size() + 1;
  DebugLoc Loc = L.getStartLoc();
  for (CallInst *Marker : getRemoteBaseCalls(L))
    Marker->eraseFromParent();

  // Everything SCEV knows is expanded in the preheader, before the loop's
  // shape changes under it: trip count, induction starts and steps, exit values.
  SCEVExpander Exp(SE, DL, "memcoro");
  Instruction *PreTerm = Preheader->getTerminator();
  Value *BTC = Exp.expandCodeFor(BackedgeTakenCount, BackedgeTakenCount->getType(), PreTerm);
  IRBuilder<> PB(PreTerm);
  Value *TripCount = PB.CreateAdd(PB.CreateZExtOrTrunc(BTC, I64), ConstantInt::get(I64, 1), "memcoro.trips");
  struct InductionPlan {
    PHINode *Phi;
    Value *Start;
    Value *Step;
  };
  SmallVector<InductionPlan, 2> IVPlans;
  for (PHINode *Phi : Inductions) {
    auto *AR = cast<SCEVAddRecExpr>(SE.getSCEV(Phi));
    const SCEV *Step = AR->getStepRecurrence(SE);
    IVPlans.push_back({Phi, Exp.expandCodeFor(AR->getStart(), Phi->getType(), PreTerm),
                       Exp.expandCodeFor(Step, Step->getType(), PreTerm)});
  }
  SmallVector<std::pair<PHINode *, Value *>, 2> ExitValueCode;
  for (auto &[Phi, AtExit] : ExitValues)
    ExitValueCode.push_back({Phi, Exp.expandCodeFor(AtExit, Phi->getType(), PreTerm)});

  // Scheduler state lives in allocas that are promoted to registers at the end.
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  // Ring: the next iteration to launch and the slots still working.
  // Lockstep: the first iteration of the group, its size, and its phase.
  AllocaInst *NextIter = EB.CreateAlloca(I64, nullptr, Lockstep ? "memcoro.group.base" : "memcoro.next.iter");
  AllocaInst *LiveSlots = EB.CreateAlloca(I64, nullptr, Lockstep ? "memcoro.group.size" : "memcoro.live");
  AllocaInst *Phase = Lockstep ? EB.CreateAlloca(I32, nullptr, "memcoro.phase") : nullptr;
  SlotIndex = EB.CreateAlloca(I64, nullptr, "memcoro.slot");
  for (Reduction &R : Reductions)
    R.Accumulator = EB.CreateAlloca(R.Phi->getType(), nullptr, R.Phi->getName() + ".memcoro.acc");

  auto *Sched = BasicBlock::Create(Ctx, "memcoro.sched", &F, Header);
  auto *Launch = BasicBlock::Create(Ctx, "memcoro.launch", &F, Header);
  IterStart = BasicBlock::Create(Ctx, "memcoro.iter.start", &F, Header);
  auto *Die = Lockstep ? nullptr : BasicBlock::Create(Ctx, "memcoro.retire", &F, Header);
  IterEnd = BasicBlock::Create(Ctx, "memcoro.iter.end", &F, Exit);
  auto *Next = BasicBlock::Create(Ctx, "memcoro.next", &F, Exit);
  auto *Done = BasicBlock::Create(Ctx, "memcoro.done", &F, Exit);

  PB.CreateStore(ConstantInt::get(I64, 0), NextIter);
  if (Lockstep) {
    PB.CreateStore(PB.CreateBinaryIntrinsic(Intrinsic::umin, TripCount, ConstantInt::get(I64, N)), LiveSlots);
    PB.CreateStore(ConstantInt::get(I32, 0), Phase);
  } else {
    PB.CreateStore(ConstantInt::get(I64, N), LiveSlots);
  }
  PB.CreateStore(ConstantInt::get(I64, 0), SlotIndex);
  for (Reduction &R : Reductions)
    PB.CreateStore(R.Phi->getIncomingValueForBlock(Preheader), R.Accumulator);

  // launch: the slot takes the next iteration, or retires when there is none.
  IRBuilder<> LB(Launch);
  LB.SetCurrentDebugLocation(Loc);
  Value *K;
  if (Lockstep) {
    K = LB.CreateAdd(LB.CreateLoad(I64, NextIter), LB.CreateLoad(I64, SlotIndex), "memcoro.k");
    LB.CreateBr(IterStart);
  } else {
    K = LB.CreateLoad(I64, NextIter, "memcoro.k");
    LB.CreateCondBr(LB.CreateICmpULT(K, TripCount), IterStart, Die);
  }

  // iter.start: the induction variables at iteration k; reductions start
  // from their identity so that the body computes this iteration's part.
  IRBuilder<> IB(IterStart);
  IB.SetCurrentDebugLocation(Loc);
  if (!Lockstep)
    IB.CreateStore(IB.CreateAdd(K, ConstantInt::get(I64, 1)), NextIter);
  for (InductionPlan &IV : IVPlans) {
    Value *KK = IB.CreateZExtOrTrunc(K, IV.Step->getType());
    Value *Offset = IB.CreateMul(KK, IV.Step);
    Value *At = IV.Phi->getType()->isPointerTy()
                    ? IB.CreateGEP(IB.getInt8Ty(), IV.Start, Offset, IV.Phi->getName() + ".at.k")
                    : IB.CreateAdd(IV.Start, Offset, IV.Phi->getName() + ".at.k");
    IV.Phi->replaceAllUsesWith(At);
  }
  for (Reduction &R : Reductions)
    R.Phi->replaceAllUsesWith(R.Identity);
  // Each slot's own copy of the iteration's stack objects, padded so that
  // every copy keeps the original's alignment.
  for (AllocaInst *A : PrivateAllocas) {
    uint64_t Bytes = *A->getAllocationSize(DL);
    uint64_t Stride = alignTo(std::max<uint64_t>(Bytes, 1), A->getAlign());
    auto *Copies = new AllocaInst(ArrayType::get(IB.getInt8Ty(), Stride * N), DL.getAllocaAddrSpace(),
                                  nullptr, A->getAlign(), A->getName() + ".memcoro.private",
                                  F.getEntryBlock().getFirstInsertionPt());
    Value *Own = IB.CreateInBoundsGEP(IB.getInt8Ty(), Copies,
                                      IB.CreateMul(IB.CreateLoad(I64, SlotIndex), ConstantInt::get(I64, Stride)),
                                      A->getName() + ".own");
    // Lifetime markers must name an alloca; the copies live as long as the loop.
    SmallVector<Instruction *, 4> Markers;
    for (User *U : A->users())
      if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
        Markers.push_back(II);
    for (Instruction *Marker : Markers)
      Marker->eraseFromParent();
    // Address arithmetic hoisted out of the loop moves back in, after Own,
    // operands first.
    SmallVector<Instruction *, 8> Hoisted;
    SmallVector<Instruction *, 8> Work = {A};
    while (!Work.empty())
      for (User *U : Work.pop_back_val()->users())
        if (auto *UI = dyn_cast<Instruction>(U);
            UI && !L.contains(UI) && (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI)) && !is_contained(Hoisted, UI)) {
          Hoisted.push_back(UI);
          Work.push_back(UI);
        }
    A->replaceAllUsesWith(Own);
    A->eraseFromParent();
    for (Instruction *H : Hoisted) {
      H->removeFromParent();
      IB.Insert(H);
    }
    ++NumPrivatized;
  }
  IB.CreateBr(Header);
  while (auto *Phi = dyn_cast<PHINode>(&Header->front()))
    Phi->eraseFromParent();
  PreTerm->eraseFromParent();
  BranchInst::Create(Sched, Preheader);

  // The latch no longer loops: the iteration ends, folds its reductions into
  // the accumulators, and its slot takes the next iteration at once.
  auto *LatchBr = cast<BranchInst>(Latch->getTerminator());
  Value *ExitTest = LatchBr->getCondition();
  LatchBr->eraseFromParent();
  BranchInst::Create(IterEnd, Latch);
  // The exit test and the induction updates feeding it are dead now; left in
  // place they would look live across suspensions and be saved for nothing.
  RecursivelyDeleteTriviallyDeadInstructions(ExitTest);
  IRBuilder<> XB(IterEnd);
  XB.SetCurrentDebugLocation(Loc);
  for (Reduction &R : Reductions) {
    Value *Acc = XB.CreateLoad(R.Accumulator->getAllocatedType(), R.Accumulator);
    Value *Folded;
    if (R.IsIntrinsic)
      Folded = XB.CreateBinaryIntrinsic(R.Opcode, Acc, R.LatchValue);
    else
      Folded = XB.CreateBinOp(static_cast<Instruction::BinaryOps>(R.Opcode), Acc, R.LatchValue);
    if (auto *FP = dyn_cast<Instruction>(Folded); FP && R.ReassocSource)
      FP->copyFastMathFlags(R.ReassocSource);
    XB.CreateStore(Folded, R.Accumulator);
    ++NumReductions;
  }
  // Ring: the slot takes the next iteration at once. Lockstep: the group's
  // next slot runs its last phase.
  XB.CreateBr(Lockstep ? Next : Launch);

  // done: reductions and induction exit values flow to the loop's users.
  IRBuilder<> DB(Done);
  DB.SetCurrentDebugLocation(Loc);
  for (PHINode &Phi : Exit->phis()) {
    int Idx = Phi.getBasicBlockIndex(Latch);
    Value *Out = Phi.getIncomingValue(Idx);
    for (Reduction &R : Reductions)
      if (Out == R.LatchValue)
        Out = DB.CreateLoad(R.Accumulator->getAllocatedType(), R.Accumulator, "memcoro.reduced");
    for (auto &[ExitPhi, Code] : ExitValueCode)
      if (ExitPhi == &Phi)
        Out = Code;
    Phi.setIncomingBlock(Idx, Done);
    Phi.setIncomingValue(Idx, Out);
  }
  DB.CreateBr(Exit);

  // A value defined outside the loop's inner loops has one instance per
  // iteration; recorded now, while LoopInfo still describes these blocks.
  for (BasicBlock *BB : L.blocks())
    if (LI.getLoopFor(BB) != &L)
      for (Instruction &I : *BB)
        InInnerLoop.insert(&I);

  // Cut each block at its suspension point; the halves stay joined until
  // liveness is known.
  for (Suspension &S : Suspensions) {
    ORE.emit([&] {
      OptimizationRemarkAnalysis R(RemarkPass, "SuspensionPoint", S.At);
      R << "suspension point: " << (isa<LoadInst>(S.At) ? "load" : "store or atomic update")
        << " prefetched, then resumed after " << ore::NV("Interleaved", Parallelism - 1) << " other iterations";
      if (S.Accesses.size() > 1)
        R << " (" << ore::NV("Coalesced", unsigned(S.Accesses.size() - 1)) << " more accesses share it)";
      return R;
    });
    S.Post = SplitBlock(S.At->getParent(), S.At);
  }
  computeSavedValues();
  chooseRematerialized();
  markUnpredictableSelects();

  SmallVector<Type *, 8> Fields;
  if (!Lockstep)
    Fields.push_back(I32);
  for (Instruction *V : Stored)
    Fields.push_back(V->getType());
  SlotTy = StructType::create(Ctx, Fields, "memcoro.slot");
  auto *SlotArrayTy = ArrayType::get(SlotTy, N);
  Slots = new AllocaInst(SlotArrayTy, DL.getAllocaAddrSpace(), "memcoro.slots",
                         F.getEntryBlock().getFirstInsertionPt());
  auto fieldPtr = [&](IRBuilder<> &B, Value *Slot, unsigned Field) {
    return B.CreateInBoundsGEP(SlotArrayTy, Slots, {ConstantInt::get(I64, 0), Slot, ConstantInt::get(I32, Field)});
  };
  // Every ring slot starts in state 0: launch an iteration.
  if (!Lockstep) {
    IRBuilder<> PB2(Preheader->getTerminator());
    PB2.CreateMemSet(Slots, PB2.getInt8(0), DL.getTypeAllocSize(SlotArrayTy), Slots->getAlign());
  }

  // sched: one switch on the slot's resume state (the static FIFO scheduler).
  IRBuilder<> HB(Sched);
  HB.SetCurrentDebugLocation(Loc);
  Value *S = HB.CreateLoad(I64, SlotIndex, "memcoro.s");
  // The same phase for a whole lockstep group: the switch predicts perfectly.
  Value *State = Lockstep ? HB.CreateLoad(I32, Phase, "memcoro.state")
                          : HB.CreateLoad(I32, fieldPtr(HB, S, 0), "memcoro.state");
  SwitchInst *Dispatch = HB.CreateSwitch(State, Next, Suspensions.size() + 1);
  Dispatch->addCase(ConstantInt::get(cast<IntegerType>(I32), 0), Launch);

  if (Die) {
    IRBuilder<> RB(Die);
    RB.SetCurrentDebugLocation(Loc);
    Value *DS = RB.CreateLoad(I64, SlotIndex);
    RB.CreateStore(ConstantInt::get(I32, Dead), fieldPtr(RB, DS, 0));
    RB.CreateStore(RB.CreateSub(RB.CreateLoad(I64, LiveSlots), ConstantInt::get(I64, 1)), LiveSlots);
    RB.CreateBr(Next);
  }

  Function *Prefetch = Intrinsic::getDeclaration(F.getParent(), Intrinsic::prefetch,
                                                 {PointerType::get(Ctx, 0)});
  for (unsigned J = 0; J < Suspensions.size(); ++J) {
    Suspension &Sp = Suspensions[J];
    BasicBlock *Pre = Sp.Post->getSinglePredecessor();
    assert(Pre && "a split block has its other half as only predecessor");
    Pre->getTerminator()->eraseFromParent();
    IRBuilder<> YB(Pre);
    YB.SetCurrentDebugLocation(Sp.At->getDebugLoc());
    for (auto &[Ptr, Write] : Sp.Prefetch)
      YB.CreateCall(Prefetch, {YB.CreateAddrSpaceCast(Ptr, PointerType::get(Ctx, 0)),
                               YB.getInt32(Write), YB.getInt32(3), YB.getInt32(1)});
    Value *YS = YB.CreateLoad(I64, SlotIndex);
    for (unsigned Field = 0; Field < Stored.size(); ++Field)
      if (is_contained(SavedAt[Stored[Field]], J) && InInnerLoop.contains(Stored[Field]))
        SaveStores.push_back({YB.CreateStore(Stored[Field], fieldPtr(YB, YS, Field + FieldBase)), Field});
    if (!Lockstep)
      YB.CreateStore(ConstantInt::get(I32, J + 1), fieldPtr(YB, YS, 0));
    YB.CreateBr(Next);

    Sp.Resume = BasicBlock::Create(Ctx, "memcoro.resume." + Twine(J + 1), &F, Sp.Post);
    IRBuilder<> QB(Sp.Resume);
    QB.SetCurrentDebugLocation(Sp.At->getDebugLoc());
    Value *QS = QB.CreateLoad(I64, SlotIndex);
    for (unsigned Field = 0; Field < Stored.size(); ++Field)
      if (is_contained(SavedAt[Stored[Field]], J))
        Restored[{Stored[Field], J}] =
            QB.CreateLoad(Stored[Field]->getType(), fieldPtr(QB, QS, Field + FieldBase), Stored[Field]->getName() + ".restored");
    // Cheap values are recomputed from the restored ones, operands first.
    std::function<Instruction *(Instruction *)> remat = [&](Instruction *V) -> Instruction * {
      auto Known = Restored.find({V, J});
      if (Known != Restored.end())
        return Known->second;
      Instruction *Copy = V->clone();
      for (Use &Op : Copy->operands())
        if (auto *OpI = dyn_cast<Instruction>(Op.get()); OpI && Saved.contains(OpI))
          Op.set(remat(OpI));
      QB.Insert(Copy, V->getName() + ".remat");
      return Restored[{V, J}] = Copy;
    };
    for (Instruction *V : Saved)
      if (Rematerialized.contains(V) && is_contained(SavedAt[V], J))
        remat(V);
    QB.CreateBr(Sp.Post);
    Dispatch->addCase(ConstantInt::get(cast<IntegerType>(I32), J + 1), Sp.Resume);
  }

  // A value with one instance per iteration is stored once, where it is
  // defined: every later suspension would store the same value again.
  for (unsigned Field = 0; Field < Stored.size(); ++Field) {
    Instruction *V = Stored[Field];
    if (InInnerLoop.contains(V))
      continue;
    IRBuilder<> VB(V->getParent(), isa<PHINode>(V) ? V->getParent()->getFirstInsertionPt()
                                                   : std::next(V->getIterator()));
    VB.SetCurrentDebugLocation(V->getDebugLoc());
    VB.CreateStore(V, fieldPtr(VB, VB.CreateLoad(I64, SlotIndex), Field + FieldBase));
  }

  IRBuilder<> NB(Next);
  NB.SetCurrentDebugLocation(Loc);
  Value *NS = NB.CreateAdd(NB.CreateLoad(I64, SlotIndex), ConstantInt::get(I64, 1));
  if (Lockstep) {
    // next: the group's next slot in this phase; then the next phase from
    // slot 0; after the last phase, the next group of N iterations.
    auto *NextPhase = BasicBlock::Create(Ctx, "memcoro.next.phase", &F, Done);
    auto *NextGroup = BasicBlock::Create(Ctx, "memcoro.next.group", &F, Done);
    NB.CreateStore(NS, SlotIndex);
    NB.CreateCondBr(NB.CreateICmpULT(NS, NB.CreateLoad(I64, LiveSlots)), Sched, NextPhase);
    IRBuilder<> PhB(NextPhase);
    PhB.SetCurrentDebugLocation(Loc);
    PhB.CreateStore(ConstantInt::get(I64, 0), SlotIndex);
    Value *NextP = PhB.CreateAdd(PhB.CreateLoad(I32, Phase), ConstantInt::get(I32, 1));
    PhB.CreateStore(NextP, Phase);
    PhB.CreateCondBr(PhB.CreateICmpULE(NextP, ConstantInt::get(I32, Suspensions.size())), Sched, NextGroup);
    IRBuilder<> GB(NextGroup);
    GB.SetCurrentDebugLocation(Loc);
    GB.CreateStore(ConstantInt::get(I32, 0), Phase);
    Value *Base = GB.CreateAdd(GB.CreateLoad(I64, NextIter), GB.CreateLoad(I64, LiveSlots));
    GB.CreateStore(Base, NextIter);
    GB.CreateStore(GB.CreateBinaryIntrinsic(Intrinsic::umin, GB.CreateSub(TripCount, Base),
                                            ConstantInt::get(I64, N)),
                   LiveSlots);
    GB.CreateCondBr(GB.CreateICmpULT(Base, TripCount), Sched, Done);
  } else {
    // next: round robin over the slots until every slot has retired.
    Value *Wrapped = isPowerOf2_32(N) ? NB.CreateAnd(NS, ConstantInt::get(I64, N - 1))
                                      : NB.CreateSelect(NB.CreateICmpEQ(NS, ConstantInt::get(I64, N)),
                                                        ConstantInt::get(I64, 0), NS);
    NB.CreateStore(Wrapped, SlotIndex);
    NB.CreateCondBr(NB.CreateICmpEQ(NB.CreateLoad(I64, LiveSlots), ConstantInt::get(I64, 0)), Done, Sched);
  }

  repairSSA();
  dropPreservedSaves();

  DominatorTree FreshDT(F);
  SmallVector<AllocaInst *, 8> Scalars = {NextIter, LiveSlots, SlotIndex};
  if (Phase)
    Scalars.push_back(Phase);
  for (Reduction &R : Reductions)
    Scalars.push_back(R.Accumulator);
  PromoteMemToReg(Scalars, FreshDT, &AC);

  NumSuspensionPoints += Suspensions.size();
  NumSavedValues += Saved.size();
  ++NumLoopsSplit;
}

/// A value is saved at suspension j when it is defined in the iteration and
/// live into the block the suspension resumes in.
void LoopSplitter::computeSavedValues() {
  // The iteration's blocks: from iter.start up to iter.end, not beyond.
  SmallVector<BasicBlock *, 32> Work = {IterStart};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Region.insert(BB).second)
      continue;
    RegionOrder.push_back(BB);
    if (BB == IterEnd)
      continue;
    append_range(Work, successors(BB));
  }
  DenseMap<BasicBlock *, unsigned> PostIndex;
  for (unsigned J = 0; J < Suspensions.size(); ++J)
    PostIndex[Suspensions[J].Post] = J;

  for (BasicBlock *BB : RegionOrder)
    for (Instruction &I : *BB) {
      if (I.getType()->isVoidTy() || I.use_empty())
        continue;
      BasicBlock *DefBB = I.getParent();
      SmallPtrSet<BasicBlock *, 16> LiveIn;
      SmallVector<BasicBlock *, 16> Up;
      for (Use &U : I.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock *UseBB = User->getParent();
        if (auto *Phi = dyn_cast<PHINode>(User)) {
          BasicBlock *In = Phi->getIncomingBlock(U);
          if (In != DefBB && Region.contains(In) && LiveIn.insert(In).second)
            Up.push_back(In);
        } else if (UseBB != DefBB && Region.contains(UseBB) && LiveIn.insert(UseBB).second) {
          Up.push_back(UseBB);
        }
      }
      while (!Up.empty()) {
        BasicBlock *BB2 = Up.pop_back_val();
        for (BasicBlock *Pred : predecessors(BB2))
          if (Pred != DefBB && Region.contains(Pred) && LiveIn.insert(Pred).second)
            Up.push_back(Pred);
      }
      for (BasicBlock *Live : LiveIn)
        if (auto It = PostIndex.find(Live); It != PostIndex.end()) {
          Saved.insert(&I);
          SavedAt[&I].push_back(It->second);
        }
    }
}

/// A saved address or index that is a pure function of other saved values
/// (&base[half] from base and half, half from len) costs a store at every
/// suspension and a load at every resume; recomputing it on resume costs an
/// instruction or two. The value must be computable at every suspension it
/// crosses, so each in-iteration operand must itself be saved there.
void LoopSplitter::chooseRematerialized() {
  for (Instruction *V : Saved)
    if ((isa<GetElementPtrInst>(V) || isa<CastInst>(V) || isa<BinaryOperator>(V) || isa<CmpInst>(V)) &&
        !V->mayHaveSideEffects())
      Rematerialized.insert(V);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction *V : make_early_inc_range(Rematerialized)) {
      bool Computable = all_of(V->operands(), [&](Value *Op) {
        auto *OpI = dyn_cast<Instruction>(Op);
        if (!OpI || !Region.contains(OpI->getParent()))
          return true; // loop invariant: used in place
        return Saved.contains(OpI) && all_of(SavedAt[V], [&](unsigned J) {
                 return is_contained(SavedAt[OpI], J);
               });
      });
      if (!Computable) {
        Rematerialized.erase(V);
        Changed = true;
      }
    }
  }
  for (Instruction *V : Saved)
    if (!Rematerialized.contains(V))
      Stored.push_back(V);
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Rematerialized.size() << " of " << Saved.size()
                    << " values live across suspensions are recomputed on resume, not saved\n");
}

/// The serial loop's select on a far value (binary search: base[half] < key ?
/// base + half : base) is compiled to a cmov; inside the state machine, x86's
/// cmov conversion may turn it into a branch that mispredicts half the time.
/// A comparison of data fetched from far memory is as unpredictable as the
/// data, so say so.
void LoopSplitter::markUnpredictableSelects() {
  SmallPtrSet<Value *, 16> FarLoads;
  if (const auto *Remote = RAI.lookup(&L))
    for (const RemoteAccess &A : *Remote)
      if (isa<LoadInst>(A.Access))
        FarLoads.insert(A.Access);
  std::function<bool(Value *, unsigned)> dependsOnFar = [&](Value *V, unsigned Depth) {
    if (FarLoads.contains(V))
      return true;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth == 0 || isa<PHINode>(I) || isa<LoadInst>(I) || !Region.contains(I->getParent()))
      return false;
    return any_of(I->operands(), [&](Value *Op) { return dependsOnFar(Op, Depth - 1); });
  };
  for (BasicBlock *BB : RegionOrder)
    for (Instruction &I : *BB)
      if (auto *Sel = dyn_cast<SelectInst>(&I); Sel && dependsOnFar(Sel->getCondition(), 4))
        Sel->setMetadata(LLVMContext::MD_unpredictable, MDNode::get(Ctx, {}));
}

/// Each saved value now has several definitions: the original, and one
/// reload per suspension it crosses. SSAUpdater rebuilds the phis.
void LoopSplitter::repairSSA() {
  for (Instruction *V : Saved) {
    SSAUpdater Updater;
    Updater.Initialize(V->getType(), V->getName());
    Updater.AddAvailableValue(V->getParent(), V);
    for (unsigned J : SavedAt[V])
      Updater.AddAvailableValue(Suspensions[J].Resume, Restored[{V, J}]);
    SmallVector<Use *, 8> Uses;
    for (Use &U : V->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      BasicBlock *At = isa<PHINode>(User) ? cast<PHINode>(User)->getIncomingBlock(U) : User->getParent();
      if (At != V->getParent())
        Uses.push_back(&U);
    }
    for (Use *U : Uses)
      Updater.RewriteUse(*U);
  }
}

/// A slot is reused across suspensions, so a value that comes straight from
/// the slot's own field (restored at the last resume and not redefined since)
/// is already there: storing it again is wasted work on every switch. This is
/// the preserved-value analysis of continuation reuse (the .NET seed); values
/// with one instance per iteration were already stored once at their
/// definition, so a binary search saves its key once, not at every step.
void LoopSplitter::dropPreservedSaves() {
  DenseMap<Value *, unsigned> FieldOfRestored;
  for (unsigned Field = 0; Field < Stored.size(); ++Field)
    for (unsigned J : SavedAt[Stored[Field]])
      FieldOfRestored[Restored[{Stored[Field], J}]] = Field;
  unsigned Dropped = 0;
  for (auto &[Store, Field] : SaveStores) {
    auto It = FieldOfRestored.find(Store->getValueOperand());
    if (It != FieldOfRestored.end() && It->second == Field) {
      Store->eraseFromParent();
      ++Dropped;
    }
  }
  NumPreservedSaves += Dropped;
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Dropped << " of " << SaveStores.size()
                    << " saves dropped, their value is still in the slot\n");
}

} // namespace

PreservedAnalyses SplitPass::run(Function &F, FunctionAnalysisManager &FAM) {
  bool Changed = false;
  // Each transformation invalidates the loop analyses, so take one marked
  // loop at a time and recompute.
  while (true) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    Loop *Target = nullptr;
    DenseMap<Metadata *, unsigned> CopiesOfId;
    for (Loop *L : LI.getLoopsInPreorder())
      if (getMarkedParallelism(*L)) {
        if (!Target)
          Target = L;
        if (const MDOperand *Id = findStringMetadataForLoop(L, LoopIdMD).value_or(nullptr))
          ++CopiesOfId[Id->get()];
      }
    if (!Target)
      break;
    const MDOperand *TargetId = findStringMetadataForLoop(Target, LoopIdMD).value_or(nullptr);
    bool HasTwin = TargetId && CopiesOfId[TargetId->get()] > 1;

    // Whatever happens next, the loop reached memcoro-split.
    Module &M = *F.getParent();
    if (const MDOperand *Id = findStringMetadataForLoop(Target, LoopIdMD).value_or(nullptr))
      M.getOrInsertNamedMetadata(SeenLoopsMD)->addOperand(MDNode::get(F.getContext(), {Id->get()}));

    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    // Function passes since the loop pipeline may have undone loop-simplify
    // form (SimplifyCFG folds preheaders away); restore it, as LoopVectorize does.
    bool Reshaped = simplifyLoop(Target, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
    Reshaped |= formLCSSARecursively(*Target, DT, &LI, &SE);
    if (Reshaped)
      SE.forgetLoop(Target);
    auto &RAI = FAM.getResult<RemoteAccessAnalysis>(F);
    // A marked loop inside this one stops being a loop once this one is a
    // state machine (it is entered from the scheduler mid-body).
    SmallVector<Loop *, 2> MarkedInside;
    for (Loop *Sub : Target->getLoopsInPreorder())
      if (Sub != Target && getMarkedParallelism(*Sub))
        MarkedInside.push_back(Sub);
    SmallVector<std::pair<Metadata *, DebugLoc>, 2> Nested;
    for (Loop *Sub : MarkedInside)
      if (const MDOperand *Id = findStringMetadataForLoop(Sub, LoopIdMD).value_or(nullptr))
        Nested.push_back({Id->get(), Sub->getStartLoc()});
    BasicBlock *Anchor = Target->getHeader();
    LoopSplitter Splitter(F, *Target, LI, DT, SE, AC, ORE, RAI, HasTwin);
    if (Splitter.run()) {
      for (auto &[Id, Loc] : Nested) {
        M.getOrInsertNamedMetadata(SeenLoopsMD)->addOperand(MDNode::get(F.getContext(), {Id}));
        ORE.emit([&] {
          return OptimizationRemarkMissed(RemarkPass, "NestedMarked", Loc, Anchor)
                 << "marked loop not interleaved on its own: it is inside another marked loop, whose "
                    "iterations memcoro interleaves instead (nested interleaving is not supported)";
        });
      }
    } else {
      // Left serial: drop the markers so that the loop optimises as usual.
      for (CallInst *Marker : getRemoteBaseCalls(*Target))
        Marker->eraseFromParent();
      Target->setLoopID(makePostTransformationMetadata(F.getContext(), Target->getLoopID(),
                                                       {"memcoro.", "llvm.loop.unroll.disable"}, {}));
    }
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
