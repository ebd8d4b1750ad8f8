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

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/DependenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumProvenDependences, "Number of marked loops kept serial by a proven loop-carried dependence");
STATISTIC(NumAssumedIndependent, "Number of access pairs assumed independent on the pragma's word");

std::string memcoro::sourcePlace(const Instruction &I) {
  const DILocation *Loc = I.getDebugLoc();
  if (!Loc)
    return "an unknown place (compile with -g for locations)";
  return (Loc->getFilename() + ":" + Twine(Loc->getLine()) + ":" + Twine(Loc->getColumn())).str();
}

namespace {

const char *kindOf(const Instruction &I) { return isa<LoadInst>(I) ? "load" : "store"; }

/// The operation of a commutative update `*p = *p op v` that \p Store makes,
/// or 0: the load of *p feeds only the operation, the operation only the
/// store, and v does not come from *p. Integer + - * & | ^ and min/max, and
/// floating-point + * where reassociation is allowed.
unsigned commutativeUpdate(const StoreInst &Store, const DataLayout &DL, LoadInst **LoadOut) {
  auto *Op = dyn_cast<Instruction>(Store.getValueOperand());
  if (!Op || !Op->hasOneUse() || Op->getNumOperands() != 2)
    return 0;
  unsigned Code = 0;
  if (auto *BO = dyn_cast<BinaryOperator>(Op)) {
    switch (BO->getOpcode()) {
    case Instruction::Add:
    case Instruction::Mul:
    case Instruction::And:
    case Instruction::Or:
    case Instruction::Xor:
      Code = BO->getOpcode();
      break;
    case Instruction::Sub: // *p - v is *p + (-v)
      Code = Instruction::Add;
      break;
    case Instruction::FAdd:
    case Instruction::FMul:
      Code = BO->hasAllowReassoc() ? BO->getOpcode() : 0;
      break;
    default:
      break;
    }
  } else if (auto *II = dyn_cast<IntrinsicInst>(Op)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
    case Intrinsic::smax:
    case Intrinsic::umin:
    case Intrinsic::umax:
      Code = Instruction::OtherOpsEnd + II->getIntrinsicID();
      break;
    default:
      break;
    }
  }
  if (!Code)
    return 0;
  unsigned Operands = isa<BinaryOperator>(Op) && cast<BinaryOperator>(Op)->getOpcode() == Instruction::Sub ? 1 : 2;
  for (unsigned K = 0; K < Operands; ++K) {
    auto *Load = dyn_cast<LoadInst>(Op->getOperand(K));
    if (Load && Load->isSimple() && Load->hasOneUse() && Load->getParent() == Store.getParent() &&
        byteDistance(Load->getPointerOperand(), Store.getPointerOperand(), DL) == 0 &&
        Load->getType() == Store.getValueOperand()->getType() && Op->getOperand(1 - K) != Load) {
      *LoadOut = Load;
      return Code;
    }
  }
  return 0;
}


} // namespace

std::optional<SerialReason> SplitLegality::checkMemoryDependences() {
  // Plain loads and stores of the loop, outside the slots' private stack
  // copies; the only ones dependence analysis reasons about, and with atomics
  // excepted, the only ones the contract covers.
  SmallVector<Instruction *, 16> Accesses;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      bool Simple = (isa<LoadInst>(I) && cast<LoadInst>(I).isSimple()) ||
                    (isa<StoreInst>(I) && cast<StoreInst>(I).isSimple());
      if (Simple && !is_contained(Plan.PrivateAllocas, getUnderlyingObject(accessedPointer(I))))
        Accesses.push_back(&I);
    }
  // Runs in every iteration: the dependence is then certain, not only
  // possible whenever both accesses run.
  auto everyIteration = [&](const Instruction *I) {
    return A.LI.getLoopFor(I->getParent()) == &L && A.DT.dominates(I->getParent(), Plan.Latch);
  };
  // The loads and stores of commutative updates, with their operation: two
  // accesses of updates by the same operation commute across iterations.
  for (Instruction *I : Accesses)
    if (auto *Store = dyn_cast<StoreInst>(I)) {
      LoadInst *Load = nullptr;
      if (unsigned Code = commutativeUpdate(*Store, A.DL, &Load)) {
        CommutativeOp[Store] = Code;
        CommutativeOp[Load] = Code;
      }
    }
  auto commute = [&](const Instruction *X, const Instruction *Y) {
    auto OpX = CommutativeOp.find(X), OpY = CommutativeOp.find(Y);
    return OpX != CommutativeOp.end() && OpY != CommutativeOp.end() && OpX->second == OpY->second;
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
      if ((isa<StoreInst>(Other) && O < S) || commute(Store, Other))
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
        std::string Pair = "the store at " + sourcePlace(*Store) + " ";
        if (Other != Store)
          Pair += "and the " + std::string(kindOf(*Other)) + " at " + sourcePlace(*Other) + " ";
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

/// Whether another iteration may, within the contract, write the location
/// \p Store writes: \p Store is itself a commutative update (every iteration
/// may apply it), or a commutative update or an atomic operation elsewhere in
/// the loop may reach the location from another iteration. Any other access
/// of another iteration to it would break the pragma's promise.
bool SplitLegality::otherIterationsMayUpdate(Instruction *Store) {
  if (CommutativeOp.count(Store))
    return true;
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
      if (!isa<StoreInst>(I) || !CommutativeOp.count(&I))
        continue;
      std::unique_ptr<Dependence> Dep = A.DI.depends(Store, &I, /*PossiblyLoopIndependent=*/true);
      if (Dep && (Dep->isConfused() || Dep->getLevels() < Level ||
                  Dep->getDirection(Level) != Dependence::DVEntry::EQ))
        return true;
    }
  return false;
}
