//===- SplitFrame.cpp - what a coroutine slot holds ------------------------===//
//
// The frame step of memcoro-split (see SplitInternal.h), run by the lowering
// once the loop body is cut at its suspension points. A slot is the frame of
// one in-flight iteration, reused by the next iteration when this one ends
// (CoroAMU III-B, context minimisation):
//
//   - saved: a value defined in the iteration and live into the block a
//     suspension resumes in (SSA liveness on the iteration's CFG, back edge
//     cut). Loop invariants are used in place; reductions live in shared
//     accumulators; neither takes a field.
//   - stored once: a saved value with one instance per iteration (defined
//     outside the loop's inner loops) is stored where it is defined, not at
//     every suspension it crosses.
//   - preserved: a value restored at the last resume and not redefined since
//     is still in the slot; storing it again is dropped (continuation reuse,
//     the .NET seed).
//   - rematerialised: a pure function of other saved values (&base[half],
//     len / 2) is recomputed on resume rather than stored; so is a value
//     computed from the iteration number, when the scheduler knows it at the
//     resume (the pipeline; FromIteration.cpp).
//   - folded: a reduction's running part live across a suspension (a probe's
//     match count inside its chain walk) is combined into the shared
//     accumulator there and starts again from the identity on resume, as
//     hand-written AMAC adds into one register: no slot field, no store, no
//     reload.
//   - private stack memory: an object declared in the loop body gets one copy
//     per slot.
//
// The layout is { scheduler's header fields, one field per stored value },
// and the slots are an alloca of N of them in the entry block: no heap. See
// the slot type in
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "RemoteAccesses.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#include <functional>

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumPrivatized, "Number of stack objects given one copy per slot");
STATISTIC(NumPreservedSaves, "Number of saves dropped because the slot still holds the value");
STATISTIC(NumFoldedPartials, "Number of reduction parts folded into their accumulator at a suspension");

Value *memcoro::emitReductionFold(IRBuilder<> &B, const Reduction &R, Value *Total, Value *Part) {
  Value *Folded = R.IsIntrinsic ? B.CreateBinaryIntrinsic(R.Opcode, Total, Part)
                                : B.CreateBinOp(static_cast<Instruction::BinaryOps>(R.Opcode), Total, Part);
  if (auto *FP = dyn_cast<Instruction>(Folded); FP && R.ReassocSource)
    FP->copyFastMathFlags(R.ReassocSource);
  return Folded;
}

/// Every update of a reduction combines the running part with one value by
/// one associative, commutative operation (legality), so what is left of the
/// iteration after a suspension turns a running part v into v op d, with d
/// what it would compute from the identity. When v is the only part of its
/// reduction live there, folding v into the accumulator at the suspension
/// and going on from the identity adds the same. Not floating point: more
/// parts, folded in another order, round differently from one run to the
/// next; not a checked update: its check would see other parts; not with
/// early exits: an iteration past the exit must contribute nothing.
void CoroutineFrame::foldPartialsInto(ArrayRef<AllocaInst *> Accs) {
  Accumulators = Accs;
  if (!Plan.EarlyExits.empty() || Plan.ExitAtLaunch) {
    LLVM_DEBUG(dbgs() << "memcoro-split: reductions' running parts are saved, not folded: the loop has exits\n");
    return;
  }
  for (unsigned R = 0; R < Plan.Reductions.size(); ++R) {
    const Reduction &Red = Plan.Reductions[R];
    if (Red.OverflowCheck || Red.Phi->getType()->isFPOrFPVectorTy()) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the running part of" << *Red.Phi
                        << " is saved, not folded: floating point or a checked update\n");
      continue;
    }
    SmallVector<Instruction *, 8> Work = {Red.Phi};
    while (!Work.empty())
      for (User *U : Work.pop_back_val()->users())
        if (auto *UI = dyn_cast<Instruction>(U);
            UI && Plan.L.contains(UI) && !isa<StoreInst>(UI) && PartialOf.try_emplace(UI, R).second)
          Work.push_back(UI);
  }
}

