//===- BufferAppend.cpp - appends through a buffer object -------------------===//
//
// A part of memcoro-split's legality (see SplitInternal.h), for
// SplitOrdered.cpp: appends whose counter lives in memory, as code that
// appends through an object is written,
//
//   lq.push_back(v)      if (in == size) flush(); buf[in++] = v;
//                        (GAP's QueueBuffer: `in` a member, flush() a call
//                        that copies the buffer into a shared queue)
//   out.push_back(v)     std::vector: *finish = v; ++finish, or a call
//                        that grows the storage when it is full
//   out[cnt[0]++] = v    the same in C
//
// The counter is a location the loop does not move (a member of an object
// the loop does not replace), read in every append, used for the address of
// the store that appends (the counter, or a pointer computed from it), and
// written back. Which iteration gets which place depends on the order in
// which iterations read it, so from the first read of the counter on the
// iteration runs in iteration order, as after `#pragma memcoro ordered`: the
// buffer fills as the serial loop fills it, and a call on the way (the flush,
// the vector's growth) runs in place, after every earlier iteration's
// appends and before any later one's.
//
// The counter is one field of the buffer object; the order starts at the
// first read of any of the object's fields. A vector of vectors grown on
// demand (GAP's delta-stepping bins),
//
//   if (b >= bins.size()) bins.resize(b + 1);   reads finish and start,
//   bins[b].push_back(v);                       start indexes the append
//
// stores into `finish` only on resize's shrinking path, with no value read
// from it, and the field whose value indexes the appends, `start`, is
// written only inside the growth's call: no single field is both. Together
// they are the object's counter, and a read of `start` before the order
// starts would see storage an earlier iteration's growth may have freed.
// A field nothing in the loop writes (no store to a fixed place, no call)
// is not part of it: Redis's client keeps the reply buffer's position beside
// the database and the arguments that every iteration's lookup reads first.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumBufferAppends, "Number of appends through a counter in memory run in iteration order");

// The fields of one buffer object lie within this many bytes of each other
// (std::vector's three pointers, GAP's QueueBuffer); variables farther apart
// in one global are separate objects.
static constexpr int64_t ObjectBytes = 64;

/// Whether the value of \p Counter reaches the address of a store of the
/// loop other than one back into the counter's \p Cell (if any), or a copy's
/// destination: through address arithmetic, casts, phis and selects.
bool memcoro::indexesStore(const Loop &L, Instruction *Counter, Value *Cell, const DataLayout &DL) {
  SmallVector<Instruction *, 8> Work = {Counter};
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second || Seen.size() > 32)
      continue;
    for (User *U : I->users()) {
      auto *UI = dyn_cast<Instruction>(U);
      if (!UI || !L.contains(UI))
        continue;
      if (auto *Store = dyn_cast<StoreInst>(UI)) {
        if (Store->getPointerOperand() == I && (!Cell || byteDistance(Store->getPointerOperand(), Cell, DL) != 0))
          return true;
        continue;
      }
      // A flush's copy into the shared queue.
      if (auto *Copy = dyn_cast<MemIntrinsic>(UI)) {
        if (Copy->getRawDest() == I)
          return true;
        continue;
      }
      if (isa<GetElementPtrInst>(UI) || isa<CastInst>(UI) || isa<PHINode>(UI) || isa<SelectInst>(UI) ||
          (isa<BinaryOperator>(UI) && cast<BinaryOperator>(UI)->getOpcode() == Instruction::Add))
        Work.push_back(UI);
    }
  }
  return false;
}

namespace {

/// Whether \p Phi, a header phi, carries what one place holds from one
/// iteration to the next (GVN forwarded a load past the loop's back edge):
/// every value it may have is a load of that place in the loop or a value
/// the loop stores into it, or, entering the loop, what the place holds
/// there. Fills in its phis and a load.
bool carriesLoad(const SplitAnalyses &A, const LoopPlan &Plan, PHINode *Phi, SmallVectorImpl<PHINode *> &Web,
                 LoadInst *&Sample) {
  const Loop &L = Plan.L;
  // Legality may not have recorded the loop's shape yet.
  BasicBlock *Preheader = L.getLoopPreheader();
  if (Phi->getParent() != L.getHeader() || !Preheader)
    return false;
  Web.assign(phiWeb(L, Phi));
  Value *Place = nullptr;
  SmallVector<Value *, 2> Stored;
  for (PHINode *P : Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
      Value *V = P->getIncomingValue(In);
      if (isa<PHINode>(V) && is_contained(Web, cast<PHINode>(V)))
        continue;
      if (P == Phi && P->getIncomingBlock(In) == Preheader)
        continue;
      auto *Load = dyn_cast<LoadInst>(V);
      if (!Load) {
        Stored.push_back(V);
        continue;
      }
      if (!Load->isSimple() || !L.contains(Load) || !L.isLoopInvariant(Load->getPointerOperand()) ||
          (Place && byteDistance(Place, Load->getPointerOperand(), A.DL) != 0))
        return false;
      Place = Load->getPointerOperand();
      Sample = Load;
    }
  if (!Place)
    return false;
  // The counter's increment, stored into the place and passed on.
  for (Value *V : Stored)
    if (none_of(V->users(), [&](User *U) {
          auto *Store = dyn_cast<StoreInst>(U);
          return Store && Store->isSimple() && Store->getValueOperand() == V && L.contains(Store) &&
                 byteDistance(Store->getPointerOperand(), Place, A.DL) == 0;
        }))
      return false;
  // What enters the loop is what the place holds there: a load of it, or
  // the value last stored into it (GVN forwarded one or the other).
  Value *Initial = Phi->getIncomingValueForBlock(Preheader);
  if (auto *Load = dyn_cast<LoadInst>(Initial); Load && byteDistance(Load->getPointerOperand(), Place, A.DL) == 0)
    return true;
  return any_of(Initial->users(), [&](User *U) {
    auto *Store = dyn_cast<StoreInst>(U);
    return Store && Store->getValueOperand() == Initial && !L.contains(Store) &&
           byteDistance(Store->getPointerOperand(), Place, A.DL) == 0 &&
           A.DT.dominates(Store, Preheader->getTerminator());
  });
}

} // namespace

