//===- CarriedLoad.cpp - a load carried to the next iteration, read again -===//
//
// A step of memcoro-split (see SplitInternal.h). In a CSR loop
//
//   for (u = 0; u < n; u++)
//     for (e = off[u]; e < off[u + 1]; e++) ...
//
// LLVM reads off[u + 1] once per iteration and hands it to the next one as
// its off[u]: a header phi whose latch value is that load and whose entry
// value is off[start]. Iterations that run interleaved cannot hand values
// to each other, and legality would keep the loop serial ("a value is
// carried from one iteration to the next"). The value is a load from an
// address affine in the loop's counter, so iteration k reads it again for
// itself, at its start, from where iteration k - 1 read it:
//
//   %prev = phi [ %off.start, %preheader ], [ %off.next, %latch ]
//     becomes, in the header,
//   %prev = load off[u]     ; the latch load's address, one step back
//
// A load from an address the loop does not change (a vector's data pointer
// that `keys[i]` reads, read again after a call that might write it) is the
// same with a step of zero: each iteration reads it at its start.
//
// That is the load the source wrote. LLVM forwarded it because nothing in
// the serial loop writes the location between the two reads; the other
// iterations that now run in between do not write what this one reads (the
// pragma's contract). The latch value may also be a phi of several loads of
// that one address: with `int *off, *dist` the inner loop's store
// `dist[adj[e]] = level` may write `off[u + 1]`, so LLVM reads the bound
// again after it and hands on whichever read came last.
//
// A store the loop makes to the offsets' own object (`off[u + 1] = e`)
// keeps the loop serial: the next iteration reads what this one wrote. A
// store alias analysis cannot separate only because two pointers might
// point into one array is the case the contract speaks for, as it does for
// the dependence pairs SplitDependences.cpp assumes independent: the next
// iteration reads `off[u]` itself in the source, and no other iteration
// may write what it reads. It is named in the remark. Not so when the
// source itself hands the value on (`start = starts[j + 1]` into a variable
// declared before the loop, which memcoro-mark notes): the next iteration
// reads nothing there, and any such store keeps the loop serial. The lowering makes the change before it copies or
// cuts the loop, so the serial copy of run-time adaptation reads it the
// same way.
//
//===----------------------------------------------------------------------===//
#include "BodyLocals.h"
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCarriedLoads, "Number of loads carried to the next iteration that each iteration reads again");

/// The loads whose value \p V is, through phis of the loop \p L: empty
/// unless every one is a plain load in the loop from one pointer. A path
/// that reads nothing hands on \p Carried, the value the iteration entered
/// with (the inner loop that reads the bound again did not run).
/// Whether \p V, coming into \p To from \p From, is \p Carried's own value:
/// a constant GVN put there because the edge is taken only when the carried
/// value equals it (an inner loop skipped when the shared bound it reloads
/// is 0 hands on 0).
static bool isCarriedOnEdge(const PHINode *Carried, const Value *V, const BasicBlock *From, const BasicBlock *To) {
  auto *Br = dyn_cast<BranchInst>(From->getTerminator());
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || !Cmp->isEquality() || Br->getSuccessor(0) == Br->getSuccessor(1) || !isa<Constant>(V))
    return false;
  bool Equal = Br->getSuccessor(Cmp->getPredicate() == CmpInst::ICMP_EQ ? 0 : 1) == To;
  return Equal && ((Cmp->getOperand(0) == Carried && Cmp->getOperand(1) == V) ||
                   (Cmp->getOperand(1) == Carried && Cmp->getOperand(0) == V));
}

