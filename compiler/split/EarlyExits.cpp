//===- EarlyExits.cpp - search loops: the first exiting iteration wins -----===//
//
// A part of memcoro-split (see SplitInternal.h): loops with a `break`, a
// `return` or a goto out of the body besides the exit test at the end (a
// search for the first match, a hash probe returning its first hit). Legality
// asks recogniseEarlyExits, the planner planEarlyExits, the lowering an
// EarlyExitCodeGen.
//
// Interleaved, iterations after the one that exits have already started when
// it exits. They must leave no visible effect, so a loop with an early exit
// may not write memory at all (stores before the exit would have to run in
// iteration order; such a loop stays serial with a remark). What is left is
// registers:
//
//   exiting block --> memcoro.exit.E --+
//   latch ----------------------------+--> memcoro.iter.ending: how, values
//                                      |     it carries out, reduction parts;
//                                      |     an exit of an iteration k below
//                                      |     the lowest so far records k, its
//                                      |     values, and limits launches to k+1
//                                      v
//                                   iter.end: folds its reductions only when
//                                      k is below the lowest exit
//   done: an exit recorded ? memcoro.exit.dispatch -> the winner's exit, its
//         values (a reduction's: the accumulator with the winner's part)
//       : the loop's own exit
//
// Iterations before the winner all end (they may exit earlier still: the
// lowest wins) and fold their parts. None after it may fold one: lockstep and
// the pipeline end iterations in iteration order when every exit lies in the
// last phase; the ring then ends them in turn (SplitOrdered.cpp's turn) when
// the loop has reductions, and otherwise needs no order at all. Launches stop
// at the limit: every use of the trip count (the scheduler's, the adaptation
// windows') reads it.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumEarlyExitLoops, "Number of interleaved loops with early exits");
STATISTIC(NumEarlyExitsInTurn, "Number of early-exit loops whose ring ends iterations in turn");

/// Writes nothing another iteration, or the code after the loop, could see.
static bool leavesNoTrace(const Instruction &I) {
  if (!I.mayWriteToMemory())
    return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isAssumeLikeIntrinsic() || II->isLifetimeStartOrEnd() || II->getIntrinsicID() == Intrinsic::prefetch;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    const Function *Callee = CB->getCalledFunction();
    return CB->doesNotReturn() || (Callee && Callee->getName() == RemoteBaseFn);
  }
  return false;
}

std::optional<SerialReason> memcoro::recogniseEarlyExits(const SplitAnalyses &A, LoopPlan &Plan,
                                                         ArrayRef<BasicBlock *> Exiting) {
  Loop &L = Plan.L;
  // Where the user wrote each exit: the test that leaves.
  std::string Places;
  for (BasicBlock *BB : Exiting) {
    if (!BB->getTerminator()->getDebugLoc())
      continue;
    std::string At = sourcePlace(*BB->getTerminator());
    if (Places.find(At) == std::string::npos)
      Places += (Places.empty() ? " at " : ", ") + At;
  }
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (!leavesNoTrace(I)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: early exit, and the loop writes memory:" << I << "\n");
        return SerialReason{"EarlyExit",
                            "the loop has an early exit (break, return or goto out of the loop" + Places +
                                ") and writes memory at " + sourcePlace(I) +
                                ": interleaved, iterations after the exiting one could store before the exit is "
                                "known; a loop that only reads memory interleaves with an early exit",
                            &I};
      }
  for (BasicBlock *BB : Exiting)
    for (BasicBlock *Succ : successors(BB))
      if (!L.contains(Succ) && !blockEndsProgram(Succ) && !is_contained(Plan.EarlyExits, std::make_pair(BB, Succ)))
        Plan.EarlyExits.push_back({BB, Succ});
  return std::nullopt;
}

bool memcoro::takenOnlyFromEarlyExits(const LoopPlan &Plan, const PHINode &Phi, const Value *V) {
  bool Any = false;
  for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I) {
    if (Phi.getIncomingValue(I) != V)
      continue;
    BasicBlock *From = Phi.getIncomingBlock(I);
    if (none_of(Plan.EarlyExits, [&](const auto &E) { return E.first == From && E.second == Phi.getParent(); }))
      return false;
    Any = true;
  }
  return Any;
}

