//===- FetchedLines.cpp - accesses whose line the iteration already fetched ===//
//
// A part of memcoro-split's plan (SplitPlan.cpp, see SplitInternal.h): which
// remote accesses need no suspension because the iteration has already
// brought their cache line in. The plan's own rule covers a field of a record
// read right after another field of it, in the same phase. Library containers
// walk their nodes through phis and selects, where that rule sees nothing:
//
//   std::map::find         key = n->key; n = key < k ? n->right : n->left;
//                          (one node, the child's offset a select of 16, 24)
//                          and after the walk y->key, y->value, where y is
//                          the last node the walk went left at
//   unordered_map::find    p = prev->next; ... p->key ...; p = p->next;
//                          and it->second, it a phi of the nodes tested
//
// Each of those accesses reads a node whose key the iteration has just
// compared: a yield there costs a switch through the scheduler and a slot's
// saves and restores, and brings nothing in. So:
//
//   - a pointer `base + off`, off a select of constants, is as close to a
//     field at `base + c` as its farthest off;
//   - an access through a phi or select of pointers is covered when every
//     pointer it may be was accessed (within a line of the same field)
//     earlier in this iteration, on the way to where the phi or select picks
//     it (loop invariants count: the first iteration brought them in);
//   - an element of an array through a phi or select of indices (a
//     cuckoo or open-addressing probe's `t[i].val`, i the bucket whose key
//     matched) is covered when the iteration read each index's element in
//     the same granule earlier (IndexChoice);
//   - where the covered field lies in another granule than the field that
//     was fetched (a node's value after its key), that earlier access's
//     suspension also prefetches the covered field's line. A granule is the
//     alignment the object is known to start at, at most 16 bytes: an object
//     that a pointer names (a heap block) is 16-byte aligned; an element of an
//     array keeps only what its stride leaves (24-byte records: 8), so that
//     one prefetch never stands for a field on another line, which costs a
//     full miss in the visit (docs/bench.md, 2.4x on a ring of walks).
//
// Far memory under the software AMU (address space 1) is not cached this way
// and keeps its suspensions.
//
// An access to a pointer that the iteration accessed on every way to it
// (a word read on each side of a branch, then stored: a std::vector<bool>
// element assigned a computed bit) needs no suspension either; with one
// there, other iterations ran between the word's read and its write.
//
// The plan's own rule asks sameLine() here too: the geometry of fields,
// records and lines lives in this one file.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumFetchedInIteration, "Number of remote accesses to a node the iteration already fetched");

namespace {

constexpr int64_t GranuleBytes = 16;

int64_t floorDiv(int64_t X, int64_t D) { return X >= 0 ? X / D : -((-X + D - 1) / D); }

/// The alignment, at most GranuleBytes, that the object at \p Base is known
/// to start at: each step of address arithmetic that leads to it keeps only
/// the power of two its stride (times the index's known trailing zeros) or
/// its constant offset leaves.
int64_t granuleOf(const Value *Base, const DataLayout &DL) {
  int64_t Granule = GranuleBytes;
  auto keep = [&](uint64_t Step) {
    if (Step)
      Granule = std::min<int64_t>(Granule, Step & -Step);
  };
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    Base = Base->stripPointerCasts();
    auto *GEP = dyn_cast<GEPOperator>(Base);
    if (!GEP)
      return Granule;
    for (gep_type_iterator T = gep_type_begin(GEP), E = gep_type_end(GEP); T != E; ++T) {
      const Value *Index = T.getOperand();
      if (StructType *ST = T.getStructTypeOrNull()) {
        keep(DL.getStructLayout(ST)->getElementOffset(cast<ConstantInt>(Index)->getZExtValue()));
        continue;
      }
      uint64_t Size = T.getSequentialElementStride(DL).getFixedValue();
      if (auto *C = dyn_cast<ConstantInt>(Index))
        keep(uint64_t(C->getSExtValue()) * Size);
      else
        keep(Size << std::min(computeKnownBits(Index, DL).countMinTrailingZeros(), 4u));
    }
    Base = GEP->getPointerOperand();
  }
  return 1;
}

