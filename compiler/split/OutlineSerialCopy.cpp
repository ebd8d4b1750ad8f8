//===- OutlineSerialCopy.cpp - the serial copy in a function of its own ----===//
//
// A step of memcoro-split, run once every marked loop of a function is done
// (SplitPass::run in Split.cpp). Run-time adaptation (Adaptation.cpp) keeps a
// serial copy of an interleaved loop beside its scheduler, and the copy runs
// whenever the loop's data sits near the core. In one function with the
// scheduler, the copy shares the register allocator with the slots, the ring
// and the controller's state: the values the scheduler keeps live across the
// whole loop push the copy's own (its arrays, the hash mask, the bound) onto
// the stack, and the copy reloads them in every iteration. A bitmap-filtered
// hash probe (bench/programs/semijoin.c) ran its copy at 0.94x the serial
// build, with six reloads an iteration.
//
// So the copy, from its entry (serial.ph) to its end (serial.end, where the
// reductions and counters are stored back), is extracted into a function of
// its own, called once per window of iterations (a window is at least 256
// iterations, usually thousands), and placed right after its caller so that
// the rest of the optimisation pipeline (vectorisation, unrolling) runs on it
// as on any other function. A copy that cannot be extracted (an exception
// edge inside it) stays where it is, and so does one with stack objects of
// its own (Adaptation.cpp does not mark it): lbm's copy, with its 19-entry
// cell array, ran at 0.94x the serial build in a function of its own (the
// array moved with it, 2.6% more instructions) and at 1.0x in place.
//
// The two copies of a switched flat loop (PrefetchSwitchRanges.cpp) move the
// same way, each under its own name, for the same reason: beside the
// windows' bookkeeping the loop as written of a COO SpMV ran at 0.92x the
// serial build in place.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumOutlinedSerialCopies, "Number of serial copies moved into a function of their own");

static cl::opt<bool> OutlineSerialCopies("memcoro-outline-serial-copy", cl::Hidden, cl::init(true),
                                         cl::desc("Move the serial copy of an adapting loop into a function of "
                                                  "its own, away from the scheduler's registers"));

static constexpr StringLiteral SerialEntryMD = "memcoro.serial.entry";

void memcoro::markSerialCopyEntry(BasicBlock &Entry, StringRef Suffix) {
  LLVMContext &Ctx = Entry.getContext();
  Entry.getTerminator()->setMetadata(SerialEntryMD, MDNode::get(Ctx, {MDString::get(Ctx, Suffix)}));
}

bool memcoro::outlineSerialCopies(Function &F) {
  SmallVector<std::pair<BasicBlock *, std::string>, 2> Entries;
  for (BasicBlock &BB : F)
    if (MDNode *Mark = BB.getTerminator() ? BB.getTerminator()->getMetadata(SerialEntryMD) : nullptr) {
      Entries.push_back({&BB, cast<MDString>(Mark->getOperand(0))->getString().str()});
      BB.getTerminator()->setMetadata(SerialEntryMD, nullptr);
    }
  if (!OutlineSerialCopies)
    return false;
  bool Changed = false;
  for (auto &[Entry, Suffix] : Entries) {
    // Every block only the copy's entry reaches is the copy's: its loop, the
    // counting of its windows, serial.end. Its exits and the block after
    // serial.end are reached from the scheduler too.
    DominatorTree DT(F);
    SmallVector<BasicBlock *, 16> Region = {Entry};
    for (BasicBlock &BB : F)
      if (&BB != Entry && DT.dominates(Entry, &BB))
        Region.push_back(&BB);
    CodeExtractor Extractor(Region, &DT, /*AggregateArgs=*/false, nullptr, nullptr, nullptr,
                            /*AllowVarArgs=*/false, /*AllowAlloca=*/false, nullptr, Suffix);
    if (!Extractor.isEligible()) {
      LLVM_DEBUG(dbgs() << "memcoro-split: the serial copy at " << Entry->getName() << " in " << F.getName()
                        << " stays in place: it cannot be extracted\n");
      continue;
    }
    CodeExtractorAnalysisCache Cache(F);
    Function *Copy = Extractor.extractCodeRegion(Cache);
    if (!Copy)
      continue;
    // Where the function pass manager still comes to it.
    Copy->removeFromParent();
    F.getParent()->getFunctionList().insertAfter(F.getIterator(), Copy);
    // An OpenMP region built with -g is an always-inline body under a
    // wrapper; the copy keeps its attributes, and the two may not meet.
    Copy->removeFnAttr(Attribute::AlwaysInline);
    Copy->addFnAttr(Attribute::NoInline);
    ++NumOutlinedSerialCopies;
    Changed = true;
    LLVM_DEBUG(dbgs() << "memcoro-split: the serial copy of a loop in " << F.getName() << " is now "
                      << Copy->getName() << "\n");
  }
  return Changed;
}
