//===- SplitLegality.cpp - may this marked loop be interleaved? -----------===//
//
// The first step of memcoro-split (see SplitInternal.h for the others): the
// checks that decide whether the iterations of a marked loop can run as
// interleaved coroutines and still give the serial loop's answer, and the
// reason, for the missed remark, when they cannot. checkLoop() looks at the
// loop as the O2 pipeline left it and records its shape in the LoopPlan
// (induction variables, reductions, exit values, private stack memory);
// checkPlan() runs once the suspension points are planned, for what depends on
// where the iteration yields.
//
// The checks run on their own, without transforming anything, in
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

SerialReason SplitLegality::serial(const char *Tag, const Twine &Why, const Instruction *At) const {
  std::string Text = Why.str();
  LLVM_DEBUG(dbgs() << "memcoro-split: loop " << L.getHeader()->getName() << " in " << A.F.getName()
                    << " left serial: " << Text << "\n");
  return {Tag, std::move(Text), At};
}

std::optional<SerialReason> SplitLegality::checkLoop() {
  recogniseBufferAppends(A, Plan);
  recogniseCursorAppends(A, Plan);
  if (auto Why = checkExits())
    return Why;
  if (auto Why = checkTripCount())
    return Why;
  if (auto Why = classifyHeaderPhis())
    return Why;
  if (auto Why = checkCallsAndControlFlow())
    return Why;
  if (auto Why = checkLocalMemory())
    return Why;
  if (auto Why = checkLiveOuts())
    return Why;
  return checkMemoryDependences();
}

std::optional<SerialReason> SplitLegality::checkPlan() {
  dropAppendSuspensions(Plan);
  if (auto Why = placeSuspensionsOutsideLocks(A, Plan))
    return Why;
  return checkUpdatesNotSplit();
}

std::optional<SerialReason> SplitLegality::checkExits() {
  Plan.Preheader = L.getLoopPreheader();
  Plan.Header = L.getHeader();
  Plan.Latch = L.getLoopLatch();
  if (!Plan.Preheader || !Plan.Latch || !L.hasDedicatedExits())
    return serial("NotSimplified", "the loop is not in a form memcoro can handle (no preheader or single latch)");
  // A call that may throw on the way of an append through memory (a
  // buffer's flush, a vector's growth) runs in iteration order, after every
  // earlier iteration has ended: its exception leaves the loop as in the
  // serial loop, the later iterations' slots abandoned.
  auto unwindsFromAppend = [&](BasicBlock *BB) {
    return BB->isEHPad() && all_of(predecessors(BB), [&](BasicBlock *Pred) {
             auto *Invoke = dyn_cast<InvokeInst>(Pred->getTerminator());
             return !L.contains(Pred) ||
                    (Invoke && Invoke->getUnwindDest() == BB && runsAfterBufferAppend(Plan, A.DT, Invoke));
           });
  };
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  Plan.ThrowTerminates |= any_of(Exits, blockThrowsToTerminate);
  erase_if(Exits, blockEndsProgram);
  erase_if(Exits, unwindsFromAppend);
  Plan.Exit = Exits.size() == 1 ? Exits.front() : nullptr;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  erase_if(Exiting, [&](BasicBlock *BB) {
    return all_of(successors(BB),
                  [&](BasicBlock *Succ) { return L.contains(Succ) || blockEndsProgram(Succ) || unwindsFromAppend(Succ); });
  });
  SmallVector<BasicBlock *, 2> Early;
  for (BasicBlock *BB : Exiting)
    if (BB != Plan.Latch) {
      LLVM_DEBUG({
        dbgs() << "memcoro-split: early exit from ";
        BB->printAsOperand(dbgs(), false);
        dbgs() << "\n";
      });
      Early.push_back(BB);
    }
  auto *Br = dyn_cast<BranchInst>(Plan.Latch->getTerminator());
  if (!Early.empty()) {
    if (auto Why = recogniseEarlyExits(A, Plan, Early))
      return Why;
    // The latch's own exit; the others are the early exits'.
    Plan.Exit = nullptr;
    if (Br && Br->isConditional())
      for (BasicBlock *Succ : Br->successors())
        if (!L.contains(Succ))
          Plan.Exit = Succ;
    erase_if(Exiting, [&](BasicBlock *BB) { return BB != Plan.Latch; });
  }
  if (Exiting.size() != 1 || !Plan.Exit || !Br || !Br->isConditional()) {
    // -Oz leaves loops unrotated (rotation copies the header's test), so
    // every loop's test stays at its top.
    if (A.F.hasMinSize() && L.isLoopExiting(L.getHeader()) && !L.isLoopExiting(Plan.Latch))
      return serial("NotSimplified", "the loop's exit test stays at the top of the body: -Oz (minsize) does not "
                                     "rotate loops, and memcoro needs the test at the end; build this code with "
                                     "-Os or -O2 to interleave it");
    return serial("NotSimplified", "the loop's exit is not a single test at the end of the body");
  }
  return std::nullopt;
}

std::optional<SerialReason> SplitLegality::checkTripCount() {
  auto computeTripCount = [&] {
    // The latch is the loop's only exit but for edges that end the program
    // (checkExits): its exit count is the number of iterations.
    Plan.BackedgeTakenCount = A.SE.getExitCount(&L, Plan.Latch);
    SCEVExpander Probe(A.SE, A.DL, "memcoro");
    return !isa<SCEVCouldNotCompute>(Plan.BackedgeTakenCount) && Probe.isSafeToExpand(Plan.BackedgeTakenCount) &&
           A.SE.getTypeSizeInBits(Plan.BackedgeTakenCount->getType()) <= 64;
  };
  if (computeTripCount())
    return std::nullopt;
  // Scalar evolution's answer depends on the order in which it met the
  // loop's values: an induction first described from another analysis's query
  // may lack the no-wrap facts that the exit count needs (a pointer iterator
  // over a queue whose end was hoisted). Asked afresh, it finds them.
  A.SE.forgetLoop(&L);
  if (computeTripCount())
    return std::nullopt;
  if (const SCEV *Count = iteratorBackedgeTakenCount(A.SE, L, Plan.Latch)) {
    Plan.BackedgeTakenCount = Count;
    SCEVExpander Probe(A.SE, A.DL, "memcoro");
    if (Probe.isSafeToExpand(Count) && A.SE.getTypeSizeInBits(Count->getType()) <= 64)
      return std::nullopt;
  }
  if (evaluateBoundOnce()) {
    if (computeTripCount())
      return std::nullopt;
    revert();
    Plan.BoundEvaluatedOnce = false;
  }
  if (auto Why = recogniseExitAtLaunch(A, Plan); !Why)
    return std::nullopt;
  else if (Why->At)
    return Why;
  return serial("UnknownTripCount",
                "the number of iterations cannot be computed before the loop starts (the exit test "
                "depends on values computed in the loop)",
                Plan.Latch->getTerminator());
}