void memcoro::planEarlyExits(const SplitAnalyses &A, LoopPlan &Plan) {
  auto runOn = [&](Dispatch Style, const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: " << dispatchName(Style) << " dispatch: " << Why << "\n");
    Plan.ExitsChangedDispatch = ("runs with " + dispatchName(Style) + " dispatch instead of " +
                                 dispatchName(Plan.Style) + ": " + Why)
                                    .str();
    Plan.Style = Style;
  };
  if (Plan.EarlyExits.empty() && !Plan.ExitAtLaunch)
    return;
  // The completion-order AMU schedulers end iterations in any order.
  if (Plan.Style == Dispatch::AmuGetfin || Plan.Style == Dispatch::AmuBafin)
    runOn(Dispatch::Ring, "the schedulers that resume iterations in completion order have no turn for them to "
                          "end in, which an exit needs");
  // Launches decide one by one whether the next iteration exists, which
  // lockstep and the pipeline decide for a group at once.
  if (Plan.ExitAtLaunch && Plan.Style != Dispatch::Ring)
    runOn(Dispatch::Ring, "its exit test decides at each launch whether the next iteration exists, which "
                          "lockstep decides for a group at once");
  if (Plan.EarlyExits.empty())
    return;
  ++NumEarlyExitLoops;
  // The pipeline's stages test each iteration against the trip count, which
  // an exit lowers under an iteration in flight; lockstep steps the same
  // phases in groups.
  if (Plan.Style == Dispatch::Pipeline)
    runOn(Dispatch::Lockstep, "an early exit lowers the launch limit under iterations the pipeline's stages "
                              "have in flight");
  if (Plan.Style == Dispatch::Lockstep) {
    // An iteration that left before the last phase would be resumed again
    // with its group.
    bool InLastPhase = all_of(Plan.EarlyExits, [&](const auto &E) {
      return all_of(Plan.Suspensions,
                    [&](const Suspension &Sp) { return A.DT.dominates(Sp.At, E.first->getTerminator()); });
    });
    if (!InLastPhase)
      runOn(Dispatch::Ring, "an early exit before the last suspension point would leave its slot to be "
                            "resumed with its group");
  }
  if (Plan.Style == Dispatch::Ring && !Plan.Reductions.empty()) {
    LLVM_DEBUG(dbgs() << "memcoro-split: early exits with reductions: iterations end in turn\n");
    ++NumEarlyExitsInTurn;
    Plan.WaitsForTurn = true;
  }
}

EarlyExitCodeGen::~EarlyExitCodeGen() = default;

namespace {

class EarlyExits final : public EarlyExitCodeGen {
public:
  EarlyExits(const SplitAnalyses &A, const LoopPlan &Plan);
  void initState(IRBuilder<> &Entry, IRBuilder<> &Preheader, Value *TripCount) override;
  void startIteration(IRBuilder<> &B, Value *K) override {
    if (Plan.ExitAtLaunch)
      emitExitAtLaunch(Plan, B, K, Cursors, Limit);
  }
  void joinExits(Instruction *ToIterEnd, Value *K) override;
  Value *contribution(IRBuilder<> &B, unsigned R) override;
  void finish(BasicBlock *Done, ArrayRef<AllocaInst *> Accumulators, Value *TripCount, Value *WindowTrips,
              Value *WindowStart) override;
  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override;
  ArrayRef<AllocaInst *> launchCursors() const override { return Cursors; }
  AllocaInst *launchLimit() const override { return Limit; }

private:
  /// One edge out: the exit block's phis that take a value from it, and for
  /// each the reduction whose running value it is (-1: none).
  struct Edge {
    BasicBlock *From, *To;
    SmallVector<PHINode *, 2> Phis;
    SmallVector<int, 2> ReductionOf;
    SmallVector<AllocaInst *, 2> Recorded;
  };
  void limitUses(Value *V, function_ref<Value *(IRBuilder<> &)> Limited);

