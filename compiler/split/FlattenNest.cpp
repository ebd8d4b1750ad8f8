//===- FlattenNest.cpp - a pipeline that spans the loop around the marked one ===//
//
// A step of memcoro-split, run before a marked loop is planned for real
// (Split.cpp). A pipeline fills and drains once per execution of its loop:
// its first iterations wait for misses nothing overlaps, about one memory
// latency per execution. When the marked loop runs a small constant number
// of iterations (gups: the 128 HPCC streams) inside a loop that only re-runs
// it, that latency is paid every few iterations, where hand-written AMAC
// pipelines across the rounds. So when the marked loop would be a pipeline,
// the nest becomes one loop of N*M iterations, iteration k running the
// marked body at its iteration k mod M, and the pipeline fills once:
//
//   for (i = 0; i < N; ++i)                 for (k = 0; k < N*M; ++k) {
//     for (j = 0; j < M; ++j)       ==>       j = k % M;
//       body(j);                              body(j);
//                                           }
//
// The outer loop keeps its blocks and runs once (its latch branches out);
// the marked loop keeps its blocks and properties, with a counter k and the
// test k + 1 != N*M; nothing else changes, so the serial meaning is the
// nest's. What interleaving may do to it is what this file checks:
//
// - the outer loop only re-runs the marked one: its other blocks form a
//   chain without memory accesses or calls, define nothing the marked loop
//   reads except values the nest does not change, and nothing of the nest is
//   used after it; the marked loop has no inner loop, reductions, exits of
//   its own or code in iteration order;
// - rounds may overlap. Iteration j of round i + 1 may run a phase before
//   iteration j' of round i has run a later one. Accesses of one phase run
//   in iteration order under every scheduler, alias analysis may tell two
//   apart, and updates of one commutative kind commute. Any other pair needs
//   one access whose address does not change from round to round (it
//   depends on j and values fixed for the nest, like ran[j]): if such an
//   access B of iteration j' met access A of iteration j of another round,
//   B of round i met A of round i too, two iterations of one execution the
//   pragma says are independent. For j == j' (ran[j] read in round i + 1
//   while round i's table update of iteration j is pending) the rounds are M
//   iterations apart, and the plan keeps fewer than M iterations in flight
//   (LoopPlan::MaxInFlight; the pipeline's depth is at most N).
//
// The trip count N*M saturates at 2^64 - 1 iterations, a loop no program
// finishes either way.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split \
//       -Rpass-analysis=memcoro -S in.ll      (-memcoro-flatten-nest=false: off)
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumFlattened, "Number of pipelined loops that span the loop around them");
STATISTIC(NumNotFlattened, "Number of pipelined loops in a loop that drain at each of its iterations");

static cl::opt<bool> FlattenNest("memcoro-flatten-nest", cl::Hidden, cl::init(true),
                                 cl::desc("A pipelined loop with a constant trip count inside a loop that only "
                                          "re-runs it runs as one loop over the nest"));

static cl::opt<unsigned> FlattenMaxTrips(
    "memcoro-flatten-max-trips", cl::Hidden, cl::init(4096),
    cl::desc("The most iterations per execution for which a pipelined loop spans the loop around it: longer "
             "loops pay their fill and drain rarely enough"));

/// Marks j's position k mod M in the flattened loop, for its serial copy.
static constexpr StringLiteral WithinMD = "memcoro.flat.within";

namespace {

class NestFlattener {
public:
  NestFlattener(const SplitAnalyses &A, const LoopPlan &Dry, Loop &Outer)
      : A(A), Dry(Dry), L(Dry.L), P(Outer) {}

  /// Why the nest may not run as one loop; empty when it may.
  std::string check();
  /// Rewrites the nest; returns M.
  unsigned flatten();

private:
  bool fixedForNest(const SCEV *S) const;
  bool sameEveryRound(Value *Ptr) const;
  unsigned phase(const Instruction *I) const;
  std::string checkOuterLoop();
  std::string checkAccesses();

  const SplitAnalyses &A;
  const LoopPlan &Dry;
  Loop &L, &P;
  unsigned M = 0;
  const SCEV *OuterTrips = nullptr;
};

} // namespace