/// The phis of the loop that \p Phi's value moves through: those it merges
/// and those that merge it.
SmallVector<PHINode *, 4> memcoro::phiWeb(const Loop &L, PHINode *Phi) {
  SmallVector<PHINode *, 4> Web = {Phi};
  for (unsigned I = 0; I < Web.size(); ++I) {
    for (Value *In : Web[I]->incoming_values())
      if (auto *P = dyn_cast<PHINode>(In); P && L.contains(P) && !is_contained(Web, P))
        Web.push_back(P);
    for (User *U : Web[I]->users())
      if (auto *P = dyn_cast<PHINode>(U); P && L.contains(P) && !is_contained(Web, P))
        Web.push_back(P);
  }
  return Web;
}

/// Whether \p Ptr is the same place in every iteration of \p L: a field at a
/// constant offset from a loop invariant (the offset's GEP may sit in the
/// loop, in an inner loop's preheader).
static bool invariantPlace(const Loop &L, Value *Ptr, const DataLayout &DL) {
  int64_t Offset = 0;
  return L.isLoopInvariant(GetPointerBaseWithConstantOffset(Ptr, Offset, DL));
}

void memcoro::recogniseBufferAppends(const SplitAnalyses &A, LoopPlan &Plan) {
  Loop &L = Plan.L;
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<StoreInst *, 8> Stores;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *Load = dyn_cast<LoadInst>(&I);
          Load && Load->isSimple() && invariantPlace(L, Load->getPointerOperand(), A.DL))
        Loads.push_back(Load);
      if (auto *Store = dyn_cast<StoreInst>(&I);
          Store && Store->isSimple() && invariantPlace(L, Store->getPointerOperand(), A.DL))
        Stores.push_back(Store);
    }
  SmallPtrSet<Value *, 4> Cells;
  for (StoreInst *Write : Stores) {
    Value *Cell = Write->getPointerOperand();
    if (!Cells.insert(Cell).second)
      continue;
    auto inObject = [&](Value *Ptr) {
      std::optional<int64_t> Distance = byteDistance(Ptr, Cell, A.DL);
      return Distance && *Distance > -ObjectBytes && *Distance < ObjectBytes;
    };
    // Where the iteration reads the counter, and the value it reads: a load
    // of it, or the use of a header phi GVN made of its loads.
    SmallVector<std::pair<Instruction *, Instruction *>, 4> Reads;
    // A field the loop never writes is no part of the counter: Redis's
    // client holds the reply buffer's position beside the database and the
    // argument vector the lookup reads first, and ordering from those reads
    // ordered whole iterations. Writes are the stores to fixed places and
    // the calls; the stores at a variable place (the reply's bytes) fill
    // the buffer, not its header.
    auto fillsBuffer = [&](const Instruction &I) {
      return isa<StoreInst>(I) ? !is_contained(Stores, &I) : !isa<CallBase>(I) || isa<MemIntrinsic>(I);
    };
    auto writtenInLoop = [&](LoadInst *Read) {
      return firstWriterIn(A, L, MemoryLocation::get(Read), fillsBuffer) != nullptr;
    };
    for (LoadInst *Read : Loads)
      if (inObject(Read->getPointerOperand()) &&
          (byteDistance(Read->getPointerOperand(), Cell, A.DL) == 0 || writtenInLoop(Read)))
        Reads.push_back({Read, Read});
    for (PHINode &Phi : L.getHeader()->phis()) {
      SmallVector<PHINode *, 4> Web;
      LoadInst *Sample = nullptr;
      if (!carriesLoad(A, Plan, &Phi, Web, Sample) || !inObject(Sample->getPointerOperand()))
        continue;
      for (PHINode *P : Web)
        for (User *U : P->users())
          if (auto *UI = dyn_cast<Instruction>(U);
              UI && L.contains(UI) && !(isa<PHINode>(UI) && is_contained(Web, cast<PHINode>(UI))))
            Reads.push_back({UI, P});
    }
    // The first reads on each path: those no other read dominates.
    SmallVector<Instruction *, 2> Starts;
    for (auto &[At, Value] : Reads)
      if (none_of(Reads, [&](auto &Other) { return Other.first != At && A.DT.dominates(Other.first, At); }) &&
          !is_contained(Starts, At))
        Starts.push_back(At);
    auto afterStart = [&](Instruction *I) {
      return any_of(Starts, [&](Instruction *S) { return S == I || A.DT.dominates(S, I); });
    };
    bool Indexes = any_of(Reads, [&](auto &R) { return indexesStore(L, R.second, Cell, A.DL); });
    if (Starts.empty() || !Indexes) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no append through" << *Write << ": its value is no store's index\n");
      continue;
    }
    if (!all_of(Stores, [&](StoreInst *S) { return !inObject(S->getPointerOperand()) || afterStart(S); }) ||
        !all_of(Reads, [&](auto &R) { return afterStart(R.first); })) {
      LLVM_DEBUG(dbgs() << "memcoro-split: no append through" << *Write
                        << ": the counter is written before it is read\n");
      continue;
    }
    for (Instruction *S : Starts)
      if (!is_contained(Plan.BufferAppendStarts, S)) {
        Plan.BufferAppendStarts.push_back(S);
        ++NumBufferAppends;
        LLVM_DEBUG(dbgs() << "memcoro-split: append through a counter in memory from" << *S << "\n");
      }
  }
}