  const LoopPlan &Plan;
  SmallVector<Edge, 2> Edges;
  /// The lowest exiting iteration (all ones: none), its edge plus one, and
  /// the iterations that may be launched.
  AllocaInst *ExitIter = nullptr, *ExitEdge = nullptr, *Limit = nullptr;
  StoreInst *LimitInit = nullptr;
  SmallVector<PHINode *, 2> Parts;
  Value *Iter = nullptr;
  /// The values an exit test at launch carries to the next launch.
  SmallVector<AllocaInst *, 1> Cursors;
};

} // namespace

EarlyExits::EarlyExits(const SplitAnalyses &A, const LoopPlan &Plan) : Plan(Plan) {
  // A reduction's running value inside the iteration is the iteration's own
  // part (the lowering starts it from the identity).
  SmallVector<SmallPtrSet<Value *, 8>, 2> Closures;
  for (const Reduction &R : Plan.Reductions) {
    SmallPtrSet<Value *, 8> C = {R.Phi};
    SmallVector<Value *, 8> Work = {R.Phi};
    while (!Work.empty())
      for (User *U : Work.pop_back_val()->users())
        if (auto *UI = dyn_cast<Instruction>(U); UI && Plan.L.contains(UI) && !isa<StoreInst>(UI) && C.insert(UI).second)
          Work.push_back(UI);
    Closures.push_back(std::move(C));
  }
  for (auto [From, To] : Plan.EarlyExits) {
    Edge E{From, To, {}, {}, {}};
    for (PHINode &Phi : To->phis()) {
      int Idx = Phi.getBasicBlockIndex(From);
      if (Idx < 0)
        continue;
      Value *V = Phi.getIncomingValue(Idx);
      int Of = -1;
      for (unsigned R = 0; R < Closures.size(); ++R)
        if (Closures[R].contains(V))
          Of = R;
      E.Phis.push_back(&Phi);
      E.ReductionOf.push_back(Of);
    }
    Edges.push_back(std::move(E));
  }
}

void EarlyExits::initState(IRBuilder<> &Entry, IRBuilder<> &Preheader, Value *TripCount) {
  Type *I64 = Entry.getInt64Ty();
  ExitIter = Entry.CreateAlloca(I64, nullptr, "memcoro.exit.iter");
  ExitEdge = Entry.CreateAlloca(Entry.getInt32Ty(), nullptr, "memcoro.exit.edge");
  Limit = Entry.CreateAlloca(I64, nullptr, "memcoro.limit");
  for (Edge &E : Edges)
    for (PHINode *Phi : E.Phis)
      E.Recorded.push_back(Entry.CreateAlloca(Phi->getType(), nullptr, Phi->getName() + ".memcoro.exit"));
  Preheader.CreateStore(ConstantInt::getAllOnesValue(I64), ExitIter);
  Preheader.CreateStore(Preheader.getInt32(0), ExitEdge);
  LimitInit = Preheader.CreateStore(TripCount, Limit);
  for (PHINode *Chain : Plan.LaunchChains) {
    Cursors.push_back(Entry.CreateAlloca(Chain->getType(), nullptr, Chain->getName() + ".memcoro.cursor"));
    Preheader.CreateStore(Chain->getIncomingValueForBlock(Plan.Preheader), Cursors.back());
  }
}