/// Every constant \p V may be: a constant, or a select of two.
bool constantChoices(Value *V, SmallVectorImpl<int64_t> &Out) {
  if (auto *C = dyn_cast<ConstantInt>(V)) {
    Out.push_back(C->getSExtValue());
    return true;
  }
  auto *Sel = dyn_cast<SelectInst>(V);
  return Sel && constantChoices(Sel->getTrueValue(), Out) && constantChoices(Sel->getFalseValue(), Out);
}

/// The bytes \p Ptr may point at, as offsets from a base pointer: constant
/// GEP indices add to both ends; a variable index into an array field of a
/// record (`b->tuples[j]` of a fixed-size bucket) spans the whole array, which
/// an inbounds GEP cannot leave.
std::optional<std::tuple<const Value *, int64_t, int64_t>> byteSpan(const Value *Ptr, const DataLayout &DL) {
  int64_t Lo = 0, Hi = 0;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    int64_t Off = 0;
    Ptr = GetPointerBaseWithConstantOffset(Ptr, Off, DL);
    Lo += Off;
    Hi += Off;
    auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP || !GEP->isInBounds())
      return std::tuple{Ptr, Lo, Hi};
    // The first index steps over whole objects; each later one into the
    // aggregate the previous one reached.
    Type *Aggregate = nullptr;
    for (gep_type_iterator T = gep_type_begin(GEP), E = gep_type_end(GEP); T != E; ++T) {
      const Value *Index = T.getOperand();
      if (StructType *ST = T.getStructTypeOrNull()) {
        unsigned Field = cast<ConstantInt>(Index)->getZExtValue();
        int64_t FieldOff = DL.getStructLayout(ST)->getElementOffset(Field);
        Lo += FieldOff;
        Hi += FieldOff;
      } else {
        int64_t Size = T.getSequentialElementStride(DL).getFixedValue();
        if (auto *C = dyn_cast<ConstantInt>(Index)) {
          Lo += C->getSExtValue() * Size;
          Hi += C->getSExtValue() * Size;
        } else {
          auto *Array = dyn_cast_or_null<ArrayType>(Aggregate);
          if (!Array || Array->getNumElements() == 0)
            return std::nullopt;
          Hi += int64_t(Array->getNumElements() - 1) * Size;
        }
      }
      Aggregate = T.getIndexedType();
    }
    Ptr = GEP->getPointerOperand();
  }
  return std::nullopt;
}

/// Whether every field \p Late may be lies within a cache line of one of
/// \p Early's, on the same base.
bool withinLineOf(const FieldOffsets &Late, const FieldOffsets &Early) {
  if (Late.Base != Early.Base)
    return false;
  return all_of(Late.Offsets, [&](int64_t O) {
    return any_of(Early.Offsets, [&](int64_t C) { return std::abs(O - C) < LineBytes; });
  });
}

} // namespace

bool memcoro::sameLine(Value *Late, Value *Early, const DataLayout &DL) {
  // Constant offsets from one base, or spans of one record's fields and
  // arrays (e->key, then e->next; a bucket's count, then its tuples[j]).
  if (std::optional<int64_t> Distance = byteDistance(Late, Early, DL)) {
    if (std::abs(*Distance) < LineBytes)
      return true;
  } else if (auto SpanA = byteSpan(Late, DL), SpanB = byteSpan(Early, DL);
             SpanA && SpanB && std::get<0>(*SpanA) == std::get<0>(*SpanB) &&
             std::max(std::get<2>(*SpanA), std::get<2>(*SpanB)) - std::min(std::get<1>(*SpanA), std::get<1>(*SpanB)) <
                 LineBytes) {
    return true;
  }
  // A tree node's child chosen by a select of field offsets.
  return withinLineOf(fieldOffsets(Late, DL), fieldOffsets(Early, DL));
}