/// Collects, operands first, the instructions of the loop that compute \p V
/// from loads of loop-invariant addresses and loop invariants: a bound such
/// as g.num_nodes() or queue.end() that a store in the body may alias, or the
/// upper bound of an OpenMP chunk in its stack slot. A part GVN re-reads
/// after a write that may alias it (ReloadedBound.cpp: `queue.end()` after an
/// atomic add to the queue's counter) is a leaf in \p Reloaded, with the
/// value it enters the loop with and one of its reloads.
static bool boundFromMemory(Value *V, const Loop &L, const DataLayout &DL, SmallVectorImpl<Instruction *> &Chain,
                            SmallDenseMap<PHINode *, std::pair<Value *, LoadInst *>, 2> &Reloaded) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I))
    return true;
  if (is_contained(Chain, I))
    return true;
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    if (Reloaded.count(Phi))
      return true;
    LoadInst *Reload = nullptr;
    Value *Entering = boundEnteringLoop(L, Phi, DL, &Reload);
    if (!Entering)
      return false;
    Reloaded[Phi] = {Entering, Reload};
    return true;
  }
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    // Through a reference member to the container (`codes_.size()` with
    // `const std::vector<uint32_t> &codes_`), the bound's address is read
    // too.
    if (!Load->isSimple() || !boundFromMemory(Load->getPointerOperand(), L, DL, Chain, Reloaded))
      return false;
  } else if (isa<CastInst>(I) || isa<BinaryOperator>(I) || isa<GetElementPtrInst>(I)) {
    for (Value *Op : I->operands())
      if (!boundFromMemory(Op, L, DL, Chain, Reloaded))
        return false;
  } else {
    return false;
  }
  Chain.push_back(I);
  return true;
}

/// The exit test reads its bound through memory that the body may write
/// (only the pragma's promise says it does not): evaluate it once, before the
/// loop, as OpenMP evaluates the bound of a loop in canonical form. The
/// computation is copied into the preheader and the test uses the copy;
/// revert() undoes it if the loop stays serial.
/// Code after the loop that reads a reloaded part of the bound (GAP's flush
/// after the frontier loop reads `sq.shared`) reads it from memory at the
/// exit, as GVN's value stood for: the value the loop entered with may be
/// stale. False when the part is also read in the loop, or after it other
/// than at the exit.
bool SplitLegality::reloadWhereRead(const SmallDenseMap<PHINode *, std::pair<Value *, LoadInst *>, 2> &Reloaded,
                                    ArrayRef<Instruction *> Chain) {
  // Each use, and where it reads memory instead (or, for an LCSSA phi whose
  // own uses read memory, the value entering the loop: the phi is dead).
  SmallVector<std::tuple<Use *, LoadInst *, Instruction *, Value *>, 4> Reads;
  SmallPtrSet<PHINode *, 8> Seen;
  for (auto &[Phi, EnteringAndReload] : Reloaded) {
    auto [Entering, Reload] = EnteringAndReload;
    SmallVector<PHINode *, 4> Web = phiWeb(L, Phi);
    // Two phis of one web (the header's and the latch's) are one value.
    if (!Seen.insert(Phi).second)
      continue;
    Seen.insert(Web.begin(), Web.end());
    for (PHINode *P : Web)
      for (Use &U : P->uses()) {
        auto *User = cast<Instruction>(U.getUser());
        if (is_contained(Chain, User) || (isa<PHINode>(User) && is_contained(Web, cast<PHINode>(User))))
          continue;
        // Read in the loop by more than the bound: a value carried from one
        // iteration to the next, which legality explains.
        if (L.contains(User)) {
          LLVM_DEBUG(dbgs() << "memcoro-split: a reloaded bound is also read in the loop by" << *User << "\n");
          return false;
        }
        if (!Plan.Exit || !A.DT.dominates(Plan.Exit, User->getParent())) {
          LLVM_DEBUG(dbgs() << "memcoro-split: a reloaded bound is used off the loop's exit by" << *User << "\n");
          return false;
        }
        Instruction *AtExit = &*Plan.Exit->getFirstInsertionPt();
        auto *Lcssa = dyn_cast<PHINode>(User);
        if (!Lcssa || Lcssa->getParent() != Plan.Exit) {
          Reads.push_back({&U, Reload, AtExit, nullptr});
          continue;
        }
        for (Use &LcssaUse : Lcssa->uses())
          Reads.push_back({&LcssaUse, Reload, AtExit, nullptr});
        Reads.push_back({&U, nullptr, nullptr, Entering});
      }
  }
  for (auto &[U, Reload, At, Instead] : Reads) {
    if (!Instead) {
      auto *Fresh = cast<LoadInst>(Reload->clone());
      Fresh->insertBefore(At);
      Fresh->setName(Reload->getName() + ".read");
      BoundCopies.push_back(Fresh);
      Instead = Fresh;
    }
    replaceUse(*U, Instead);
  }
  return true;
}