void EarlyExits::joinExits(Instruction *ToIterEnd, Value *K) {
  Iter = K;
  if (Edges.empty())
    return;
  BasicBlock *Latch = ToIterEnd->getParent();
  BasicBlock *Ending = SplitBlock(Latch, ToIterEnd, static_cast<DominatorTree *>(nullptr), nullptr, nullptr,
                                  "memcoro.iter.ending");
  LLVMContext &Ctx = Ending->getContext();
  IRBuilder<> PB(Ending, Ending->begin());
  PHINode *How = PB.CreatePHI(PB.getInt32Ty(), Edges.size() + 1, "memcoro.exit.how");
  How->addIncoming(PB.getInt32(0), Latch);
  for (const Reduction &R : Plan.Reductions) {
    PHINode *Part = PB.CreatePHI(R.Identity->getType(), Edges.size() + 1, "memcoro.part");
    Part->addIncoming(R.LatchValue, Latch);
    Parts.push_back(Part);
  }
  SmallVector<SmallVector<PHINode *, 2>, 2> Carried;
  for (Edge &E : Edges) {
    Carried.emplace_back();
    for (PHINode *Phi : E.Phis) {
      PHINode *Out = PB.CreatePHI(Phi->getType(), Edges.size() + 1, Phi->getName() + ".out");
      Out->addIncoming(PoisonValue::get(Phi->getType()), Latch);
      Carried.back().push_back(Out);
    }
  }
  for (unsigned EI = 0; EI < Edges.size(); ++EI) {
    Edge &E = Edges[EI];
    auto *Join = BasicBlock::Create(Ctx, "memcoro.exit." + Twine(EI + 1), Ending->getParent(), Ending);
    BranchInst::Create(Ending, Join)->setDebugLoc(E.From->getTerminator()->getDebugLoc());
    E.From->getTerminator()->replaceSuccessorWith(E.To, Join);
    How->addIncoming(PB.getInt32(EI + 1), Join);
    for (unsigned R = 0; R < Parts.size(); ++R)
      Parts[R]->addIncoming(Plan.Reductions[R].Identity, Join);
    for (unsigned Other = 0; Other < Edges.size(); ++Other)
      for (unsigned P = 0; P < Edges[Other].Phis.size(); ++P) {
        PHINode *Phi = Edges[Other].Phis[P];
        Carried[Other][P]->addIncoming(Other == EI ? Phi->getIncomingValueForBlock(E.From)
                                                   : PoisonValue::get(Phi->getType()),
                                       Join);
      }
  }
  for (Edge &E : Edges)
    for (PHINode *Phi : E.Phis)
      while (Phi->getBasicBlockIndex(E.From) >= 0)
        Phi->removeIncomingValue(E.From, /*DeletePHIIfEmpty=*/false);

  // An exit below the lowest so far wins for now: its values, and no launch
  // after it. Later iterations already running end without effect.
  IRBuilder<> B(ToIterEnd);
  Type *I64 = B.getInt64Ty();
  Value *Lowest = B.CreateLoad(I64, ExitIter);
  Value *Below = B.CreateICmpULT(K, Lowest);
  Value *Wins = B.CreateAnd(B.CreateICmpNE(How, B.getInt32(0)), Below, "memcoro.exit.wins");
  B.CreateStore(B.CreateSelect(Wins, K, Lowest), ExitIter);
  B.CreateStore(B.CreateSelect(Wins, How, B.CreateLoad(B.getInt32Ty(), ExitEdge)), ExitEdge);
  Value *OldLimit = B.CreateLoad(I64, Limit);
  B.CreateStore(B.CreateSelect(Wins, B.CreateBinaryIntrinsic(Intrinsic::umin, OldLimit, B.CreateAdd(K, B.getInt64(1))),
                               OldLimit),
                Limit);
  for (unsigned EI = 0; EI < Edges.size(); ++EI) {
    Value *This = B.CreateAnd(Wins, B.CreateICmpEQ(How, B.getInt32(EI + 1)));
    for (unsigned P = 0; P < Edges[EI].Phis.size(); ++P) {
      AllocaInst *Slot = Edges[EI].Recorded[P];
      B.CreateStore(B.CreateSelect(This, Carried[EI][P], B.CreateLoad(Slot->getAllocatedType(), Slot)), Slot);
    }
  }
}

Value *EarlyExits::contribution(IRBuilder<> &B, unsigned R) {
  if (Edges.empty())
    return Plan.Reductions[R].LatchValue;
  Value *Counts = B.CreateICmpULT(Iter, B.CreateLoad(B.getInt64Ty(), ExitIter), "memcoro.counts");
  return B.CreateSelect(Counts, Parts[R], Plan.Reductions[R].Identity);
}

/// Each use of \p V reads what \p Limited computes in front of it.
void EarlyExits::limitUses(Value *V, function_ref<Value *(IRBuilder<> &)> Limited) {
  for (Use &U : make_early_inc_range(V->uses())) {
    auto *User = cast<Instruction>(U.getUser());
    if (User == LimitInit || User->getFunction() != LimitInit->getFunction())
      continue;
    Instruction *At = User;
    if (auto *Phi = dyn_cast<PHINode>(User))
      At = Phi->getIncomingBlock(U)->getTerminator();
    IRBuilder<> B(At);
    U.set(Limited(B));
  }
}

