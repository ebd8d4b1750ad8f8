//===- CopiesAsAccesses.cpp - small copies become loads and stores --------===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan: a copy of a few lines' worth of bytes
// (llvm.memcpy / llvm.memmove of a constant length up to
// -memcoro-copy-max bytes) becomes loads of 16-byte chunks followed by the
// stores of the same chunks.
//
//   out[i] = t[ix[i]];          call @llvm.memcpy(%out.i, %t.k, i64 64)
//                        ->     %c0 = load <2 x i64>, %t.k
//                               ...
//                               %c3 = load <2 x i64>, %t.k + 48
//                               store %c0, %out.i
//                               ...
//
// C and C++ copy a struct with a memcpy: a gather of records (a row
// materialised by a join, an embedding row, a tuple copied out of a hash
// table) was a loop without one access memcoro could see, "no access in the
// loop looks long-latency". As loads, the copy's source is an access like a
// field read: it is remote when its address is, suspends once, and the
// plan's coalescing prefetches every line it covers. The chunks are what the
// x86 backend expands a memcpy of this size into anyway; all loads come
// before all stores, so an overlapping memmove copies as it should.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumCopiesExpanded, "Number of small memcpy/memmove in marked loops turned into loads and stores");

static cl::opt<unsigned> CopyMax("memcoro-copy-max", cl::Hidden, cl::init(128),
                                 cl::desc("Longest constant-length copy in a marked loop that memcoro turns into "
                                          "loads and stores, in bytes (the x86 backend inlines up to this)"));

namespace {

Type *chunkType(LLVMContext &Ctx, unsigned Size) {
  if (Size == 16)
    return FixedVectorType::get(Type::getInt64Ty(Ctx), 2);
  return Type::getIntNTy(Ctx, Size * 8);
}

void expand(MemTransferInst &Copy, uint64_t Len) {
  IRBuilder<> B(&Copy);
  Value *Src = Copy.getRawSource(), *Dst = Copy.getRawDest();
  Align SrcAlign = Copy.getSourceAlign().valueOrOne(), DstAlign = Copy.getDestAlign().valueOrOne();
  // The copy's own type-based alias facts describe its fields one by one
  // (!tbaa.struct); a chunk may span several, so the chunks carry none, as
  // the call did not for a single access.
  SmallVector<std::pair<LoadInst *, uint64_t>, 8> Loaded;
  for (auto [Offset, Size] : byteChunks(Len, 16)) {
    Value *From = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Src, Offset);
    Loaded.push_back(
        {B.CreateAlignedLoad(chunkType(B.getContext(), Size), From, commonAlignment(SrcAlign, Offset)), Offset});
  }
  for (auto [Chunk, Offset] : Loaded)
    B.CreateAlignedStore(Chunk, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Dst, Offset),
                         commonAlignment(DstAlign, Offset));
  Copy.eraseFromParent();
  ++NumCopiesExpanded;
}

} // namespace

SmallVector<std::pair<uint64_t, unsigned>, 8> memcoro::byteChunks(uint64_t Len, unsigned Widest) {
  SmallVector<std::pair<uint64_t, unsigned>, 8> Chunks;
  uint64_t At = 0;
  for (unsigned Size = Widest; Size; Size /= 2)
    for (; Len - At >= Size; At += Size)
      Chunks.push_back({At, Size});
  return Chunks;
}

bool memcoro::expandSmallCopies(Loop &L) {
  SmallVector<std::pair<MemTransferInst *, uint64_t>, 4> Copies;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Copy = dyn_cast<MemTransferInst>(&I);
      if (!Copy)
        continue;
      auto *Len = dyn_cast<ConstantInt>(Copy->getLength());
      if (Copy->isVolatile() || !Len || Len->isZero() || Len->getZExtValue() > CopyMax) {
        LLVM_DEBUG(dbgs() << "memcoro-split: copy kept as a call (volatile, variable or long): " << *Copy << "\n");
        continue;
      }
      unsigned SrcAS = Copy->getSourceAddressSpace(), DstAS = Copy->getDestAddressSpace();
      if (SrcAS != DstAS && SrcAS != 0 && DstAS != 0) {
        LLVM_DEBUG(dbgs() << "memcoro-split: copy between two non-default address spaces kept: " << *Copy << "\n");
        continue;
      }
      Copies.push_back({Copy, Len->getZExtValue()});
    }
  for (auto &[Copy, Len] : Copies)
    expand(*Copy, Len);
  return !Copies.empty();
}