void CoroutineFrame::privatizeStackMemory(IRBuilder<> &IB, AllocaInst *SlotIndex) {
  Function &F = A.F;
  const DataLayout &DL = A.DL;
  const unsigned N = slotArrayLength();
  Type *I64 = IB.getInt64Ty();
  // Each slot's own copy, padded so that every copy keeps the original's
  // alignment.
  for (AllocaInst *Alloca : Plan.PrivateAllocas) {
    uint64_t Bytes = *Alloca->getAllocationSize(DL);
    uint64_t Stride = alignTo(std::max<uint64_t>(Bytes, 1), Alloca->getAlign());
    auto *Copies = new AllocaInst(ArrayType::get(IB.getInt8Ty(), Stride * N), DL.getAllocaAddrSpace(),
                                  nullptr, Alloca->getAlign(), Alloca->getName() + ".memcoro.private",
                                  F.getEntryBlock().getFirstInsertionPt());
    Value *Own = IB.CreateInBoundsGEP(IB.getInt8Ty(), Copies,
                                      IB.CreateMul(IB.CreateLoad(I64, SlotIndex), ConstantInt::get(I64, Stride)),
                                      Alloca->getName() + ".own");
    // Lifetime markers must name an alloca; the copies live as long as the loop.
    SmallVector<Instruction *, 4> Markers;
    for (User *U : Alloca->users())
      if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
        Markers.push_back(II);
    for (Instruction *Marker : Markers)
      Marker->eraseFromParent();
    // Address arithmetic hoisted out of the loop moves back in, after Own,
    // operands first.
    SmallVector<Instruction *, 8> Hoisted;
    SmallVector<Instruction *, 8> Work = {Alloca};
    while (!Work.empty())
      for (User *U : Work.pop_back_val()->users())
        if (auto *UI = dyn_cast<Instruction>(U);
            UI && !Plan.L.contains(UI) && (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI)) &&
            !is_contained(Hoisted, UI)) {
          Hoisted.push_back(UI);
          Work.push_back(UI);
        }
    Alloca->replaceAllUsesWith(Own);
    Alloca->eraseFromParent();
    for (Instruction *H : Hoisted) {
      H->removeFromParent();
      IB.Insert(H);
    }
    ++NumPrivatized;
  }
}

void CoroutineFrame::recordInnerLoopValues() {
  for (BasicBlock *BB : Plan.L.blocks())
    if (A.LI.getLoopFor(BB) != &Plan.L)
      for (Instruction &I : *BB)
        InInnerLoop.insert(&I);
}

void CoroutineFrame::computeSavedValues(BasicBlock *IterStart, BasicBlock *IterEnd, ArrayRef<BasicBlock *> Posts) {
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
  for (unsigned J = 0; J < Posts.size(); ++J)
    PostIndex[Posts[J]] = J;

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
  // A running part is folded where it is the only part of its reduction
  // live across every suspension it crosses.
  for (Instruction *V : Saved) {
    auto It = PartialOf.find(V);
    if (It == PartialOf.end())
      continue;
    bool Alone = all_of(SavedAt[V], [&](unsigned J) {
      return none_of(Saved, [&](Instruction *W) {
        auto Other = PartialOf.find(W);
        return W != V && Other != PartialOf.end() && Other->second == It->second && is_contained(SavedAt[W], J);
      });
    });
    if (Alone)
      Folded.insert(V);
    else
      LLVM_DEBUG(dbgs() << "memcoro-split: saved, not folded: another running part of its reduction is live across"
                        << " a suspension with" << *V << "\n");
  }
  for (Instruction *V : Folded)
    Saved.remove(V);
  NumFoldedPartials += Folded.size();
  if (IterationKnownAtResume)
    FromIteration = recomputableFromIteration(A, Plan, Region, Posts, Iteration, Saved.getArrayRef(),
                                              [&](Instruction *V) { return ArrayRef<unsigned>(SavedAt[V]); });
  chooseRematerialized();
}