bool SplitLegality::evaluateBoundOnce() {
  auto *Br = dyn_cast<BranchInst>(Plan.Latch->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || !L.contains(Cmp))
    return false;
  // A bound GVN keeps in a register may be carried by two webs of phis, one
  // feeding the test and one the code after the loop (GAP's bottom-up step
  // inlined into the `while` that calls it again): merged first, the web the
  // test reads is the one whose last value the code after the loop takes.
  mergeCongruentPhis(L, Plan, A.SE);
  Instruction *Before = Plan.Preheader->getTerminator();
  for (unsigned K = 0; K < 2; ++K) {
    SmallVector<Instruction *, 4> Chain;
    Value *Bound = Cmp->getOperand(K);
    // The bound may be widened on its way to the test (an OpenMP chunk's
    // int upper bound against a 64-bit counter).
    SmallVector<CastInst *, 2> Casts;
    Value *Core = Bound;
    for (auto *Cast = dyn_cast<CastInst>(Core); Cast && L.contains(Cast); Cast = dyn_cast<CastInst>(Core)) {
      Casts.push_back(Cast);
      Core = Cast->getOperand(0);
    }
    if (Value *Entering = boundEnteringLoop(L, Core, A.DL)) {
      // The test takes the value the loop starts with, and so does code
      // after the loop that read the bound's last value.
      Value *Once = Entering;
      for (CastInst *Cast : reverse(Casts)) {
        Instruction *Copy = Cast->clone();
        Copy->insertBefore(Before);
        Copy->setName(Cast->getName() + ".once");
        Copy->setOperand(0, Once);
        BoundCopies.push_back(Copy);
        Once = Copy;
      }
      replaceUse(Cmp->getOperandUse(K), Once);
      for (PHINode *P : phiWeb(L, cast<PHINode>(Core)))
        for (Use &U : make_early_inc_range(P->uses()))
          if (!L.contains(cast<Instruction>(U.getUser())))
            replaceUse(U, Entering);
      continue;
    }
    SmallDenseMap<PHINode *, std::pair<Value *, LoadInst *>, 2> Reloaded;
    if (L.isLoopInvariant(Bound) || !boundFromMemory(Bound, L, A.DL, Chain, Reloaded) || Chain.empty())
      continue;
    if (!reloadWhereRead(Reloaded, Chain))
      continue;
    ValueToValueMapTy Copies;
    for (auto &[Phi, EnteringAndReload] : Reloaded)
      Copies[Phi] = EnteringAndReload.first;
    for (Instruction *I : Chain) {
      Instruction *Copy = I->clone();
      Copy->insertBefore(Before);
      Copy->setName(I->getName() + ".once");
      RemapInstruction(Copy, Copies, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
      Copies[I] = Copy;
      BoundCopies.push_back(Copy);
    }
    // The exit test reads the copy; so does code after the loop that read the
    // bound's last value (an OpenMP chunk loop's upper bound).
    for (Instruction *I : Chain)
      for (Use &U : make_early_inc_range(I->uses()))
        if (auto *User = cast<Instruction>(U.getUser()); User == Cmp || !L.contains(User))
          replaceUse(U, Copies[I]);
  }
  if (BoundUses.empty())
    return false;
  LLVM_DEBUG(dbgs() << "memcoro-split: loop bound evaluated once, before the loop:" << *Cmp << "\n");
  A.SE.forgetLoop(&L);
  Plan.BoundEvaluatedOnce = true;
  return true;
}

void SplitLegality::replaceUse(Use &U, Value *Instead) {
  BoundUses.push_back({WeakVH(U.getUser()), U.getOperandNo(), WeakTrackingVH(U.get())});
  U.set(Instead);
}

void SplitLegality::revert() {
  if (BoundUses.empty())
    return;
  // Last change first: a use changed twice gets its first value back. A
  // merged phi was replaced by the phi it carries the same value as (the
  // handle followed), and a user deleted with it needs nothing back.
  for (ReplacedUse &R : reverse(BoundUses))
    if (auto *Holder = cast_or_null<User>(R.User); Holder && R.Original)
      Holder->setOperand(R.OperandNo, R.Original);
  for (Instruction *Copy : reverse(BoundCopies))
    Copy->eraseFromParent();
  BoundUses.clear();
  BoundCopies.clear();
  A.SE.forgetLoop(&L);
}

/// Whether a reduction clause on the loop (memcoro-mark recorded its
/// operators) permits reassociating floating-point reductions by \p Kind:
/// '+', '*', or 'm' for min and max.
bool SplitLegality::clausePermitsReassociation(char Kind) const {
  const MDOperand *Ops = findStringMetadataForLoop(&L, ReassocMD).value_or(nullptr);
  auto *Text = Ops ? dyn_cast<MDString>(Ops->get()) : nullptr;
  return Text && Text->getString().contains(Kind);
}

bool SplitLegality::recogniseReduction(PHINode *Phi, Reduction &R) {
  // The closure of the phi's users inside the loop must be a tree of one
  // associative, commutative operation (plus phis and selects that only move
  // partial results around), so that starting from the identity yields this
  // iteration's contribution.
  SmallVector<Instruction *, 8> Work = {Phi};
  SmallPtrSet<Instruction *, 16> Closure = {Phi};
  // The closure in the order it was found: a set's order follows addresses,
  // and which refusal the user reads must not change from build to build.
  SmallVector<Instruction *, 16> ClosureInOrder = {Phi};
  // A floating-point step without reassociation blames the order only if the
  // rest of the closure is a reduction.
  Instruction *NeedsReassociation = nullptr;
  bool OpenMPReassociates = false;
  std::optional<unsigned> Kind;
  bool KindIsIntrinsic = false;
  bool ConditionalMirror = false;
  auto inClosure = [&](const Value *V) { auto *I = dyn_cast<Instruction>(V); return I && Closure.contains(I); };
  const bool MinMaxInAnyOrder = clausePermitsReassociation('m');

  while (!Work.empty()) {
    Instruction *Cur = Work.pop_back_val();
    for (User *U : Cur->users()) {
      auto *UI = cast<Instruction>(U);
      // A sanitizer's report of the old total, the overflow flag of a
      // checked update (SanitizerChecks.cpp).
      if (onlyReportedBySanitizer(*UI) || isOverflowFlag(*UI))
        continue;
      if (!L.contains(UI)) {
        // An intermediate sum escapes the loop, other than through an early
        // exit (the winning iteration's part, EarlyExits.cpp).
        if (Cur != Phi->getIncomingValueForBlock(Plan.Latch) &&
            !(isa<PHINode>(UI) && takenOnlyFromEarlyExits(Plan, *cast<PHINode>(UI), Cur)))
          return false;
        continue;
      }
      // The running total also kept in memory in every iteration (an OpenMP
      // reduction's private copy, whose address the runtime holds): only the
      // last value stored counts, and the lowering stores the total once,
      // after the loop.
      if (auto *Store = dyn_cast<StoreInst>(UI);
          Store && Store->isSimple() && Store->getValueOperand() == Cur &&
          L.isLoopInvariant(Store->getPointerOperand()) &&
          (!R.MirrorPlace || R.MirrorPlace == Store->getPointerOperand())) {
        // A store on some paths only, or in an inner loop, is checked once
        // the closure is known.
        ConditionalMirror |= Cur != Phi->getIncomingValueForBlock(Plan.Latch) ||
                             !A.DT.dominates(Store->getParent(), Plan.Latch) ||
                             A.LI.getLoopFor(Store->getParent()) != &L;
        R.Mirrors.push_back(Store);
        R.MirrorPlace = Store->getPointerOperand();
        continue;
      }
      if (Closure.insert(UI).second) {
        Work.push_back(UI);
        ClosureInOrder.push_back(UI);
      }
    }
  }
  for (Instruction *I : ClosureInOrder) {
    if (I == Phi)
      continue;
    if (auto *P = dyn_cast<PHINode>(I)) {
      if (!all_of(P->incoming_values(), inClosure))
        return false;
      continue;
    }
    auto *Sel = dyn_cast<SelectInst>(I);
    Intrinsic::ID FloatMinMax =
        Sel ? floatMinMaxOf(*Sel, inClosure, MinMaxInAnyOrder) : Intrinsic::not_intrinsic;
    if (Sel && !FloatMinMax) {
      if (inClosure(Sel->getCondition()) || !inClosure(Sel->getTrueValue()) || !inClosure(Sel->getFalseValue()))
        return false;
      continue;
    }
    // The test of a minimum or maximum: a floating-point one's select, or a
    // branch that decides only whether the mirror is stored
    // (BranchMinMax.cpp).
    if (auto *Cmp = dyn_cast<CmpInst>(I)) {
      auto selectsMinMax = [&](User *U) {
        auto *S = dyn_cast<SelectInst>(U);
        return S && S->getCondition() == Cmp && floatMinMaxOf(*S, inClosure, MinMaxInAnyOrder);
      };
      if (!all_of(Cmp->users(), [&](User *U) { return selectsMinMax(U) || isa<BranchInst>(U); }) ||
          !guardsOnlyMirrors(*Cmp, R, inClosure))
        return false;
      continue;
    }
    if (auto *Br = dyn_cast<BranchInst>(I)) {
      if (!isa<CmpInst>(Br->getCondition()))
        return false;
      continue;
    }
    // The new total of a checked update.
    if (auto *EV = dyn_cast<ExtractValueInst>(I)) {
      if (!inClosure(EV->getAggregateOperand()))
        return false;
      continue;
    }
    unsigned Op = 0;
    bool IsIntr = false;
    unsigned ClosureOperands = 0;
    if (FloatMinMax) {
      Op = FloatMinMax;
      IsIntr = true;
      ClosureOperands = 1;
    } else if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      Op = BO->getOpcode();
      if (Op == Instruction::Sub || Op == Instruction::FSub) {
        // sum - x is sum + (-x): only the minuend may be the running value.
        if (inClosure(BO->getOperand(1)))
          return false;
        Op = Op == Instruction::Sub ? Instruction::Add : Instruction::FAdd;
      }
      if (Op != Instruction::Add && Op != Instruction::Mul && Op != Instruction::And &&
          Op != Instruction::Or && Op != Instruction::Xor && Op != Instruction::FAdd &&
          Op != Instruction::FMul)
        return false;
      if ((Op == Instruction::FAdd || Op == Instruction::FMul) && !BO->hasAllowReassoc()) {
        if (clausePermitsReassociation(Op == Instruction::FMul ? '*' : '+'))
          OpenMPReassociates = true;
        else if (!NeedsReassociation)
          NeedsReassociation = BO;
      }
      if (Op == Instruction::FAdd || Op == Instruction::FMul)
        R.ReassocSource = BO;
      ClosureOperands = inClosure(BO->getOperand(0)) + inClosure(BO->getOperand(1));
    } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
      switch (II->getIntrinsicID()) {
      case Intrinsic::fmuladd:
        // sum += x * y as clang contracts it by default (NPB CG's product):
        // an addition whose other term is a product, the total its last
        // operand; started from -0.0 it gives the product alone.
        if (inClosure(II->getArgOperand(0)) || inClosure(II->getArgOperand(1)))
          return false;
        Op = Instruction::FAdd;
        if (!II->hasAllowReassoc()) {
          if (clausePermitsReassociation(Op == Instruction::FMul ? '*' : '+'))
            OpenMPReassociates = true;
          else if (!NeedsReassociation)
            NeedsReassociation = II;
        }
        R.ReassocSource = II;
        ClosureOperands = 1;
        break;
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        Op = II->getIntrinsicID();
        IsIntr = true;
        ClosureOperands = inClosure(II->getArgOperand(0)) + inClosure(II->getArgOperand(1));
        break;
      case Intrinsic::maxnum:
      case Intrinsic::minnum:
        // -ffast-math's `v > mx ? v : mx`: which of equal zeros is kept
        // depends on the order, unless signed zeros do not matter or a
        // reduction clause permits it.
        if (!II->hasNoSignedZeros() && !MinMaxInAnyOrder)
          return false;
        Op = II->getIntrinsicID();
        IsIntr = true;
        ClosureOperands = inClosure(II->getArgOperand(0)) + inClosure(II->getArgOperand(1));
        break;
      default:
        // Started from the identity, one checked update per iteration cannot
        // overflow where the serial loop would not; two could.
        Op = checkedUpdateOpcode(*II);
        if (!Op || R.OverflowCheck)
          return false;
        R.OverflowCheck = II;
        ClosureOperands = inClosure(II->getArgOperand(0)) + inClosure(II->getArgOperand(1));
        break;
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
  if (NeedsReassociation) {
    FloatingPointOrderMatters = NeedsReassociation;
    return false;
  }

  Type *Ty = Phi->getType();
  R.Phi = Phi;
  R.LatchValue = Phi->getIncomingValueForBlock(Plan.Latch);
  if (ConditionalMirror && !conditionalMirrorKeepsTotal(A, L, R))
    return false;
  Plan.ReassociatedByOpenMP |= OpenMPReassociates;
  R.Opcode = *Kind;
  R.IsIntrinsic = KindIsIntrinsic;
  if (KindIsIntrinsic && (*Kind == Intrinsic::maxnum || *Kind == Intrinsic::minnum)) {
    R.Identity = ConstantFP::getInfinity(Ty, /*Negative=*/*Kind == Intrinsic::maxnum);
  } else if (KindIsIntrinsic) {
    unsigned Bits = Ty->getIntegerBitWidth();
    switch (*Kind) {
    case Intrinsic::smin: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getSignedMaxValue(Bits)); break;
    case Intrinsic::smax: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getSignedMinValue(Bits)); break;
    case Intrinsic::umin: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getMaxValue(Bits)); break;
    default: R.Identity = ConstantInt::get(Phi->getContext(), APInt::getMinValue(Bits)); break;
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

namespace {

/// \p Ty without typedefs and qualifiers.
const DIType *underlyingType(const DIType *Ty) {
  while (const auto *D = dyn_cast_or_null<DIDerivedType>(Ty)) {
    unsigned Tag = D->getTag();
    if (Tag != dwarf::DW_TAG_typedef && Tag != dwarf::DW_TAG_const_type && Tag != dwarf::DW_TAG_volatile_type &&
        Tag != dwarf::DW_TAG_restrict_type && Tag != dwarf::DW_TAG_member)
      break;
    Ty = D->getBaseType();
  }
  return Ty;
}

/// ".member" (nested: ".inner.member") of the field of \p Ty, a struct or
/// class, that holds the byte at \p Bits / 8; empty when debug info does
/// not say.
std::string memberAt(const DIType *Ty, uint64_t Bits) {
  const auto *Record = dyn_cast_or_null<DICompositeType>(underlyingType(Ty));
  if (!Record || (Record->getTag() != dwarf::DW_TAG_structure_type && Record->getTag() != dwarf::DW_TAG_class_type))
    return "";
  for (DINode *E : Record->getElements()) {
    const auto *Member = dyn_cast_or_null<DIDerivedType>(E);
    if (!Member || Member->getTag() != dwarf::DW_TAG_member || Member->isStaticMember() ||
        Bits < Member->getOffsetInBits() || Bits >= Member->getOffsetInBits() + Member->getSizeInBits())
      continue;
    std::string Name = Member->getName().str();
    if (Name.empty())
      return "";
    std::string Inner = memberAt(Member->getBaseType(), Bits - Member->getOffsetInBits());
    return "." + Name + Inner;
  }
  return "";
}

/// The variable and the fragment of it (in bits, 0 for all of it) that
/// debug info says \p V holds.
std::pair<DILocalVariable *, uint64_t> debugVariable(Value &V) {
  SmallVector<DbgValueInst *, 2> Intrinsics;
  SmallVector<DbgVariableRecord *, 2> Records;
  findDbgValues(Intrinsics, &V, &Records);
  auto fragment = [](DIExpression *E) {
    std::optional<DIExpression::FragmentInfo> F = E ? E->getFragmentInfo() : std::nullopt;
    return F ? F->OffsetInBits : 0;
  };
  // The compiler's own variables (a range-for's `__begin3`, a library's
  // `__first`) mean nothing to the user.
  auto named = [](DILocalVariable *Var) {
    return Var && !Var->getName().empty() && !Var->isArtificial() && !Var->getName().starts_with("__");
  };
  for (DbgVariableRecord *R : Records)
    if (named(R->getVariable()))
      return {R->getVariable(), fragment(R->getExpression())};
  for (DbgValueInst *I : Intrinsics)
    if (named(I->getVariable()))
      return {I->getVariable(), fragment(I->getExpression())};
  return {nullptr, 0};
}

/// "g.offsets", "g->offsets": a field loaded through a pointer to a struct
/// (or a struct on the stack) that debug info names, at a constant offset.
std::string loadedFieldName(LoadInst &Load) {
  const DataLayout &DL = Load.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Load.getPointerOperandType()), 0);
  Value *Base = Load.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true);
  if (Offset.isNegative())
    return "";
  uint64_t Bits = Offset.getZExtValue() * 8;
  // A struct the function keeps on the stack, or a parameter passed by
  // value in memory: its dbg.declare.
  for (DbgVariableRecord *R : findDVRDeclares(Base))
    if (std::string M = memberAt(R->getVariable()->getType(), Bits); !M.empty())
      return R->getVariable()->getName().str() + M;
  for (DbgDeclareInst *D : findDbgDeclares(Base))
    if (std::string M = memberAt(D->getVariable()->getType(), Bits); !M.empty())
      return D->getVariable()->getName().str() + M;
  // A pointer (`g->offsets`) or a C++ reference (`g.offsets`) to it.
  auto [Var, Fragment] = debugVariable(*Base);
  const auto *Ptr = Var && !Fragment ? dyn_cast_or_null<DIDerivedType>(underlyingType(Var->getType())) : nullptr;
  if (!Ptr)
    return "";
  bool Reference = Ptr->getTag() == dwarf::DW_TAG_reference_type || Ptr->getTag() == dwarf::DW_TAG_rvalue_reference_type;
  if (Ptr->getTag() != dwarf::DW_TAG_pointer_type && !Reference)
    return "";
  std::string M = memberAt(Ptr->getBaseType(), Bits);
  if (M.empty())
    return "";
  return Var->getName().str() + (Reference ? M : "->" + M.substr(1));
}

} // namespace

