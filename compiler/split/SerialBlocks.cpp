//===- SerialBlocks.cpp - the serial copy of a walk counts per block -------===//
//
// A step of run-time adaptation (Adaptation.cpp calls it on the serial copy
// it built, SplitInternal.h). The serial copy of a loop whose exit test is
// evaluated at launch (`for (; p; p = p->next)`) runs a window of
// iterations, so it tests the window's count beside the loop's own test in
// every iteration: a list walk of five instructions became nine, and the
// walk, whose misses the core overlaps, ran at 0.85x the loop without the
// pragma while adaptation kept it serial. LLVM's unroller does not
// runtime-unroll a loop with an exit other than the latch's, so this step
// does it for a copy of one block: a loop of U copies of the block, each with
// the loop's own test, runs while more than U iterations are left in the window and
// counts once per U; the copy as it was runs the rest:
//
//   serial.ph -> block: phis (the header's), left = hi - k > U ?
//                  | yes                                  | no
//                  v                                      v
//                copy 1 .. copy U (the loop's test        header (the copy
//                  after each: out to serial.end)           as it was)
//                  +-> block
//
// serial.end gets a phi for each value of the block it uses.
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumSerialBlocks, "Number of serial copies of walks that count their window once per block of iterations");

static cl::opt<unsigned> SerialBlock(
    "memcoro-adapt-serial-block", cl::Hidden, cl::init(8),
    cl::desc("Iterations per window-count test in the serial copy of a loop whose exit test is evaluated at "
             "launch (1: every iteration)"));

void memcoro::countSerialCopyPerBlock(BasicBlock *Ph, BasicBlock *Header, BasicBlock *CountLatch,
                                      BasicBlock *End, PHINode *K, Value *Hi) {
  unsigned U = SerialBlock;
  auto *HeaderBr = dyn_cast<BranchInst>(Header->getTerminator());
  if (U < 2 || !HeaderBr || !HeaderBr->isConditional() || HeaderBr->getSuccessor(0) != CountLatch ||
      HeaderBr->getSuccessor(1) != End || Ph->getSingleSuccessor() != Header) {
    LLVM_DEBUG(dbgs() << "memcoro-split: the serial copy counts its window every iteration\n");
    return;
  }
  // The values of the block that serial.end's code uses (its phis get an
  // incoming value per copy); any other use outside the loop would need a
  // phi this step does not place.
  SmallVector<Instruction *, 8> LiveOut;
  for (Instruction &I : *Header)
    for (User *Usr : I.users()) {
      auto *UI = cast<Instruction>(Usr);
      if (UI->getParent() == Header || UI->getParent() == CountLatch || (UI->getParent() == End && isa<PHINode>(UI)))
        continue;
      if (UI->getParent() != End) {
        LLVM_DEBUG(dbgs() << "memcoro-split: a value of the serial copy is used past serial.end\n");
        return;
      }
      if (LiveOut.empty() || LiveOut.back() != &I)
        LiveOut.push_back(&I);
    }
  Function &F = *Header->getParent();
  LLVMContext &Ctx = F.getContext();
  auto *Block = BasicBlock::Create(Ctx, "memcoro.serial.block", &F, Header);
  Ph->getTerminator()->replaceSuccessorWith(Header, Block);

  // block: one phi per header phi, entered from serial.ph as the header was.
  IRBuilder<> BB(Block);
  BB.SetCurrentDebugLocation(HeaderBr->getDebugLoc());
  SmallVector<std::pair<PHINode *, PHINode *>, 8> Phis;
  PHINode *KBlock = nullptr;
  for (PHINode &Phi : Header->phis()) {
    PHINode *Twin = BB.CreatePHI(Phi.getType(), 2, Phi.getName() + ".block");
    Twin->addIncoming(Phi.getIncomingValueForBlock(Ph), Ph);
    Phi.replaceIncomingBlockWith(Ph, Block);
    Phi.setIncomingValueForBlock(Block, Twin);
    Phis.push_back({&Phi, Twin});
    if (&Phi == K)
      KBlock = Twin;
  }
  // More than U left, not U or more: the header runs at least one
  // iteration before it tests the count, as it did from serial.ph.
  Value *Left = BB.CreateSub(Hi, KBlock, "memcoro.serial.left");
  auto *Enough = BB.CreateICmpUGT(Left, BB.getInt64(U));

  // Copies 1..U: copy j reads what copy j-1 carried over the back edge, and
  // leaves to serial.end when the loop's own test fails.
  std::vector<std::unique_ptr<ValueToValueMapTy>> Maps;
  for (unsigned J = 0; J < U; ++J)
    Maps.push_back(std::make_unique<ValueToValueMapTy>());
  SmallVector<BasicBlock *, 4> Copies;
  auto in = [&](unsigned J, Value *V) { return Maps[J]->count(V) ? static_cast<Value *>((*Maps[J])[V]) : V; };
  for (unsigned J = 0; J < U; ++J) {
    ValueToValueMapTy &VMap = *Maps[J];
    for (auto [Phi, Twin] : Phis)
      VMap[Phi] = J == 0 ? static_cast<Value *>(Twin) : in(J - 1, Phi->getIncomingValueForBlock(CountLatch));
    auto *Copy = BasicBlock::Create(Ctx, "memcoro.serial.block." + Twine(J + 1), &F, Header);
    for (Instruction &I : *Header) {
      if (isa<PHINode>(I) || &I == HeaderBr)
        continue;
      Instruction *C = I.clone();
      C->setName(I.getName());
      C->insertInto(Copy, Copy->end());
      VMap[&I] = C;
    }
    for (Instruction &C : *Copy)
      RemapInstruction(&C, VMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    Value *Goes = HeaderBr->getCondition();
    BranchInst::Create(Block, End, in(J, Goes), Copy)
        ->setDebugLoc(HeaderBr->getDebugLoc());
    if (J > 0)
      Copies.back()->getTerminator()->setSuccessor(0, Copy);
    Copies.push_back(Copy);
  }
  BB.CreateCondBr(Enough, Copies.front(), Header);
  for (auto [Phi, Twin] : Phis)
    Twin->addIncoming(in(U - 1, Phi->getIncomingValueForBlock(CountLatch)), Copies.back());
  // The block loop is a loop of its own: a loop ID of its own, the copy's
  // properties kept.
  if (MDNode *Id = CountLatch->getTerminator()->getMetadata(LLVMContext::MD_loop))
    Copies.back()->getTerminator()->setMetadata(LLVMContext::MD_loop, makePostTransformationMetadata(Ctx, Id, {}, {}));

  // serial.end: what the block's values were when the walk ended in copy j.
  for (PHINode &Phi : End->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Header);
    for (unsigned J = 0; J < U; ++J)
      Phi.addIncoming(in(J, V), Copies[J]);
  }
  for (Instruction *I : LiveOut) {
    PHINode *Out = PHINode::Create(I->getType(), U + 2, I->getName() + ".out");
    Out->insertBefore(End->getFirstNonPHIIt());
    I->replaceUsesWithIf(Out, [&](Use &Use) {
      auto *UI = cast<Instruction>(Use.getUser());
      return UI->getParent() == End && !isa<PHINode>(UI);
    });
    Out->addIncoming(I, Header);
    Out->addIncoming(I, CountLatch);
    for (unsigned J = 0; J < U; ++J)
      Out->addIncoming(in(J, I), Copies[J]);
  }
  ++NumSerialBlocks;
}