FieldOffsets memcoro::fieldOffsets(Value *Ptr, const DataLayout &DL) {
  FieldOffsets F;
  int64_t Constant = 0;
  Value *Base = const_cast<Value *>(GetPointerBaseWithConstantOffset(Ptr, Constant, DL));
  F.Offsets.push_back(Constant);
  // One more step: a GEP whose only index is a select of constants.
  if (auto *GEP = dyn_cast<GEPOperator>(Base); GEP && GEP->getNumIndices() == 1 &&
                                              GEP->getSourceElementType()->isSized()) {
    SmallVector<int64_t, 2> Choices;
    if (constantChoices(GEP->idx_begin()->get(), Choices)) {
      int64_t Scale = DL.getTypeAllocSize(GEP->getSourceElementType()).getFixedValue();
      F.Offsets.clear();
      for (int64_t C : Choices)
        F.Offsets.push_back(Constant + C * Scale);
      Base = const_cast<Value *>(GetPointerBaseWithConstantOffset(GEP->getPointerOperand(), Constant, DL));
      for (int64_t &O : F.Offsets)
        O += Constant;
    }
  }
  F.Base = Base;
  return F;
}

void memcoro::noteOtherGranules(const FieldOffsets &Late, Instruction *Early, const DataLayout &DL,
                                SmallVectorImpl<FetchedField> &Extra) {
  Value *Ptr = accessedPointer(*Early);
  FieldOffsets Got = fieldOffsets(Ptr, DL);
  if (Ptr->getType()->getPointerAddressSpace() != 0 || Got.Base != Late.Base || Got.Offsets.size() != 1)
    return;
  int64_t C = Got.Offsets.front(), Bytes = granuleOf(Late.Base, DL);
  for (int64_t O : Late.Offsets) {
    int64_t Granule = floorDiv(O, Bytes);
    if (Granule == floorDiv(C, Bytes) || any_of(Extra, [&](const FetchedField &F) {
          return F.By == Early && floorDiv(C + F.Offset, Bytes) == Granule;
        }))
      continue;
    Extra.push_back({Early, O - C});
  }
}

bool memcoro::withinOneGranule(Value *A, Value *B, const DataLayout &DL) {
  FieldOffsets FA = fieldOffsets(A, DL), FB = fieldOffsets(B, DL);
  return A->getType()->getPointerAddressSpace() == 0 && B->getType()->getPointerAddressSpace() == 0 && FA.Base &&
         FA.Base == FB.Base && FA.Offsets.size() == 1 && FB.Offsets.size() == 1 &&
         floorDiv(FA.Offsets.front(), granuleOf(FA.Base, DL)) == floorDiv(FB.Offsets.front(), granuleOf(FA.Base, DL));
}

namespace {

/// Follows the pointers a phi or select may pass on, back to accesses of
/// them earlier in the iteration.
class IterationFetches {
public:
  IterationFetches(const SplitAnalyses &A, const LoopPlan &Plan, SmallVectorImpl<FetchedField> &Extra)
      : A(A), L(Plan.L), Extra(Extra) {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        if (Value *Ptr = accessedPointer(I); Ptr && Ptr->getType()->getPointerAddressSpace() == 0)
          Accesses.push_back(&I);
  }