StringRef memcoro::sourceVariableName(Value &V) {
  // Interned in the context, so that the name outlives this call.
  auto intern = [&](const std::string &Name) { return MDString::get(V.getContext(), Name)->getString(); };
  if (auto [Var, Fragment] = debugVariable(V); Var) {
    // One field of a struct that SROA split into scalars (`g` passed by
    // value): the field the fragment covers.
    if (Fragment)
      if (std::string M = memberAt(Var->getType(), Fragment); !M.empty())
        return intern(Var->getName().str() + M);
    return Var->getName();
  }
  if (auto *Load = dyn_cast<LoadInst>(&V))
    if (std::string Name = loadedFieldName(*Load); !Name.empty())
      return intern(Name);
  // A global or a file's static (`static int words[N]` is `_ZL5words` in
  // C++): its debug info's name, else the linkage name demangled.
  if (auto *GV = dyn_cast<GlobalVariable>(&V)) {
    SmallVector<DIGlobalVariableExpression *, 1> Infos;
    GV->getDebugInfo(Infos);
    if (!Infos.empty())
      return Infos.front()->getVariable()->getName();
    if (GV->getName().starts_with("_Z"))
      return intern(demangle(GV->getName()));
  }
  return "";
}

/// " ('name')" of the source variable \p V holds, for remarks; empty when
/// debug info does not say.
static std::string variableName(Value &V) {
  StringRef Name = sourceVariableName(V);
  return Name.empty() ? "" : (" ('" + Name + "')").str();
}