/// S depends only on values defined outside the outer loop.
bool NestFlattener::fixedForNest(const SCEV *S) const { return A.SE.isLoopInvariant(S, &P); }

/// The address \p Ptr is one function of the marked loop's iteration number
/// in every round: only the marked loop's inductions (from fixed starts, by
/// fixed steps) and values fixed for the nest, no load.
bool NestFlattener::sameEveryRound(Value *Ptr) const {
  if (!A.SE.isSCEVable(Ptr->getType()))
    return false;
  return !SCEVExprContains(A.SE.getSCEV(Ptr), [&](const SCEV *X) {
    if (auto *U = dyn_cast<SCEVUnknown>(X)) {
      auto *I = dyn_cast<Instruction>(U->getValue());
      return I && P.contains(I);
    }
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(X))
      return AR->getLoop() != &L || !AR->isAffine() || !fixedForNest(AR->getStart()) ||
             !fixedForNest(AR->getStepRecurrence(A.SE));
    return false;
  });
}

/// The phase \p I runs in: how many suspensions come before it (each
/// suspension dominates the latch, so those before it dominate it).
unsigned NestFlattener::phase(const Instruction *I) const {
  return count_if(Dry.Suspensions,
                  [&](const Suspension &S) { return S.At == I || A.DT.dominates(S.At, I); });
}

std::string NestFlattener::checkOuterLoop() {
  if (P.getSubLoops().size() != 1)
    return "the loop around it has other loops";
  BasicBlock *OuterLatch = P.getLoopLatch();
  if (!P.getLoopPreheader() || !OuterLatch || !P.getExitBlock() || P.getExitingBlock() != OuterLatch)
    return "the loop around it has several entries, latches or exits";
  OuterTrips = A.SE.getBackedgeTakenCount(&P);
  if (isa<SCEVCouldNotCompute>(OuterTrips) || !OuterTrips->getType()->isIntegerTy() ||
      OuterTrips->getType()->getIntegerBitWidth() > 64)
    return "the loop around it has no trip count";
  for (BasicBlock *BB : P.blocks()) {
    if (L.contains(BB))
      continue;
    if (BB != OuterLatch && !BB->getSingleSuccessor())
      return "the loop around it branches between the runs of this loop";
    for (Instruction &I : *BB) {
      if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects())
        return "the loop around it has other code with effects between the runs of this loop";
      for (User *U : I.users())
        if (auto *UI = cast<Instruction>(U); L.contains(UI) && (isa<PHINode>(I) || !A.SE.isSCEVable(I.getType()) ||
                                                                !fixedForNest(A.SE.getSCEV(&I))))
          return "a value the loop around it computes changes from one run of this loop to the next";
    }
  }
  for (BasicBlock *BB : P.blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (!P.contains(UI) || (L.contains(&I) && !L.contains(UI)))
          return "a value of the nest is used after this loop";
      }
  for (PHINode &Phi : L.getHeader()->phis()) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&Phi));
    if (!AR || AR->getLoop() != &L || !AR->isAffine() || !fixedForNest(AR->getStart()) ||
        !fixedForNest(AR->getStepRecurrence(A.SE)))
      return "an induction of this loop starts from a value the loop around it changes";
  }
  return "";
}

