//===- SplitDependences.cpp - memory dependences between iterations --------===//
//
// Part of memcoro-split's legality (see SplitInternal.h). Marking a loop
// asserts what `omp parallel for` asserts: its iterations do not depend on
// each other through memory, except through reductions, atomic operations and
// ordered regions, which memcoro handles itself. This check keeps the promise
// honest where the compiler can see:
//
//   - a loop-carried dependence that LLVM's dependence analysis proves (a
//     constant distance between two accesses, as in a[i + 1] = a[i] + 1, or
//     one location that every iteration reaching the store writes) keeps the
//     loop serial, with a missed remark naming both accesses; under a
//     condition the dependence holds whenever both accesses run, which the
//     remark says;
//   - a commutative update of memory (h[k] += v, h[k] |= m, min/max: the
//     loaded value feeds only the operation, whose result is only stored) is
//     a reduction into memory: iterations may update one location in any
//     order, since memcoro never suspends between the read and the write
//     (checkUpdatesNotSplit), so the final value is the serial one;
//   - two accesses inside ordered code (#pragma memcoro ordered) run in
//     iteration order and are not looked at;
//   - a pair the analysis cannot tell apart (indirect addresses a[x[i]],
//     pointers that may alias) is assumed independent, as the pragma asserts;
//     the plan lists it, the pass names it in an analysis remark, and the
//     checking build (-fmemcoro-check) verifies it at run time.
//
// Stack memory is not looked at here: checkLocalMemory gives each slot its own
// copy of what the body declares and keeps loops serial that write a local
// declared outside. Atomic operations are the contract's own exception.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumProvenDependences, "Number of marked loops kept serial by a proven loop-carried dependence");
STATISTIC(NumAssumedIndependent, "Number of access pairs assumed independent on the pragma's word");

DebugLoc memcoro::userPlace(const DebugLoc &Loc) {
  // The system's headers and its libraries': code the user did not write.
  auto inLibraryHeader = [](const DILocation &At) {
    SmallString<128> Path = At.getFilename();
    if (!sys::path::is_absolute(Path))
      Path = (At.getDirectory() + "/" + At.getFilename()).str();
    return StringRef(Path).starts_with("/usr/include/") || StringRef(Path).starts_with("/usr/lib/") ||
           StringRef(Path).starts_with("/usr/local/include/");
  };
  const DILocation *At = Loc.get();
  while (At && At->getInlinedAt() && inLibraryHeader(*At))
    At = At->getInlinedAt();
  return DebugLoc(At);
}

std::string memcoro::sourcePlace(const Instruction &I) {
  DebugLoc Loc = userPlace(I.getDebugLoc());
  if (!Loc)
    return "an unknown place (compile with -g for locations)";
  return (Loc->getFilename() + ":" + Twine(Loc->getLine()) + ":" + Twine(Loc->getColumn())).str();
}

std::string memcoro::accessedArrayName(Instruction &Access) {
  Value *Ptr = accessedPointer(Access);
  StringRef Name = Ptr ? sourceVariableName(*getUnderlyingObject(Ptr)) : "";
  return Name.empty() ? "" : ("'" + Name + "[...]'").str();
}

std::string memcoro::accessPlace(Instruction &Access) {
  std::string Kind = isa<LoadInst>(Access) ? "load" : isa<StoreInst>(Access) ? "store" : "access";
  std::string Name = accessedArrayName(Access);
  if (!Name.empty())
    Kind += (isa<LoadInst>(Access) ? " of " : " to ") + Name;
  return "the " + Kind + " at " + sourcePlace(Access);
}

Instruction *memcoro::firstWriterIn(AAResults &AA, const Loop &L, const MemoryLocation &Loc,
                                    function_ref<bool(const Instruction &)> Excused) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (I.mayWriteToMemory() && isModSet(AA.getModRefInfo(&I, Loc)) && !(Excused && Excused(I)))
        return &I;
  return nullptr;
}


bool memcoro::writesBesideStore(const StoreInst &S) {
  return any_of(*S.getParent(), [&](const Instruction &I) { return &I != &S && I.mayWriteToMemory(); });
}