std::optional<SerialReason> SplitLegality::classifyHeaderPhis() {
  mergeCongruentPhis(L, Plan, A.SE);
  computeBranchMinMax(L, A.SE);
  // Carried values that may still ride on an append's turn, once every
  // append is known (a local vector's capacity).
  SmallVector<PHINode *, 2> Carried;
  for (PHINode &Phi : Plan.Header->phis()) {
    // Carried by the exit test at launch (LaunchExit.cpp).
    if (is_contained(Plan.LaunchChains, &Phi))
      continue;
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&Phi));
        AR && AR->getLoop() == &L && AR->isAffine()) {
      // `total++` under reduction(+ : total) steps like an induction, but
      // its private copy is stored in every iteration: as a reduction, that
      // store is a mirror the lowering makes once, after the loop.
      Value *Next = Phi.getIncomingValueForBlock(Plan.Latch);
      bool Mirrored = any_of(Next->users(), [&](User *U) {
        auto *Store = dyn_cast<StoreInst>(U);
        return Store && Store->getValueOperand() == Next && L.contains(Store);
      });
      Reduction R;
      if (Mirrored && recogniseReduction(&Phi, R)) {
        Plan.Reductions.push_back(R);
        continue;
      }
      SCEVExpander Probe(A.SE, A.DL, "memcoro");
      if (Probe.isSafeToExpand(AR->getStart()) && Probe.isSafeToExpand(AR->getStepRecurrence(A.SE))) {
        Plan.Inductions.push_back(&Phi);
        continue;
      }
    }
    // A bound's phis the exit test no longer reads (ReloadedBound.cpp).
    if (isDeadPhiWeb(L, &Phi))
      continue;
    Reduction R;
    FloatingPointOrderMatters = nullptr;
    if (recogniseReduction(&Phi, R) || (!FloatingPointOrderMatters && recogniseFlag(L, &Phi, R = Reduction()))) {
      Plan.Reductions.push_back(R);
      continue;
    }
    // The append idiom, next[n++] = v: the counter runs in iteration order
    // (SplitOrdered.cpp).
    if (!FloatingPointOrderMatters &&
        (recogniseAppendCounter(A, Plan, &Phi) || recogniseRegisterAppend(A, Plan, &Phi)))
      continue;
    if (!FloatingPointOrderMatters && recogniseForwardedLoad(A, Plan, &Phi))
      continue;
    if (!FloatingPointOrderMatters && recogniseCarriedLoad(A, Plan, &Phi))
      continue;
    // Read and assigned only in ordered regions, in iteration order whatever
    // its operation (OrderedValues.cpp).
    if (recogniseOrderedValue(A, Plan, &Phi))
      continue;
    if (FloatingPointOrderMatters) {
      StringRef Var = sourceVariableName(Phi);
      bool Product = FloatingPointOrderMatters->getOpcode() == Instruction::FMul;
      const char *Op = Product ? "*" : "+";
      return serial("FPReduction",
                    "floating-point reduction" + variableName(Phi) + " whose result depends on the order of the " +
                        (Product ? "multiplications" : "additions") + "; allow reassociation "
                        "(-ffast-math, or -fassociative-math -fno-signed-zeros, or a reduction(" +
                        Op + ": " + (Var.empty() ? StringRef("...") : Var) +
                        ") clause on the pragma) to interleave it",
                    FloatingPointOrderMatters);
    }
    Carried.push_back(&Phi);
  }
  for (PHINode *Phi : Carried)
    if (!recogniseAppendCompanion(A, Plan, Phi))
      return carriedValue(*Phi);
  return std::nullopt;
}