void EarlyExits::finish(BasicBlock *Done, ArrayRef<AllocaInst *> Accumulators, Value *TripCount, Value *WindowTrips,
                        Value *WindowStart) {
  Type *I64 = Type::getInt64Ty(Done->getContext());
  // A window of an adapting loop runs up to the limit too, counted from its
  // first iteration (the limit is above it while the window runs).
  if (WindowTrips && WindowTrips != TripCount)
    limitUses(WindowTrips, [&](IRBuilder<> &B) {
      return B.CreateBinaryIntrinsic(Intrinsic::umin, WindowTrips,
                                     B.CreateSub(B.CreateLoad(I64, Limit), WindowStart));
    });
  limitUses(TripCount, [&](IRBuilder<> &B) { return B.CreateLoad(I64, Limit, "memcoro.limit"); });
  if (Edges.empty())
    return;

  auto *ToExit = cast<BranchInst>(Done->getTerminator());
  BasicBlock *LoopExit = ToExit->getSuccessor(0);
  LLVMContext &Ctx = Done->getContext();
  auto *Dispatch = BasicBlock::Create(Ctx, "memcoro.exit.dispatch", Done->getParent(), LoopExit);
  IRBuilder<> DB(ToExit);
  Value *Exited = DB.CreateICmpNE(DB.CreateLoad(I64, ExitIter), ConstantInt::getAllOnesValue(I64), "memcoro.exited");
  DB.CreateCondBr(Exited, Dispatch, LoopExit);
  DebugLoc Loc = ToExit->getDebugLoc();
  ToExit->eraseFromParent();

  IRBuilder<> SB(Dispatch);
  SB.SetCurrentDebugLocation(Loc);
  Value *Which = SB.CreateLoad(SB.getInt32Ty(), ExitEdge, "memcoro.exit.which");
  SmallVector<BasicBlock *, 2> Outs;
  for (unsigned EI = 0; EI < Edges.size(); ++EI) {
    Edge &E = Edges[EI];
    auto *Out = BasicBlock::Create(Ctx, "memcoro.exit.take." + Twine(EI + 1), Done->getParent(), LoopExit);
    IRBuilder<> OB(Out);
    OB.SetCurrentDebugLocation(Loc);
    for (unsigned P = 0; P < E.Phis.size(); ++P) {
      AllocaInst *Slot = E.Recorded[P];
      Value *V = OB.CreateLoad(Slot->getAllocatedType(), Slot);
      if (int RI = E.ReductionOf[P]; RI >= 0) {
        // Every iteration before the winner folded its part; the winner's
        // part up to its exit comes on top.
        const Reduction &R = Plan.Reductions[RI];
        Value *Acc = OB.CreateLoad(Accumulators[RI]->getAllocatedType(), Accumulators[RI], "memcoro.reduced");
        V = R.IsIntrinsic ? OB.CreateBinaryIntrinsic(R.Opcode, Acc, V)
                          : OB.CreateBinOp(static_cast<Instruction::BinaryOps>(R.Opcode), Acc, V);
        if (auto *FP = dyn_cast<Instruction>(V); FP && R.ReassocSource)
          FP->copyFastMathFlags(R.ReassocSource);
      }
      E.Phis[P]->addIncoming(V, Out);
    }
    OB.CreateBr(E.To);
    Outs.push_back(Out);
  }
  SwitchInst *Switch = SB.CreateSwitch(Which, Outs.front(), Outs.size());
  for (unsigned EI = 1; EI < Outs.size(); ++EI)
    Switch->addCase(SB.getInt32(EI + 1), Outs[EI]);
}

void EarlyExits::promotableState(SmallVectorImpl<AllocaInst *> &Allocas) {
  Allocas.append({ExitIter, ExitEdge, Limit});
  append_range(Allocas, Cursors);
  for (Edge &E : Edges)
    append_range(Allocas, E.Recorded);
}

std::unique_ptr<EarlyExitCodeGen> memcoro::createEarlyExitCodeGen(const SplitAnalyses &A, const LoopPlan &Plan) {
  if (Plan.EarlyExits.empty() && !Plan.ExitAtLaunch)
    return nullptr;
  return std::make_unique<EarlyExits>(A, Plan);
}