std::string NestFlattener::checkAccesses() {
  // A load or store and whether it is part of a commutative update (its kind).
  SmallVector<std::pair<Instruction *, unsigned>, 8> Accesses;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && Call->getCalledFunction() && Call->getCalledFunction()->getName() == RemoteBaseFn)
        continue;
      if (isa<DbgInfoIntrinsic>(I) || !I.mayReadOrWriteMemory())
        continue;
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
        return "its body has calls, atomics or volatile accesses";
      Accesses.push_back({&I, 0});
    }
  // Commutative updates: a store and the load of the same address it updates
  // (as SplitDependences.cpp pairs them).
  for (auto &[I, Kind] : Accesses)
    if (auto *Store = dyn_cast<StoreInst>(I))
      for (auto &[J, OtherKind] : Accesses)
        if (auto *Load = dyn_cast<LoadInst>(J);
            Load && byteDistance(Load->getPointerOperand(), Store->getPointerOperand(), A.DL) == 0 &&
            A.DT.dominates(Load, Store))
          if (unsigned K = commutativeUpdateKind(*Load, *Store)) {
            Kind = K;
            OtherKind = K;
          }
  for (unsigned X = 0; X < Accesses.size(); ++X)
    for (unsigned Y = X; Y < Accesses.size(); ++Y) {
      auto [I, KI] = Accesses[X];
      auto [J, KJ] = Accesses[Y];
      if (!isa<StoreInst>(I) && !isa<StoreInst>(J))
        continue;
      if (phase(I) == phase(J) || (KI && KI == KJ))
        continue;
      if (sameEveryRound(accessedPointer(*I)) || sameEveryRound(accessedPointer(*J)))
        continue;
      if (A.AA.isNoAlias(MemoryLocation::getBeforeOrAfter(accessedPointer(*I)),
                         MemoryLocation::getBeforeOrAfter(accessedPointer(*J))))
        continue;
      LLVM_DEBUG(dbgs() << "memcoro-split: rounds may meet at " << *I << " and " << *J << "\n");
      return "iterations of different runs of this loop may touch the same memory in different phases";
    }
  return "";
}

std::string NestFlattener::check() {
  if (Dry.Style != Dispatch::Pipeline)
    return "it is not pipelined";
  M = A.SE.getSmallConstantTripCount(&L);
  if (M < 2)
    return "its trip count is not a constant";
  if (M > FlattenMaxTrips)
    return "its executions are long enough to pay for their fill and drain";
  if (!L.getSubLoops().empty() || L.getExitingBlock() != L.getLoopLatch() || !L.getLoopPreheader())
    return "it has inner loops or several exits";
  if (!Dry.Reductions.empty() || !Dry.EarlyExits.empty() || !Dry.Ordered.empty() || Dry.ExitAtLaunch ||
      !Dry.Counters.empty() || !Dry.ExitValues.empty() || !Dry.Locked.empty() || !Dry.CallsInPlace.empty() ||
      Dry.ThroughAmu || Dry.ScavengeNs || !Dry.CarriedLoads.empty() || !Dry.Reloaded.empty() ||
      !Dry.BufferAppendStarts.empty() || Dry.BoundEvaluatedOnce)
    return "it carries values, exits or ordered code from one iteration to the next";
  std::string Why = checkOuterLoop();
  if (Why.empty())
    Why = checkAccesses();
  return Why;
}