  /// Whether the iteration has accessed \p V + each of \p Offsets (within a
  /// line) by the time it reaches \p UsePoint: directly, or, for a phi or
  /// select, each pointer it may pass on by the time it picks one.
  bool fetched(Value *V, ArrayRef<int64_t> Offsets, Instruction *UsePoint, const Instruction *Late) {
    if (L.isLoopInvariant(V))
      return true;
    FieldOffsets Wanted{V, SmallVector<int64_t, 2>(Offsets.begin(), Offsets.end())};
    for (Instruction *E : Accesses) {
      if (E == Late || !A.DT.dominates(E, UsePoint))
        continue;
      // The pointer itself, however it is computed (a std::vector<bool>
      // word whose address selects -8 for a negative index): read, then
      // written back through a phi of the paths' pointers.
      Value *Ptr = accessedPointer(*E);
      FieldOffsets Got = Ptr == V ? FieldOffsets{V, {0}} : fieldOffsets(Ptr, A.DL);
      if (Got.Offsets.size() != 1 || !withinLineOf(Wanted, Got))
        continue;
      noteOtherGranules(Wanted, E, A.DL, Extra);
      return true;
    }
    if (auto *Phi = dyn_cast<PHINode>(V); Phi && L.contains(Phi)) {
      // Round a cycle of phis: what enters it from elsewhere decides.
      if (!Visiting.insert(Phi).second)
        return true;
      for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In)
        if (!fetched(Phi->getIncomingValue(In), Offsets, Phi->getIncomingBlock(In)->getTerminator(), Late))
          return false;
      return true;
    }
    if (auto *Sel = dyn_cast<SelectInst>(V); Sel && L.contains(Sel))
      return fetched(Sel->getTrueValue(), Offsets, Sel, Late) && fetched(Sel->getFalseValue(), Offsets, Sel, Late);
    return false;
  }

private:
  const SplitAnalyses &A;
  Loop &L;
  SmallVectorImpl<FetchedField> &Extra;
  SmallVector<Instruction *, 16> Accesses;
  SmallPtrSet<PHINode *, 8> Visiting;
};

} // namespace

namespace {

/// `t[i].val`, i a phi or select of indices into one array, each of which
/// the iteration used for an access to the same granule of its element
/// earlier, on the way to where i picks it: an open-addressing or cuckoo
/// probe reads t[h].key for each candidate h, then the value of the one that
/// matched (`i = t[h1].key == k ? h1 : h2`). Indices, where the nodes of
/// IterationFetches are pointers.
class IndexChoice {
public:
  IndexChoice(const SplitAnalyses &A, const Loop &L, GetElementPtrInst &Late) : A(A), L(L), Late(Late) {}

  bool fetched(int64_t LateFirst, int64_t LateLast) {
    Value *Base = Late.getPointerOperand();
    int64_t Stride = int64_t(A.DL.getTypeAllocSize(Late.getSourceElementType()).getFixedValue());
    if (!L.isLoopInvariant(Base) || Stride <= 0)
      return false;
    Granule = std::min(granuleOf(Base, A.DL), Stride & -Stride);
    First = floorDiv(LateFirst, Granule);
    if (floorDiv(LateLast, Granule) != First)
      return false;
    Value *Choice = Late.idx_begin()->get();
    return (isa<PHINode>(Choice) || isa<SelectInst>(Choice)) && L.contains(cast<Instruction>(Choice)) &&
           chosen(Choice, &Late);
  }

  /// The offset of \p GEP's trailing indices within the element its first
  /// index picks, when they are constants.
  std::optional<int64_t> offsetInElement(GetElementPtrInst &GEP) const {
    SmallVector<Value *, 4> Indices = {ConstantInt::get(Type::getInt64Ty(GEP.getContext()), 0)};
    for (auto It = std::next(GEP.idx_begin()); It != GEP.idx_end(); ++It) {
      if (!isa<ConstantInt>(It->get()))
        return std::nullopt;
      Indices.push_back(It->get());
    }
    return int64_t(A.DL.getIndexedOffsetInType(GEP.getSourceElementType(), Indices));
  }

private:
  bool chosen(Value *Index, Instruction *UsePoint) {
    if (auto *Phi = dyn_cast<PHINode>(Index); Phi && L.contains(Phi)) {
      if (!Visiting.insert(Phi).second)
        return true;
      for (unsigned In = 0; In < Phi->getNumIncomingValues(); ++In)
        if (!chosen(Phi->getIncomingValue(In), Phi->getIncomingBlock(In)->getTerminator()))
          return false;
      return true;
    }
    if (auto *Sel = dyn_cast<SelectInst>(Index); Sel && L.contains(Sel))
      return chosen(Sel->getTrueValue(), Sel) && chosen(Sel->getFalseValue(), Sel);
    // An access through the same array at this index, earlier, to the same
    // granule of the element.
    for (User *U : Index->users()) {
      auto *GEP = dyn_cast<GetElementPtrInst>(U);
      if (!GEP || GEP == &Late || GEP->getPointerOperand() != Late.getPointerOperand() ||
          GEP->getSourceElementType() != Late.getSourceElementType() || GEP->idx_begin()->get() != Index)
        continue;
      std::optional<int64_t> Offset = offsetInElement(*GEP);
      if (!Offset || floorDiv(*Offset, Granule) != First)
        continue;
      if (any_of(GEP->users(), [&](User *Access) {
            auto *Load = dyn_cast<LoadInst>(Access);
            return Load && L.contains(Load) && A.DT.dominates(Load, UsePoint);
          }))
        return true;
    }
    return false;
  }

