//===- ComparesAsAccesses.cpp - small equality compares become loads ------===//
//
// A step of memcoro-split (see SplitInternal.h), run on a marked loop before
// legality and the plan, beside CopiesAsAccesses.cpp: a call to bcmp, or to
// memcmp whose result is only tested against zero, of a constant length up
// to -memcoro-compare-max bytes, becomes loads of both sides' chunks and an
// equality test of them.
//
//   if (memcmp(leaf->key, key, 8) == 0)     %r = call i32 @bcmp(%leaf, %key, i64 8)
//                                   ->      %a = load i64, %leaf
//                                           %b = load i64, %key
//                                           %r = zext (icmp ne %a, %b) to i32
//
// An index compares a record's key with the one it looks for (an adaptive
// radix tree's leaf, a string-keyed bucket's entry) with memcmp, which LLVM
// makes a bcmp call and the backend expands into these loads only after
// memcoro ran: the record's line was a miss inside a call run in place, where
// the iteration cannot suspend. As loads, it is an access like a field read:
// remote when its address is, it suspends once and its line is prefetched.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumComparesExpanded, "Number of small bcmp/memcmp equality tests in marked loops turned into loads");

static cl::opt<unsigned> CompareMax("memcoro-compare-max", cl::Hidden, cl::init(32),
                                    cl::desc("Longest constant-length bcmp/memcmp equality test in a marked loop "
                                             "that memcoro turns into loads, in bytes"));

namespace {

/// Whether \p Call is bcmp, or memcmp whose result only meets zero in an
/// equality test, with the C library's signature.
bool isEqualityCompare(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.arg_size() != 3 || !Call.getType()->isIntegerTy(32) ||
      !Call.getArgOperand(0)->getType()->isPointerTy() || !Call.getArgOperand(1)->getType()->isPointerTy())
    return false;
  if (Callee->getName() == "bcmp")
    return true;
  return Callee->getName() == "memcmp" && all_of(Call.users(), [](const User *U) {
           ICmpInst::Predicate Pred;
           return match(U, m_ICmp(Pred, m_Value(), m_Zero())) && ICmpInst::isEquality(Pred);
         });
}

void expand(CallInst &Call, uint64_t Len) {
  IRBuilder<> B(&Call);
  Value *X = Call.getArgOperand(0), *Y = Call.getArgOperand(1);
  // The bits in which the two sides differ, or-ed over the chunks.
  Value *Differ = nullptr;
  for (auto [Offset, Size] : byteChunks(Len, 8)) {
    Type *T = B.getIntNTy(Size * 8);
    Value *A = B.CreateAlignedLoad(T, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), X, Offset), Align(1));
    Value *C = B.CreateAlignedLoad(T, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Y, Offset), Align(1));
    Value *Bits = B.CreateZExt(B.CreateXor(A, C), B.getInt64Ty());
    Differ = Differ ? B.CreateOr(Differ, Bits) : Bits;
  }
  Value *Result = B.CreateZExt(B.CreateICmpNE(Differ, B.getInt64(0)), Call.getType());
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
  ++NumComparesExpanded;
}

} // namespace

bool memcoro::expandSmallCompares(Loop &L) {
  SmallVector<std::pair<CallInst *, uint64_t>, 4> Compares;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      auto *Call = dyn_cast<CallInst>(&I);
      if (!Call || !isEqualityCompare(*Call))
        continue;
      auto *Len = dyn_cast<ConstantInt>(Call->getArgOperand(2));
      if (!Len || Len->isZero() || Len->getZExtValue() > CompareMax) {
        LLVM_DEBUG(dbgs() << "memcoro-split: compare kept as a call (variable or long length): " << *Call << "\n");
        continue;
      }
      Compares.push_back({Call, Len->getZExtValue()});
    }
  for (auto &[Call, Len] : Compares)
    expand(*Call, Len);
  return !Compares.empty();
}