static SmallVector<LoadInst *, 4> loadsOfOneAddress(const Loop &L, Value *V, PHINode *Carried) {
  SmallVector<LoadInst *, 4> Loads;
  SmallVector<Value *, 8> Work = {V};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second || X == Carried)
      continue;
    if (auto *P = dyn_cast<PHINode>(X); P && L.contains(P) && Seen.size() <= 16) {
      for (unsigned In = 0; In < P->getNumIncomingValues(); ++In)
        if (!isCarriedOnEdge(Carried, P->getIncomingValue(In), P->getIncomingBlock(In), P->getParent()))
          Work.push_back(P->getIncomingValue(In));
      continue;
    }
    auto *Load = dyn_cast<LoadInst>(X);
    if (!Load || !L.contains(Load) || !Load->isSimple() ||
        (!Loads.empty() && Load->getPointerOperand() != Loads.front()->getPointerOperand()))
      return {};
    Loads.push_back(Load);
  }
  return Loads;
}

/// Whether \p Ptr, computed in \p L, is read from memory through loads and
/// constant offsets from an address the loop does not change (a vector's
/// data pointer through a reference member, `codes_->_M_start`): its
/// instructions, operands first, in \p Chain.
static bool readThroughMemory(const Loop &L, Value *Ptr, SmallVectorImpl<Instruction *> &Chain) {
  auto *I = dyn_cast<Instruction>(Ptr);
  if (!I || !L.contains(I))
    return true;
  if (Chain.size() >= 4)
    return false;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    if (!Load->isSimple() || !readThroughMemory(L, Load->getPointerOperand(), Chain))
      return false;
  } else if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
    if (!GEP->hasAllConstantIndices() || !readThroughMemory(L, GEP->getPointerOperand(), Chain))
      return false;
  } else {
    return false;
  }
  Chain.push_back(I);
  return true;
}

/// Whether \p Entering, before the loop, reads what \p InLoop does in it:
/// the same loads and offsets from the same values.
static bool sameRead(Value *Entering, Value *InLoop) {
  if (Entering == InLoop)
    return true;
  if (auto *E = dyn_cast<LoadInst>(Entering))
    if (auto *I = dyn_cast<LoadInst>(InLoop))
      return E->getType() == I->getType() && sameRead(E->getPointerOperand(), I->getPointerOperand());
  if (auto *E = dyn_cast<GetElementPtrInst>(Entering))
    if (auto *I = dyn_cast<GetElementPtrInst>(InLoop))
      return E->getSourceElementType() == I->getSourceElementType() && E->getNumOperands() == I->getNumOperands() &&
             std::equal(E->idx_begin(), E->idx_end(), I->idx_begin()) &&
             sameRead(E->getPointerOperand(), I->getPointerOperand());
  return false;
}