unsigned NestFlattener::flatten() {
  BasicBlock *Header = L.getHeader(), *Latch = L.getLoopLatch(), *Preheader = L.getLoopPreheader();
  LLVMContext &Ctx = Header->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  // N*M in the outer loop's preheader, saturated.
  SCEVExpander Expander(A.SE, A.DL, "memcoro.flat");
  Instruction *OuterPh = P.getLoopPreheader()->getTerminator();
  IRBuilder<> OB(OuterPh);
  Value *Taken = OB.CreateZExt(Expander.expandCodeFor(OuterTrips, OuterTrips->getType(), OuterPh),
                               Type::getInt128Ty(Ctx));
  Value *Wide = OB.CreateMul(OB.CreateAdd(Taken, OB.getIntN(128, 1)), OB.getIntN(128, M));
  Value *Total = OB.CreateTrunc(
      OB.CreateBinaryIntrinsic(Intrinsic::umin, Wide, OB.getIntN(128, ~uint64_t(0))), I64, "memcoro.flat.trips");

  // k, and j = start + (k mod M) * step for each induction.
  IRBuilder<> HB(Header, Header->getFirstInsertionPt());
  PHINode *K = PHINode::Create(I64, 2, "memcoro.flat.k");
  K->insertBefore(Header->begin());
  Value *Within = isPowerOf2_32(M) ? HB.CreateAnd(K, M - 1) : HB.CreateURem(K, HB.getInt64(M));
  cast<Instruction>(Within)->setMetadata(WithinMD, MDNode::get(Ctx, {}));
  SmallVector<PHINode *, 2> Phis;
  for (PHINode &Phi : Header->phis())
    if (&Phi != K)
      Phis.push_back(&Phi);
  for (PHINode *Phi : Phis) {
    auto *AR = cast<SCEVAddRecExpr>(A.SE.getSCEV(Phi));
    Type *StepTy = AR->getStepRecurrence(A.SE)->getType();
    Value *Start = Expander.expandCodeFor(AR->getStart(), Phi->getType(), OuterPh);
    Value *Step = Expander.expandCodeFor(AR->getStepRecurrence(A.SE), StepTy, OuterPh);
    Value *Offset = HB.CreateMul(HB.CreateZExtOrTrunc(Within, StepTy), Step);
    Value *J = Phi->getType()->isPointerTy() ? HB.CreateGEP(HB.getInt8Ty(), Start, Offset)
                                              : HB.CreateAdd(Start, Offset);
    J->takeName(Phi);
    Phi->replaceAllUsesWith(J);
  }
  auto *LatchBr = cast<BranchInst>(Latch->getTerminator());
  IRBuilder<> LB(LatchBr);
  Value *KNext = LB.CreateAdd(K, LB.getInt64(1), "memcoro.flat.k.next");
  K->addIncoming(LB.getInt64(0), Preheader);
  K->addIncoming(KNext, Latch);
  Value *OldTest = LatchBr->getCondition();
  bool ExitOnTrue = LatchBr->getSuccessor(0) != Header;
  LatchBr->setCondition(ExitOnTrue ? LB.CreateICmpEQ(KNext, Total) : LB.CreateICmpNE(KNext, Total));
  // The old inductions only feed each other and the old test now.
  for (PHINode *Phi : Phis)
    Phi->replaceAllUsesWith(PoisonValue::get(Phi->getType()));
  for (PHINode *Phi : Phis)
    Phi->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(OldTest);

  // The outer loop runs once.
  auto *OuterBr = cast<BranchInst>(P.getLoopLatch()->getTerminator());
  OuterBr->setCondition(OuterBr->getSuccessor(0) == P.getHeader() ? ConstantInt::getFalse(Ctx)
                                                                  : ConstantInt::getTrue(Ctx));
  A.SE.forgetLoop(&P);
  return M;
}

unsigned memcoro::flattenNest(const SplitAnalyses &A, Loop &L, OptimizationRemarkEmitter &ORE,
                              function_ref<bool(LoopPlan &)> PlanDry) {
  Loop *Outer = L.getParentLoop();
  if (!FlattenNest || !Outer)
    return 0;
  // The outer loop gets a preheader and an exit of its own, as the marked one.
  prepareMarkedLoop(*Outer, A.LI, A.DT, A.SE, A.AC);
  LoopPlan Dry(L);
  if (!PlanDry(Dry))
    return 0;
  NestFlattener Flattener(A, Dry, *Outer);
  std::string Why = Flattener.check();
  if (!Why.empty()) {
    if (Dry.Style == Dispatch::Pipeline) {
      ++NumNotFlattened;
      LLVM_DEBUG(dbgs() << "memcoro-split: loop " << Dry.L.getHeader()->getName()
                        << " drains at each iteration of the loop around it: " << Why << "\n");
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "NestNotFlattened", Dry.L.getStartLoc(), Dry.L.getHeader())
               << "pipeline fills and drains at each run of this loop, not across the loop around it: " << Why;
      });
    }
    return 0;
  }
  unsigned M = Flattener.flatten();
  ++NumFlattened;
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(RemarkPass, "NestFlattened", Dry.L.getStartLoc(), Dry.L.getHeader())
           << "pipeline spans the loop around this one, which only re-runs it: its runs of "
           << ore::NV("Trips", M)
           << " iterations are one loop, filled and drained once (fewer than that many iterations in flight)";
  });
  return M;
}

/// The pipeline's last phase of iteration k runs S*d <= N steps after its
/// first, so N < M keeps iteration k + M from starting before k has ended.
/// Any other scheduler (the real plan may differ from the dry one only
/// where -memcoro-dispatch or the profile says so) resumes an iteration
/// once per round of its N slots, so k ends within S rounds, S*N launches.
void memcoro::limitInFlightForNest(LoopPlan &Plan, unsigned Trips) {
  Plan.NestTrips = Trips;
  unsigned Phases = Plan.Suspensions.size() + 1;
  Plan.MaxInFlight = std::max(1u, Plan.Style == Dispatch::Pipeline ? Trips - 1 : (Trips - 1) / Phases);
  Plan.Parallelism = std::min(Plan.Parallelism, Plan.MaxInFlight);
}

