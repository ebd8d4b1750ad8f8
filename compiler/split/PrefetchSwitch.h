//===- PrefetchSwitch.h - a prefetching loop switched with the loop as written -*- C++ -*-===//
//
// What the two ways of ending a switched loop's windows share
// (split/PrefetchSwitch.cpp): the two copies of the loop and the blocks that
// ask the runtime's controller (runtime/adapt/switch.c) which copy runs
// first. A window is either a count of work that the copies' backedges
// count down (PrefetchSwitch.cpp: a loop whose iterations differ in their
// inner loops' trips), or a range of iterations whose end the copies' exit
// test compares with (PrefetchSwitchRanges.cpp: a flat loop whose trip count
// is known when it starts).
//
// Private to the compiler plugin.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_COMPILER_SPLIT_PREFETCHSWITCH_H
#define MEMCORO_COMPILER_SPLIT_PREFETCHSWITCH_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"

#include <memory>

namespace llvm {
class BasicBlock;
class Loop;
class Module;
class PHINode;
class Value;
} // namespace llvm

namespace memcoro {

struct SplitAnalyses;

/// runtime/adapt/switch.h: the flags of __memcoro_switch_begin.
enum : unsigned { SwitchForcePlain = 4, SwitchForcePrefetch = 8, SwitchOverlapped = 16, SwitchFlat = 32 };

/// One copy of the loop: its header and latch, and the values its latch
/// gives the header phis (in the order of the original header's phis).
struct LoopCopy {
  llvm::BasicBlock *Header, *Latch;
  llvm::SmallVector<llvm::PHINode *, 4> Phis;
  llvm::SmallVector<llvm::Value *, 4> Next;
};
LoopCopy copyOf(llvm::BasicBlock *Header, llvm::BasicBlock *Latch);

/// The blocks between the preheader and the copies: the loop's state in the
/// controller, and in Pick (no terminator yet) the first window: its length,
/// the cycle counter at its start (0: unmeasured, the decision's budget) and
/// which copy runs it (0: the loop as written). Pick's phis have an incoming
/// value from each way in; the caller adds its own between windows.
struct SwitchEntry {
  llvm::Value *State = nullptr, *Budget = nullptr;
  llvm::BasicBlock *Pick = nullptr;
  llvm::PHINode *Window = nullptr, *T0 = nullptr, *Which = nullptr;
};
SwitchEntry buildSwitchEntry(llvm::BasicBlock *Preheader, llvm::BasicBlock *First, unsigned Flags,
                             llvm::DebugLoc Loc);
/// What the controller says after a window: the next one's length, the
/// cycle counter at its start, and which copy runs it.
struct SwitchDecision {
  llvm::Value *Window = nullptr, *T0 = nullptr, *Which = nullptr;
};
/// At \p B, between two windows: reports the one that ran \p Ran units
/// since \p T0 (0: unmeasured, only its work counts) and asks for the next.
SwitchDecision reportWindow(llvm::IRBuilder<> &B, llvm::Value *State, llvm::Value *Ran, llvm::Value *T0);
/// The loop's last window, reported in \p Measured (a window started at
/// \p T0), or in \p Unmeasured taken off the decision's budget; both go on
/// to \p Then.
void reportLastWindow(const SwitchEntry &In, llvm::Value *Ran, llvm::Value *T0, llvm::BasicBlock *Measured,
                      llvm::BasicBlock *Unmeasured, llvm::BasicBlock *Then, llvm::DebugLoc Loc);

/// PrefetchSwitchRanges.cpp: windows as ranges of iterations.
class RangeWindows {
public:
  /// Null unless \p L has no inner loop, leaves only at its latch by a test
  /// of an induction variable, and its trip count is known when it starts.
  /// Computes the trip count in the preheader: call before the copies are made.
  static std::unique_ptr<RangeWindows> plan(const SplitAnalyses &A, llvm::Loop &L);
  /// Wires the two copies (the loop as written, the prefetching loop) to
  /// run windows of the controller's lengths, one after the other.
  /// With \p OutlineCopies each copy runs in a function of its own.
  void wire(LoopCopy &Plain, LoopCopy &Prefetching, unsigned Flags, bool OutlineCopies);

private:
  RangeWindows(llvm::Loop &L, llvm::Value *TripCount, unsigned IV, llvm::Value *IVStart, llvm::Value *IVStep)
      : L(L), TripCount(TripCount), IV(IV), IVStart(IVStart), IVStep(IVStep) {}
  /// Makes \p C leave for \p Switch after the iteration whose induction
  /// variable steps to \p End.
  void endAt(LoopCopy &C, llvm::Value *End, llvm::BasicBlock *Switch);

  llvm::Loop &L;
  llvm::Value *TripCount;
  /// The header phi the exit test counts (an index of LoopCopy::Phis), its
  /// value when the loop starts and its step.
  unsigned IV;
  llvm::Value *IVStart, *IVStep;
};

} // namespace memcoro

#endif