bool memcoro::recogniseCarriedLoad(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  Loop &L = Plan.L;
  SmallVector<LoadInst *, 4> Reads = loadsOfOneAddress(L, Phi->getIncomingValueForBlock(Plan.Latch), Phi);
  LoadInst *Next = Reads.empty() ? nullptr : Reads.front();
  Value *Entering = Phi->getIncomingValueForBlock(Plan.Preheader);
  auto *First = dyn_cast<LoadInst>(Entering);
  const bool SourceReadsIt = !findOptionMDForLoop(&L, CopiesMemoryMD);
  auto fail = [&](const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " does not carry a load to read again: " << Why
                      << "\n");
    return false;
  };
  if (!Next || any_of(Reads, [&](LoadInst *R) { return R->getType() != Entering->getType(); }))
    return fail("not a plain load, or loads of one address, carried from the latch");
  // An address the loop does not change (a vector's data pointer, read
  // again after a call that might write it: `keys[i]` beside a lookup that
  // is not inlined) is a step of zero: each iteration reads it where the
  // loop's entry did. The value entering the loop need not be a load: GVN
  // hands in what it knows the memory holds (the pointer the vector was
  // allocated with). Only a body that copies no loaded value into a
  // variable declared before it (memcoro-mark notes it) is taken at that:
  // there the phi is the optimiser's forwarding, not the source's.
  const SCEV *Ptr = A.SE.getSCEV(Next->getPointerOperand());
  const SCEV *Before = nullptr;
  SmallVector<Instruction *, 2> AddressChain;
  if (!A.SE.isLoopInvariant(Ptr, &L) && readThroughMemory(L, Next->getPointerOperand(), AddressChain) &&
      !AddressChain.empty()) {
    // The address is read from memory the loop does not change either (the
    // pragma's promise covers it as it covers the value): evaluated once.
    if (First ? !sameRead(First->getPointerOperand(), Next->getPointerOperand()) : !SourceReadsIt)
      return fail("the value entering the loop is not read the way the loop reads it");
  } else if (A.SE.isLoopInvariant(Ptr, &L)) {
    Before = Ptr;
    if (!First && !SourceReadsIt)
      return fail("the value entering the loop is no load, and the body hands loaded values on itself");
  } else {
    auto *Addr = dyn_cast<SCEVAddRecExpr>(Ptr);
    if (!Addr || Addr->getLoop() != &L || !Addr->isAffine() || !isa<SCEVConstant>(Addr->getStepRecurrence(A.SE)))
      return fail("its address is not affine in the loop's counter");
    // Iteration k reads what iteration k - 1 loaded; iteration 0, the load
    // before the loop.
    Before = A.SE.getMinusSCEV(Addr->getStart(), Addr->getStepRecurrence(A.SE));
    if (!First)
      return fail("not a plain load, or loads of one address, carried from the latch");
  }
  if (Before && First && A.SE.getSCEV(First->getPointerOperand()) != Before)
    return fail("the value entering the loop is not read from one step before");
  SCEVExpander Probe(A.SE, A.DL, "memcoro");
  if (Before && !Probe.isSafeToExpand(Before))
    return fail("the address cannot be computed before the loop");
  // The counter that says which iteration this is: an induction by one
  // that does not wrap.
  PHINode *Counter = nullptr;
  for (PHINode &P : Plan.Header->phis())
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(&P));
        AR && AR->getLoop() == &L && P.getType()->isIntegerTy() && AR->getStepRecurrence(A.SE)->isOne() &&
        (AR->hasNoUnsignedWrap() || AR->hasNoSignedWrap()))
      Counter = &P;
  if (!Counter && Before && Before != Ptr)
    return fail("no counter by one that does not wrap");
  // A writer into the offsets' own object, or one alias analysis cannot
  // trace to any object, hands a value to the next iteration through
  // memory; one that may alias only because two pointers might share an
  // array is assumed apart, as the pragma asserts.
  MemoryLocation Read(Next->getPointerOperand(), LocationSize::beforeOrAfterPointer(), Next->getAAMetadata());
  const Value *Offsets = getUnderlyingObject(Next->getPointerOperand());
  Instruction *Assumed = nullptr;
  // The objects the address is read through (the container's owner, for a
  // chain): a call given a pointer into them may mean to write there.
  SmallVector<const Value *, 4> Roots = {Offsets};
  for (Instruction *I : AddressChain)
    if (auto *Load = dyn_cast<LoadInst>(I))
      Roots.push_back(getUnderlyingObject(Load->getPointerOperand()));
  Instruction *Writer = firstWriterIn(A, L, Read, [&](const Instruction &I) {
    auto *Store = dyn_cast<StoreInst>(&I);
    if (!SourceReadsIt)
      return false;
    // A call that is given no pointer into what the address is read through
    // (the string assignment `out[i] = dict[codes_[i]]` does, out of line):
    // what it writes is the contract's, as for a call run in place.
    if (auto *Call = dyn_cast<CallBase>(&I); Call && !AddressChain.empty()) {
      bool GivenRoot = any_of(Call->args(), [&](const Use &Arg) {
        if (!Arg->getType()->isPointerTy())
          return false;
        SmallVector<const Value *, 4> Objects;
        getUnderlyingObjects(Arg.get(), Objects, &A.LI);
        return any_of(Objects, [&](const Value *O) {
          return is_contained(Roots, O) || isa<PHINode>(O) || isa<SelectInst>(O);
        });
      });
      if (GivenRoot || !Call->getCalledFunction())
        return false;
      Assumed = const_cast<Instruction *>(&I);
      return true;
    }
    // An atomic update of another object (a CSR push's degree count beside
    // the offsets it walks) is judged as a store is: the contract lets
    // iterations meet only through atomics, never a plain read.
    const Value *Written = Store && Store->isSimple()    ? Store->getPointerOperand()
                     : isa<AtomicRMWInst>(&I)            ? cast<AtomicRMWInst>(I).getPointerOperand()
                     : isa<AtomicCmpXchgInst>(&I)        ? cast<AtomicCmpXchgInst>(I).getPointerOperand()
                                                         : nullptr;
    if (!Written || A.AA.isMustAlias(MemoryLocation::getBeforeOrAfter(Written), Read))
      return false;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Written, Objects, &A.LI);
    if (any_of(Objects, [&](const Value *O) { return O == Offsets || isa<PHINode>(O) || isa<SelectInst>(O); }))
      return false;
    Assumed = const_cast<Instruction *>(&I);
    return true;
  });
  if (Writer)
    return fail("the loop may write the memory it is read from");
  Plan.CarriedLoads.push_back({Phi, Next, Counter, Before, Assumed, AddressChain});
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " carries" << *Next
                    << " to the next iteration; each iteration reads it again\n");
  return true;
}