/// The missed remark for \p Phi, a value carried from one iteration to the
/// next: named after the source variable any value of its web holds (the
/// header phi itself often has no debug record, its update has), at the
/// statement that assigns it: in the user's own inlined helper where it is
/// one (Redis's `c->bufpos += len` in _addReplyToBuffer), in the caller of
/// an STL member (whose line says nothing to the user).
SerialReason SplitLegality::carriedValue(PHINode &Phi) const {
  SmallVector<PHINode *, 4> Web = phiWeb(L, &Phi);
  SmallVector<Instruction *, 4> Assignments;
  for (PHINode *P : Web)
    for (Value *V : P->incoming_values())
      if (auto *I = dyn_cast<Instruction>(V); I && !isa<PHINode>(I) && L.contains(I))
        Assignments.push_back(I);
  SmallVector<Value *, 8> Values(Web.begin(), Web.end());
  append_range(Values, Assignments);
  std::string Name;
  for (Value *V : Values)
    if (Name.empty())
      Name = variableName(*V);
  auto *Update = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(Plan.Latch));
  const Instruction *At = Update;
  for (Instruction *I : Assignments)
    if (I->getDebugLoc() && I->getDebugLoc().getLine()) {
      At = I;
      break;
    }
  SerialReason Why = serial("LoopCarried",
                            "a value" + Name +
                                " is carried from one iteration to the next and is not a reduction memcoro "
                                "recognises (integer + - * & | ^ min max, floating-point + * with "
                                "reassociation, or floating-point min max under a reduction clause)" +
                                orderedValueHint(A, L, Phi),
                            At);
  if (At && At->getDebugLoc() && At->getDebugLoc()->getInlinedAt())
    Why.Loc = userPlace(At->getDebugLoc());
  return Why;
}