unsigned memcoro::commutativeUpdateKind(const LoadInst &L, const StoreInst &S) {
  if (!L.isSimple() || !S.isSimple() || L.getType() != S.getValueOperand()->getType())
    return 0;
  const Value *V = S.getValueOperand();
  auto onlyUser = [](const Value *X, const User *U) { return all_of(X->users(), [&](const User *W) { return W == U; }); };
  // The other operand of a two-operand update of L, which must not be L.
  auto otherOperand = [&](const User *Op) -> const Value * {
    const Value *X = Op->getOperand(0), *Y = Op->getOperand(1);
    const Value *Other = X == &L ? Y : Y == &L ? X : nullptr;
    return Other == &L ? nullptr : Other;
  };
  // An operation on the loaded value; one on other values only (`t & 0xffff`
  // kept if larger) may still be the stored side of a keep-the-larger test.
  if (auto *BO = dyn_cast<BinaryOperator>(V); BO && is_contained(BO->operands(), &L)) {
    unsigned Code = 0;
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Mul:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
      Code = BO->getOpcode();
      break;
    case Instruction::Sub: // *p - v is *p + (-v); v - *p is no update of *p
      Code = BO->getOperand(0) == &L ? unsigned(Instruction::Add) : 0;
      break;
    case Instruction::FAdd:
    case Instruction::FMul:
      Code = BO->hasAllowReassoc() ? BO->getOpcode() : 0;
      break;
    default:
      break;
    }
    return Code && otherOperand(BO) && onlyUser(&L, BO) && onlyUser(BO, &S) ? Code : 0;
  }
  if (auto *MM = dyn_cast<MinMaxIntrinsic>(V))
    return otherOperand(MM) && onlyUser(&L, MM) && onlyUser(MM, &S)
               ? unsigned(Instruction::OtherOpsEnd) + MM->getIntrinsicID()
               : 0;
  // The keep-the-smaller (or larger) test compares the location with what
  // replaces it, maybe both widened (an int element against a long index):
  // a min or a max, by the predicate and by which way the store goes.
  auto unwiden = [](const Value *X) {
    while (isa<ZExtInst>(X) || isa<SExtInst>(X) || isa<TruncInst>(X))
      X = cast<Instruction>(X)->getOperand(0);
    return X;
  };
  auto keepKind = [&](const Value *Cond, const Value *T, bool StoreWhenTrue) -> unsigned {
    auto *Cmp = dyn_cast<ICmpInst>(Cond);
    if (!Cmp || !Cmp->isRelational())
      return 0;
    const Value *X = unwiden(Cmp->getOperand(0)), *Y = unwiden(Cmp->getOperand(1));
    CmpInst::Predicate P = StoreWhenTrue ? Cmp->getPredicate() : Cmp->getInversePredicate();
    if (X == unwiden(T) && Y == &L)
      P = CmpInst::getSwappedPredicate(P);
    else if (!(X == &L && Y == unwiden(T)))
      return 0;
    // Now: store T when (L P T). L > T keeps the smaller value: a min.
    bool KeepsSmaller = ICmpInst::isGT(P) || ICmpInst::isGE(P);
    Intrinsic::ID MinMax = ICmpInst::isSigned(P) ? (KeepsSmaller ? Intrinsic::smin : Intrinsic::smax)
                                                 : (KeepsSmaller ? Intrinsic::umin : Intrinsic::umax);
    return unsigned(Instruction::OtherOpsEnd) + MinMax;
  };
  // Nothing else reads the old value: its users are \p Users, through casts.
  std::function<bool(const Value *, ArrayRef<const Value *>)> readOnlyBy = [&](const Value *X,
                                                                            ArrayRef<const Value *> Users) {
    return all_of(X->users(), [&](const User *U) {
      return is_contained(Users, U) || (isa<CastInst>(U) && readOnlyBy(U, Users));
    });
  };
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    bool LoadIsTrue = Sel->getTrueValue() == &L;
    if (!LoadIsTrue && Sel->getFalseValue() != &L)
      return 0;
    const Value *T = LoadIsTrue ? Sel->getFalseValue() : Sel->getTrueValue();
    unsigned Kind = keepKind(Sel->getCondition(), T, /*StoreWhenTrue=*/!LoadIsTrue);
    return Kind && readOnlyBy(&L, {Sel, Sel->getCondition()}) && onlyUser(Sel, &S) ? Kind : 0;
  }
  const BasicBlock *Guard = S.getParent()->getSinglePredecessor();
  auto *Br = Guard ? dyn_cast<BranchInst>(Guard->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return 0;
  // Another write behind the test (an argmin's index) is decided by which
  // iteration's value wins among equal ones: no commutative update.
  if (writesBesideStore(S))
    return 0;
  unsigned Kind = keepKind(Br->getCondition(), V, /*StoreWhenTrue=*/Br->getSuccessor(0) == S.getParent());
  return Kind && readOnlyBy(&L, {Br->getCondition()}) ? Kind : 0;
}