void memcoro::readCarriedLoadsAgain(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  for (const CarriedLoad &C : Plan.CarriedLoads) {
    Value *Base = nullptr;
    if (!C.AddressChain.empty()) {
      ValueToValueMapTy Copies;
      for (Instruction *I : C.AddressChain) {
        Instruction *Copy = I->clone();
        Copy->insertBefore(Plan.Preheader->getTerminator());
        Copy->setName(I->getName() + ".once");
        RemapInstruction(Copy, Copies, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
        Copies[I] = Copy;
        Base = Copy;
      }
    } else {
      SCEVExpander Exp(A.SE, A.DL, "memcoro");
      Base = Exp.expandCodeFor(C.Before, C.Next->getPointerOperandType(), Plan.Preheader->getTerminator());
    }
    auto *Addr = dyn_cast<SCEVAddRecExpr>(A.SE.getSCEV(C.Next->getPointerOperand()));
    IRBuilder<> B(&*Plan.Header->getFirstInsertionPt());
    B.SetCurrentDebugLocation(C.Next->getDebugLoc());
    Value *At = Base;
    if (Addr && Addr->getLoop() == &Plan.L) {
      const APInt &Step = cast<SCEVConstant>(Addr->getStepRecurrence(A.SE))->getAPInt();
      Value *Start = C.Counter->getIncomingValueForBlock(Plan.Preheader);
      Value *K = B.CreateZExt(B.CreateSub(C.Counter, Start), B.getInt64Ty(), "memcoro.carried.k");
      Value *Offset = B.CreateMul(K, B.getInt64(Step.getSExtValue()));
      At = B.CreateGEP(B.getInt8Ty(), Base, Offset, C.Phi->getName() + ".at");
    }
    LoadInst *Again = B.CreateAlignedLoad(C.Next->getType(), At, C.Next->getAlign(), C.Phi->getName() + ".again");
    Again->copyMetadata(*C.Next, {LLVMContext::MD_tbaa, LLVMContext::MD_noundef});
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(RemarkPass, "CarriedLoad", remarkLocation(C.Next, Plan.L), C.Next->getParent())
             << (Addr && Addr->getLoop() == &Plan.L
                     ? "a value loaded in one iteration and handed to the next (as LLVM hands on off[u + 1] as the "
                       "next off[u]) is read again by each iteration, from where the previous one read it"
                     : "a value read again after a call and handed to the next iteration (a vector's data pointer "
                       "beside a lookup that is not inlined) is read by each iteration at its start")
             << (C.Assumed ? "; assumed, as the pragma asserts, that " + accessPlace(*C.Assumed) +
                                 " writes nothing another iteration reads there"
                           : std::string());
    });
    C.Phi->replaceAllUsesWith(Again);
    C.Phi->eraseFromParent();
    ++NumCarriedLoads;
  }
}