  const SplitAnalyses &A;
  const Loop &L;
  GetElementPtrInst &Late;
  int64_t Granule = GranuleBytes, First = 0;
  SmallPtrSet<PHINode *, 8> Visiting;
};

} // namespace

/// Whether every way from the loop's header to \p Late passes an access to
/// \p Ptr itself, or to its granule, in the same iteration: a word read on
/// each side of a branch and stored after it (a std::vector<bool> element
/// set or cleared), which no one of the reads dominates.
static bool accessedOnEveryPath(const SplitAnalyses &A, const Loop &L, Instruction *Late, Value *Ptr) {
  if (A.LI.getLoopFor(Late->getParent()) != &L)
    return false;
  auto accesses = [&](Instruction &I) {
    Value *Other = &I == Late ? nullptr : accessedPointer(I);
    return Other && (Other == Ptr || withinOneGranule(Other, Ptr, A.DL));
  };
  for (Instruction *I = Late->getPrevNode(); I; I = I->getPrevNode())
    if (accesses(*I))
      return true;
  SmallVector<BasicBlock *, 8> Work;
  SmallPtrSet<BasicBlock *, 16> Seen;
  auto stepBack = [&](BasicBlock *BB) {
    if (BB == L.getHeader())
      return false;
    append_range(Work, predecessors(BB));
    return true;
  };
  if (!stepBack(Late->getParent()))
    return false;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second || any_of(*BB, accesses))
      continue;
    if (!L.contains(BB) || !stepBack(BB))
      return false;
  }
  return true;
}

bool memcoro::fetchedEarlierInIteration(const SplitAnalyses &A, const LoopPlan &Plan, Instruction *Late,
                                        SmallVectorImpl<FetchedField> &Extra) {
  Value *Ptr = accessedPointer(*Late);
  if (!Ptr || Ptr->getType()->getPointerAddressSpace() != 0)
    return false;
  if (accessedOnEveryPath(A, Plan.L, Late, Ptr)) {
    LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *Late
                      << ": every way to it accessed its line earlier in the iteration\n");
    ++NumFetchedInIteration;
    return true;
  }
  if (auto *Load = dyn_cast<LoadInst>(Late); Load && Load->isSimple())
    if (auto *GEP = dyn_cast<GetElementPtrInst>(Ptr); GEP && GEP->getNumIndices() >= 1) {
      IndexChoice Choice(A, Plan.L, *GEP);
      std::optional<int64_t> Offset = Choice.offsetInElement(*GEP);
      int64_t Size = int64_t(A.DL.getTypeStoreSize(Load->getType()).getFixedValue());
      if (Offset && Choice.fetched(*Offset, *Offset + Size - 1)) {
        LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *Late
                          << ": every element it may read was fetched earlier in the iteration\n");
        ++NumFetchedInIteration;
        return true;
      }
    }
  FieldOffsets F = fieldOffsets(Ptr, A.DL);
  if (!(isa<PHINode>(F.Base) || isa<SelectInst>(F.Base)) || !Plan.L.contains(cast<Instruction>(F.Base)))
    return false;
  SmallVector<FetchedField, 2> Found;
  if (!IterationFetches(A, Plan, Found).fetched(F.Base, F.Offsets, Late, Late))
    return false;
  LLVM_DEBUG(dbgs() << "memcoro-split: no suspension at" << *Late
                    << ": every node it may read was fetched earlier in the iteration\n");
  ++NumFetchedInIteration;
  append_range(Extra, Found);
  return true;
}