bool memcoro::inPrivateAlloca(const LoopPlan &Plan, Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  return !Objects.empty() &&
         all_of(Objects, [&](const Value *O) { return is_contained(Plan.PrivateAllocas, O); });
}

std::optional<SerialReason> SplitLegality::checkMemoryDependences() {
  // Plain loads and stores of the loop, outside the slots' private stack
  // copies; the only ones dependence analysis reasons about, and with atomics
  // excepted, the only ones the contract covers.
  SmallPtrSet<const Instruction *, 2> Mirrors;
  for (const Reduction &R : Plan.Reductions)
    Mirrors.insert(R.Mirrors.begin(), R.Mirrors.end());
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (Mirrors.contains(&I))
        continue;
      bool Simple = (isa<LoadInst>(I) && cast<LoadInst>(I).isSimple()) ||
                    (isa<StoreInst>(I) && cast<StoreInst>(I).isSimple());
      if (Simple && !inPrivateAlloca(Plan, accessedPointer(I)))
        Accesses.push_back(&I);
    }
  // Runs in every iteration: the dependence is then certain, not only
  // possible whenever both accesses run.
  auto everyIteration = [&](const Instruction *I) {
    return A.LI.getLoopFor(I->getParent()) == &L && A.DT.dominates(I->getParent(), Plan.Latch);
  };
  // The loads and stores of commutative updates, with their operation: two
  // accesses of updates by the same operation commute across iterations.
  for (Instruction *Write : Accesses)
    for (Instruction *Read : Accesses) {
      auto *Store = dyn_cast<StoreInst>(Write);
      auto *Load = dyn_cast<LoadInst>(Read);
      if (!Store || !Load || byteDistance(Load->getPointerOperand(), Store->getPointerOperand(), A.DL) != 0 ||
          !A.DT.dominates(Load, Store))
        continue;
      if (unsigned Code = commutativeUpdateKind(*Load, *Store)) {
        CommutativeOp[Store] = Code;
        CommutativeOp[Load] = Code;
      }
    }
  auto commute = [&](const Instruction *X, const Instruction *Y) {
    auto OpX = CommutativeOp.find(X), OpY = CommutativeOp.find(Y);
    return OpX != CommutativeOp.end() && OpY != CommutativeOp.end() && OpX->second == OpY->second;
  };
  // Code after an ordered region's start runs in iteration order (the
  // iteration holds the turn until it ends): two accesses there never meet
  // out of order.
  SmallVector<const Instruction *, 2> OrderedStarts;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isOrderedMarker(I))
        OrderedStarts.push_back(&I);
  auto inOrder = [&](const Instruction *I) {
    return any_of(OrderedStarts, [&](const Instruction *Start) { return A.DT.dominates(Start, I); }) ||
           runsAfterBufferAppend(Plan, A.DT, I);
  };
  // Stores of one constant to one place (an OpenMP reduction's private
  // `changed = true`): whichever iteration writes last, the place holds it.
  auto sameConstantStored = [&](const Instruction *X, const Instruction *Y) {
    auto *SX = dyn_cast<StoreInst>(X), *SY = dyn_cast<StoreInst>(Y);
    return SX && SY && isa<Constant>(SX->getValueOperand()) && SX->getValueOperand() == SY->getValueOperand() &&
           byteDistance(SX->getPointerOperand(), SY->getPointerOperand(), A.DL) == 0;
  };
  const unsigned Level = L.getLoopDepth();
  for (unsigned S = 0; S < Accesses.size(); ++S) {
    Instruction *Store = Accesses[S];
    if (!isa<StoreInst>(Store))
      continue;
    for (unsigned O = 0; O < Accesses.size(); ++O) {
      Instruction *Other = Accesses[O];
      // Each store against every access, itself included (two iterations
      // writing one place); a pair of stores once.
      if ((isa<StoreInst>(Other) && O < S) || commute(Store, Other) || (inOrder(Store) && inOrder(Other)) ||
          sameConstantStored(Store, Other))
        continue;
      std::unique_ptr<Dependence> Dep = A.DI.depends(Store, Other, /*PossiblyLoopIndependent=*/true);
      if (!Dep)
        continue;
      bool Known = !Dep->isConfused() && Dep->getLevels() >= Level;
      if (Known && Dep->getDirection(Level) == Dependence::DVEntry::EQ)
        continue; // only within one iteration
      // A constant distance, or one location for every iteration, is a
      // dependence whenever both accesses run; say which of the two it is.
      bool Proven = false;
      std::string How;
      const char *Verb = everyIteration(Store) && everyIteration(Other) ? "touch" : "can touch";
      if (Known && Dep->isScalar(Level)) {
        Proven = true;
        How = Other == Store ? "writes one location in every iteration that runs it"
                             : (Twine(Verb) + " the same memory in every iteration").str();
      } else if (auto *Distance = Known ? dyn_cast_or_null<SCEVConstant>(Dep->getDistance(Level)) : nullptr;
                 Distance && !Distance->isZero()) {
        Proven = true;
        How = (Twine(Verb) + " the same memory in iterations " +
               Twine(Distance->getAPInt().abs().getZExtValue()) + " apart")
                  .str();
      }
      if (Proven) {
        ++NumProvenDependences;
        std::string Pair = accessPlace(*Store) + " ";
        if (Other != Store)
          Pair += "and " + accessPlace(*Other) + " ";
        Pair += How;
        return serial("MemoryDependence",
                      "its iterations depend on each other through memory: " + Pair +
                          ", so interleaving them would change the answer",
                      Store);
      }
      LLVM_DEBUG(dbgs() << "memcoro-split: assumed independent across iterations:" << *Store << " and"
                        << *Other << "\n");
      ++NumAssumedIndependent;
      Plan.Assumed.push_back({Store, Other});
    }
  }
  return std::nullopt;
}