bool memcoro::runsAfterBufferAppend(const LoopPlan &Plan, const DominatorTree &DT, const Instruction *I) {
  auto after = [&](Instruction *Start) { return Start == I || DT.dominates(Start, I); };
  return any_of(Plan.BufferAppendStarts, after) || any_of(Plan.RegisterAppendStarts, after);
}

bool memcoro::recogniseForwardedLoad(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  Loop &L = Plan.L;
  SmallVector<PHINode *, 4> Web;
  LoadInst *Sample = nullptr;
  if (Plan.BufferAppendStarts.empty() || !carriesLoad(A, Plan, Phi, Web, Sample))
    return false;
  // Used only where the iteration runs in order: there, the place holds the
  // value every earlier iteration left in it, as in the serial loop.
  for (PHINode *P : Web)
    for (User *U : P->users()) {
      auto *UI = cast<Instruction>(U);
      if (isa<PHINode>(UI) && is_contained(Web, cast<PHINode>(UI)))
        continue;
      if (!L.contains(UI) || !runsAfterBufferAppend(Plan, A.DT, UI))
        return false;
    }
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " carries a load of" << *Sample
                    << " from one iteration to the next; read again where it is used, in iteration order\n");
  Plan.Reloaded.push_back({Phi, Sample});
  return true;
}

DenseMap<Instruction *, Instruction *> memcoro::reloadForwardedLoads(const LoopPlan &Plan) {
  DenseMap<Instruction *, Instruction *> ReadAt;
  DominatorTree DT(*Plan.L.getHeader()->getParent());
  auto reloadBefore = [&](LoadInst *Sample, PHINode *Phi, Instruction *At) {
    auto *Again = new LoadInst(Sample->getType(), Sample->getPointerOperand(), Phi->getName() + ".again", false,
                               Sample->getAlign(), At->getIterator());
    Again->copyMetadata(*Sample, {LLVMContext::MD_tbaa});
    Again->setDebugLoc(At->getDebugLoc());
    return Again;
  };
  for (auto [Phi, Sample] : Plan.Reloaded) {
    SmallVector<PHINode *, 4> Web = phiWeb(Plan.L, Phi);
    DenseMap<Instruction *, Instruction *> AtStart;
    for (PHINode *P : Web) {
      // A phi after the counter's first read takes what the place holds
      // where it is; one before it, what the place holds at that read (no
      // store to the place comes before it).
      Instruction *Here = nullptr;
      if (runsAfterBufferAppend(Plan, DT, &*P->getParent()->getFirstInsertionPt()))
        Here = reloadBefore(Sample, P, &*P->getParent()->getFirstInsertionPt());
      for (Use &U : make_early_inc_range(P->uses())) {
        auto *UI = cast<Instruction>(U.getUser());
        if ((isa<PHINode>(UI) && is_contained(Web, cast<PHINode>(UI))) || !Plan.L.contains(UI))
          continue;
        if (Here) {
          U.set(Here);
          continue;
        }
        auto Start = find_if(Plan.BufferAppendStarts, [&](Instruction *S) { return S == UI || DT.dominates(S, UI); });
        Instruction *&Load = AtStart[*Start];
        if (!Load) {
          Load = reloadBefore(Sample, P, *Start);
          ReadAt.try_emplace(*Start, Load);
        }
        U.set(Load);
      }
    }
    for (PHINode *P : Web)
      P->replaceUsesWithIf(PoisonValue::get(P->getType()), [&](Use &U) {
        return Plan.L.contains(cast<Instruction>(U.getUser()));
      });
  }
  return ReadAt;
}