/// The serial copy runs k = lo..hi-1 as the nest did: an inner loop over j
/// from lo mod M to the end of the round or of the window, and a loop of
/// rounds around it, so that j needs no k mod M in each iteration (gups at
/// 1 MiB, where the loop runs serially: 0.83x the serial nest with it).
///
///   ph -> round: k0, w0 = k0 mod M, w.end = min(M, w0 + hi - k0)
///         header: w = phi [w0, round], [w + 1, latch]   (k mod M before)
///         latch: w + 1 != w.end ? header : round.end
///         round.end: k0 + (w.end - w0) != hi ? round : end
void memcoro::nestSerialCopy(BasicBlock *Ph, BasicBlock *Header, BasicBlock *Latch, BasicBlock *End, Value *Lo,
                             Value *Hi, unsigned Trips) {
  Instruction *Within = nullptr;
  for (Instruction &I : *Header)
    if (I.getMetadata(WithinMD))
      Within = &I;
  auto *LatchBr = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Within || !LatchBr || !LatchBr->isConditional() || LatchBr->getSuccessor(0) != Header ||
      LatchBr->getSuccessor(1) != End ||
      any_of(Header->phis(), [](PHINode &Phi) { return !Phi.getType()->isIntegerTy(64); })) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the serial copy of a flattened loop keeps k mod M\n");
    return;
  }
  Function &F = *Header->getParent();
  LLVMContext &Ctx = F.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  auto *Round = BasicBlock::Create(Ctx, "memcoro.flat.round", &F, Header);
  auto *RoundEnd = BasicBlock::Create(Ctx, "memcoro.flat.round.end", &F, End);
  Ph->getTerminator()->replaceSuccessorWith(Header, Round);

  IRBuilder<> RB(Round);
  RB.SetCurrentDebugLocation(Within->getDebugLoc());
  PHINode *K0 = RB.CreatePHI(I64, 2, "memcoro.flat.k0");
  Value *W0 = isPowerOf2_32(Trips) ? RB.CreateAnd(K0, Trips - 1) : RB.CreateURem(K0, RB.getInt64(Trips));
  Value *WEnd = RB.CreateBinaryIntrinsic(Intrinsic::umin, RB.getInt64(Trips), RB.CreateAdd(W0, RB.CreateSub(Hi, K0)),
                                         nullptr, "memcoro.flat.w.end");
  RB.CreateBr(Header);
  // The header's other phis are the flattened loop's counter k and the
  // copy's own (a flattened loop has no reductions): each round enters at k0.
  for (PHINode &Phi : Header->phis()) {
    Phi.replaceIncomingBlockWith(Ph, Round);
    Phi.setIncomingValueForBlock(Round, K0);
  }

  auto *W = PHINode::Create(I64, 2, "memcoro.flat.w");
  W->insertBefore(Header->begin());
  Within->replaceAllUsesWith(W);
  Within->eraseFromParent();
  IRBuilder<> LB(LatchBr);
  Value *WNext = LB.CreateAdd(W, LB.getInt64(1));
  W->addIncoming(W0, Round);
  W->addIncoming(WNext, Latch);
  Value *OldTest = LatchBr->getCondition();
  LatchBr->setCondition(LB.CreateICmpNE(WNext, WEnd));
  LatchBr->setSuccessor(1, RoundEnd);
  RecursivelyDeleteTriviallyDeadInstructions(OldTest);

  IRBuilder<> EB(RoundEnd);
  EB.SetCurrentDebugLocation(LatchBr->getDebugLoc());
  Value *KEnd = EB.CreateAdd(K0, EB.CreateSub(WEnd, W0), "memcoro.flat.k.end");
  EB.CreateCondBr(EB.CreateICmpNE(KEnd, Hi), Round, End);
  K0->addIncoming(Lo, Ph);
  K0->addIncoming(KEnd, RoundEnd);
}