/// Whether, from another iteration, an atomic operation or a commutative
/// update whose kind \p Counts accepts may reach the location \p Store writes.
bool SplitLegality::updatesMayReach(Instruction *Store, function_ref<bool(unsigned Kind)> Counts) {
  const unsigned Level = L.getLoopDepth();
  const Value *Object = getUnderlyingObject(accessedPointer(*Store));
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (&I == Store)
        continue;
      bool Atomic = isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) ||
                    (isa<LoadInst>(I) && !cast<LoadInst>(I).isSimple()) ||
                    (isa<StoreInst>(I) && !cast<StoreInst>(I).isSimple());
      if (Atomic) {
        const Value *Other = getUnderlyingObject(accessedPointer(I));
        if (Other == Object || !isIdentifiedObject(Other) || !isIdentifiedObject(Object))
          return true;
        continue;
      }
      auto Kind = CommutativeOp.find(&I);
      if (!isa<StoreInst>(I) || Kind == CommutativeOp.end() || !Counts(Kind->second))
        continue;
      std::unique_ptr<Dependence> Dep = A.DI.depends(Store, &I, /*PossiblyLoopIndependent=*/true);
      if (Dep && (Dep->isConfused() || Dep->getLevels() < Level ||
                  Dep->getDirection(Level) != Dependence::DVEntry::EQ))
        return true;
    }
  return false;
}

/// Whether another iteration may, within the contract, write the location
/// \p Store writes: \p Store is itself a commutative update (every iteration
/// may apply it), or a commutative update or an atomic operation elsewhere in
/// the loop may reach the location from another iteration. Any other access
/// of another iteration to it would break the pragma's promise.
bool SplitLegality::otherIterationsMayUpdate(Instruction *Store) {
  return CommutativeOp.count(Store) || updatesMayReach(Store, [](unsigned) { return true; });
}

/// Whether the other iterations may reach the location \p Store updates only
/// through updates of the same kind (no atomic, no other operation), so that
/// applying them whole, in any order, gives the serial value.
bool SplitLegality::onlyUpdatesOfItsKind(StoreInst *Store) {
  auto Kind = CommutativeOp.find(Store);
  return Kind != CommutativeOp.end() &&
         !updatesMayReach(Store, [&](unsigned Other) { return Other != Kind->second; });
}