/// A call that ends the program (assert's __assert_fail, abort, exit) or a
/// sanitizer's check or report: it runs in place, inside the phase that
/// reaches it, and touches nothing the iterations share. Keeping the loop
/// serial for it would make an assert, or a -fsanitize build, change what
/// memcoro does to the loop.
static bool runsInPlace(const CallBase &Call) {
  if (Call.doesNotReturn())
    return true;
  const Function *Callee = Call.getCalledFunction();
  return Callee && isSanitizerRuntimeFn(*Callee);
}

std::optional<SerialReason> SplitLegality::checkCallsAndControlFlow() {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (I.isVolatile() && !releasesLock(L, I))
        return serial("Volatile", "the loop has a volatile access, whose order memcoro must not change", &I);
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      // An exception caught in the iteration (a try/catch in the body)
      // unwinds to a handler of the loop, which runs as any other code does.
      auto *Invoke = dyn_cast<InvokeInst>(CB);
      if ((Invoke && !L.contains(Invoke->getUnwindDest()) && !runsAfterBufferAppend(Plan, A.DT, CB) &&
           !unwindEndsProgram(*CB)) ||
          isa<CallBrInst>(CB)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: a call whose exception reaches code after it:" << *CB << "\n");
        return serial("Call", "the loop contains a call that may throw an exception", CB);
      }
      Plan.ThrowTerminates |= unwindEndsProgram(*CB);
      if (auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->isAssumeLikeIntrinsic() || II->getIntrinsicID() == Intrinsic::prefetch ||
            isa<MemIntrinsic>(II))
          continue;
      if (Function *Callee = CB->getCalledFunction(); Callee && Callee->getName() == RemoteBaseFn)
        continue;
      if (runsInPlace(*CB) || isOrderedMarker(*CB) || runsAfterBufferAppend(Plan, A.DT, CB))
        continue;
      if (CB->mayReadOrWriteMemory())
        if (auto Why = acceptCallInPlace(Plan, *CB))
          return Why;
    }
  // Only cycles through the loop's own blocks matter: another marked loop's
  // state machine elsewhere in the function is irreducible by construction.
  CycleInfo Cycles;
  Cycles.compute(A.F);
  SmallVector<const Cycle *, 8> Work(Cycles.toplevel_cycles());
  while (!Work.empty()) {
    const Cycle *C = Work.pop_back_val();
    if (!C->isReducible() && any_of(C->blocks(), [&](BasicBlock *BB) { return L.contains(BB); }))
      return serial("Irreducible", "the loop has irreducible control flow (a goto into the middle of a cycle)",
                    C->getHeader()->getTerminator());
    append_range(Work, C->children());
  }
  return std::nullopt;
}

std::optional<SerialReason> SplitLegality::checkLiveOuts() {
  SmallPtrSet<Value *, 4> ReductionResults;
  for (Reduction &R : Plan.Reductions)
    ReductionResults.insert(R.LatchValue);
  // An append counter's final value is read from its shared scalar.
  for (AppendCounter &C : Plan.Counters)
    ReductionResults.insert(C.Phi->getIncomingValueForBlock(Plan.Latch));
  for (PHINode &Phi : Plan.Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Plan.Latch);
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || ReductionResults.contains(V))
      continue;
    const SCEV *AtExit = A.SE.getSCEVAtScope(A.SE.getSCEV(V), L.getParentLoop());
    // With early exits scalar evolution has no exit value (none, or the
    // recurrence itself); the latch's exit is taken after the latch's count
    // of iterations.
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(V));
        !Plan.EarlyExits.empty() && (isa<SCEVCouldNotCompute>(AtExit) || !A.SE.isLoopInvariant(AtExit, &L)) && AR &&
        AR->getLoop() == &L && AR->isAffine())
      AtExit = AR->evaluateAtIteration(A.SE.getTruncateOrZeroExtend(Plan.BackedgeTakenCount, AR->getType()), A.SE);
    SCEVExpander Probe(A.SE, A.DL, "memcoro");
    if (isa<SCEVCouldNotCompute>(AtExit) || !A.SE.isLoopInvariant(AtExit, &L) || !Probe.isSafeToExpand(AtExit)) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no value at the exit for" << Phi << " (" << *A.SE.getSCEV(V) << ")\n");
      StringRef Name = sourceVariableName(*I);
      return serial("LiveOut",
                    "a value computed in the loop" + (Name.empty() ? std::string() : " ('" + Name.str() + "')") +
                        " is used after it and is not a reduction: the last iteration's values pass out of a "
                        "loop that leaves at its end alone, an early exit's from the iteration that exits",
                    I);
    }
    Plan.ExitValues.push_back({&Phi, AtExit});
  }
  return std::nullopt;
}