/// A saved address or index that is a pure function of other saved values
/// (&base[half] from base and half, half from len) costs a store at every
/// suspension and a load at every resume; recomputing it on resume costs an
/// instruction or two. Not a division: a hash table's bucket `h % n` takes
/// tens of cycles, more than the store and load. The value must be computable
/// at every suspension it crosses, so each in-iteration operand must itself
/// be saved there.
void CoroutineFrame::chooseRematerialized() {
  auto divides = [](Instruction *V) {
    return V->isIntDivRem() || V->getOpcode() == Instruction::FDiv || V->getOpcode() == Instruction::FRem;
  };
  for (Instruction *V : Saved)
    if (FromIteration.contains(V) ||
        ((isa<GetElementPtrInst>(V) || isa<CastInst>(V) || isa<BinaryOperator>(V) || isa<CmpInst>(V)) &&
         !V->mayHaveSideEffects() && !divides(V)))
      Rematerialized.insert(V);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction *V : make_early_inc_range(Rematerialized)) {
      if (FromIteration.contains(V))
        continue;
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

void CoroutineFrame::layOutSlots(ArrayRef<Type *> HeaderFields) {
  SmallVector<Type *, 8> Fields(HeaderFields);
  HeaderFieldCount = HeaderFields.size();
  for (Instruction *V : Stored)
    Fields.push_back(V->getType());
  LLVMContext &Ctx = A.F.getContext();
  ContextBytes = A.DL.getTypeAllocSize(StructType::get(Ctx, Fields)).getFixedValue();
  // Slots a multiple of 16 bytes apart ran their rounds slower on Zen 4, by
  // the stride alone: the compact ring of bs at 1 MiB (32-byte slots) at
  // 21.3-22.5 ns an op and at 18.2-19.6 with slots of 40 or 56 bytes (48 and
  // 64: as slow as 32), ptrchase's (24 bytes) at 0.80-0.93 ns, and 1.07-1.10
  // with slots of 32. Hand-written AMAC with 32-byte slots runs at the fast
  // speed; its slot addresses are computed into a register, where memcoro's
  // are stack-pointer-relative accesses, which the core's store-to-load
  // prediction treats otherwise. Such a slot gets 8 bytes more.
  if (ContextBytes && ContextBytes % 16 == 0)
    Fields.push_back(Type::getInt64Ty(Ctx));
  SlotTy = StructType::create(Ctx, Fields, "memcoro.slot");
  SlotArrayTy = ArrayType::get(SlotTy, slotArrayLength());
  Slots = new AllocaInst(SlotArrayTy, A.DL.getAllocaAddrSpace(), "memcoro.slots",
                         A.F.getEntryBlock().getFirstInsertionPt());
}

Value *CoroutineFrame::fieldPtr(IRBuilder<> &B, Value *Slot, unsigned Field) const {
  return B.CreateInBoundsGEP(SlotArrayTy, Slots, {B.getInt64(0), Slot, B.getInt32(Field)});
}

void CoroutineFrame::emitSaves(IRBuilder<> &B, Value *Slot, unsigned J) {
  for (Instruction *V : Folded)
    if (is_contained(SavedAt[V], J)) {
      AllocaInst *Acc = Accumulators[PartialOf.lookup(V)];
      const Reduction &R = Plan.Reductions[PartialOf.lookup(V)];
      B.CreateStore(emitReductionFold(B, R, B.CreateLoad(Acc->getAllocatedType(), Acc), V), Acc);
    }
  for (unsigned Field = 0; Field < Stored.size(); ++Field)
    if (is_contained(SavedAt[Stored[Field]], J) && InInnerLoop.contains(Stored[Field]))
      SaveStores.push_back({B.CreateStore(Stored[Field], savedFieldPtr(B, Slot, Field)), Field});
}

void CoroutineFrame::emitRestores(IRBuilder<> &B, Value *Slot, unsigned J, Value *IterationHere) {
  for (unsigned Field = 0; Field < Stored.size(); ++Field)
    if (is_contained(SavedAt[Stored[Field]], J))
      Restored[{Stored[Field], J}] = B.CreateLoad(Stored[Field]->getType(), savedFieldPtr(B, Slot, Field),
                                                  Stored[Field]->getName() + ".restored");
  // Cheap values are recomputed from the restored ones, operands first; a
  // value recomputed from the iteration number from that number, and the
  // instructions that only feed it (the reload of keys[k]) once per resume,
  // not as restored values of their own.
  std::function<Instruction *(Instruction *)> remat, fromIteration;
  auto clone = [&](Instruction *V) {
    Instruction *Copy = V->clone();
    for (Use &Op : Copy->operands())
      if (auto *OpI = dyn_cast<Instruction>(Op.get()); OpI && Saved.contains(OpI))
        Op.set(remat(OpI));
      else if (OpI && FromIteration.contains(OpI))
        Op.set(fromIteration(OpI));
      else if (Op.get() == Iteration && FromIteration.contains(V))
        Op.set(IterationHere);
    B.Insert(Copy, V->getName() + ".remat");
    return Copy;
  };
  remat = [&](Instruction *V) -> Instruction * {
    auto Known = Restored.find({V, J});
    if (Known != Restored.end())
      return Known->second;
    Instruction *Copy = clone(V);
    return Restored[{V, J}] = Copy;
  };
  DenseMap<Instruction *, Instruction *> Recomputed;
  fromIteration = [&](Instruction *V) -> Instruction * {
    if (Saved.contains(V))
      return remat(V);
    if (Instruction *Known = Recomputed.lookup(V))
      return Known;
    Instruction *Copy = clone(V);
    return Recomputed[V] = Copy;
  };
  for (Instruction *V : Saved)
    if (Rematerialized.contains(V) && is_contained(SavedAt[V], J))
      remat(V);
}

void CoroutineFrame::emitOncePerIterationSaves(AllocaInst *SlotIndex) {
  for (unsigned Field = 0; Field < Stored.size(); ++Field) {
    Instruction *V = Stored[Field];
    if (InInnerLoop.contains(V))
      continue;
    IRBuilder<> VB(V->getParent(), isa<PHINode>(V) ? V->getParent()->getFirstInsertionPt()
                                                   : std::next(V->getIterator()));
    // An invoke's result (a callee copied in with its landing pads: the
    // string hash of unordered_map<string, T>::find) exists on its normal
    // edge only.
    if (auto *Invoke = dyn_cast<InvokeInst>(V)) {
      BasicBlock *Normal = Invoke->getNormalDest();
      if (!Normal->getSinglePredecessor())
        Normal = SplitCriticalEdge(Invoke, 0);
      VB.SetInsertPoint(Normal, Normal->getFirstInsertionPt());
    }
    VB.SetCurrentDebugLocation(V->getDebugLoc());
    VB.CreateStore(V, savedFieldPtr(VB, VB.CreateLoad(VB.getInt64Ty(), SlotIndex), Field));
  }
}

/// Each saved value now has several definitions: the original, and one
/// reload per suspension it crosses. SSAUpdater rebuilds the phis.
void CoroutineFrame::repairSSA(ArrayRef<BasicBlock *> Resumes) {
  for (Instruction *V : concat<Instruction *const>(Saved.getArrayRef(), Folded.getArrayRef())) {
    SSAUpdater Updater;
    Updater.Initialize(V->getType(), V->getName());
    Updater.AddAvailableValue(V->getParent(), V);
    // A folded part goes on from the identity.
    for (unsigned J : SavedAt[V])
      Updater.AddAvailableValue(Resumes[J], Folded.contains(V)
                                                ? static_cast<Value *>(Plan.Reductions[PartialOf.lookup(V)].Identity)
                                                : Restored[{V, J}]);
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
void CoroutineFrame::dropPreservedSaves() {
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