/// A local array or struct declared in the loop body is private to each
/// iteration in C, but LLVM allocates it once in the function's entry block
/// (lifetime markers in the loop say where it lives). Interleaved iterations
/// would share it, so each slot gets its own copy. A stack object declared
/// outside the loop is memory like any other, shared by the iterations under
/// the contract: checkMemoryDependences judges its accesses as it judges the
/// heap's (a counting array indexed by the loop counter, a histogram).
std::optional<SerialReason> SplitLegality::checkLocalMemory() {
  for (Instruction &I : instructions(A.F)) {
    auto *Alloca = dyn_cast<AllocaInst>(&I);
    if (!Alloca)
      continue;
    bool UsedInLoop = false, UsedOutside = false, StartsInLoop = false;
    SmallVector<Instruction *, 8> Work = {Alloca};
    SmallPtrSet<Instruction *, 16> Seen;
    while (!Work.empty()) {
      Instruction *Ptr = Work.pop_back_val();
      for (User *U : Ptr->users()) {
        auto *UI = cast<Instruction>(U);
        // A cleanup no edge reaches any more (the landing pad of a call that
        // was inlined away) ends the object's lifetime for nothing.
        if (!Seen.insert(UI).second || !A.DT.isReachableFromEntry(UI->getParent()))
          continue;
        bool InLoop = L.contains(UI);
        UsedInLoop |= InLoop;
        // Address arithmetic LICM hoisted out of the loop (&f[1]) is no use
        // of the object by itself; its users decide.
        if (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI) || isa<PHINode>(UI) || isa<SelectInst>(UI)) {
          if (!InLoop && !isa<GetElementPtrInst>(UI) && !isa<CastInst>(UI))
            UsedOutside = true;
          Work.push_back(UI);
          continue;
        }
        UsedOutside |= !InLoop;
        if (auto *II = dyn_cast<IntrinsicInst>(UI); II && II->isLifetimeStartOrEnd())
          StartsInLoop |= InLoop && II->getIntrinsicID() == Intrinsic::lifetime_start;
      }
    }
    if (!UsedInLoop)
      continue;
    if (L.contains(Alloca) || !Alloca->isStaticAlloca())
      return serial("LocalMemory", "the loop allocates stack memory of a size known only at run time", Alloca);
    if (StartsInLoop && !UsedOutside)
      Plan.PrivateAllocas.push_back(Alloca);
  }
  return std::nullopt;
}

/// A load and a later store of the same location with a suspension in
/// between (t[k] += v split by another access's yield, or two increments that
/// GVN and DSE merged across a dependent load) would let another iteration
/// update the location in between, losing its update, where the contract lets
/// another iteration update it: a commutative update or an atomic operation.
/// Such a loop stays serial (the paper's lock table, III-E, would make the
/// update atomic instead). A location no other iteration may write (the
/// loop's own element parent[u], or any location under the pragma's promise)
/// needs no protection.
std::optional<SerialReason> SplitLegality::checkUpdatesNotSplit() {
  auto sameLocation = [&](Value *X, Value *Y) { return byteDistance(X, Y, A.DL) == 0; };
  SmallVector<Instruction *, 16> Loads, Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (isa<LoadInst>(&I))
        Loads.push_back(&I);
      // An atomic update applies itself to the value it finds, and a
      // compare-and-swap fails on one that changed: a yield after a plain
      // read of the location loses no update there (the read only decides
      // whether to try, as PKC's `if (deg[u] > level)
      // __sync_fetch_and_sub(&deg[u], 1)`, and the contract leaves the order
      // of atomics free). An exchange stores what the read may have computed.
      else if (isa<StoreInst>(&I) ||
               (isa<AtomicRMWInst>(&I) && cast<AtomicRMWInst>(I).getOperation() == AtomicRMWInst::Xchg))
        Stores.push_back(&I);
    }
  for (Instruction *Store : Stores)
    for (Instruction *Load : Loads)
      // From an append's start the iteration holds the turn: the ordered
      // planner drops the suspensions there.
      if (sameLocation(accessedPointer(*Load), accessedPointer(*Store)) && A.DT.dominates(Load, Store) &&
          !runsAfterBufferAppend(Plan, A.DT, Load) && suspendsBetween(Plan, A.LI, Load, Store, nullptr) &&
          otherIterationsMayUpdate(Store)) {
        // A commutative update of its own load, in one block, that only
        // updates of its kind may meet: the lock table keeps it whole.
        auto *Update = dyn_cast<StoreInst>(Store);
        auto *Read = cast<LoadInst>(Load);
        // Another write the location may meet takes no lock (an unsplit
        // `h[k2] += 1` beside the locked `h[k] = h[k] + t`): it would land
        // between a locked read and its write, and be lost.
        auto othersMayWrite = [&](StoreInst *Locked) {
          return firstWriterIn(A, L, MemoryLocation::get(Locked), [&](const Instruction &I) { return &I == Locked; });
        };
        bool Lockable = Update && Read->getParent() == Update->getParent() && !othersMayWrite(Update) &&
                        commutativeUpdateKind(*Read, *Update) && onlyUpdatesOfItsKind(Update) &&
                        Plan.Locked.empty() &&
                        (Plan.Style == Dispatch::Ring || Plan.Style == Dispatch::Lockstep || Plan.Style == Dispatch::Pipeline) &&
                        !Plan.ThroughAmu;
        if (!Lockable) {
          LLVM_DEBUG(dbgs() << "memcoro-split: a yield splits" << *Read << " /" << *Store << "\n");
          return serial("SplitUpdate",
                        "a read-modify-write of one memory location would be split by a suspension point, so "
                        "another iteration could update the location in between",
                        Store);
        }
        LLVM_DEBUG(dbgs() << "memcoro-split: the lock table keeps whole:" << *Read << " /" << *Update << "\n");
        Plan.Locked.push_back({Read, Update});
        // Waiting needs a resume state per slot.
        Plan.Style = Dispatch::Ring;
      }
  return std::nullopt;
}
