//===- AmuRequests.h - far accesses as requests to the software AMU -*- C++ -*-===//
//
// What the three AMU code generators share (split/AmuRequests.cpp): the
// thread's AMU, one aload per far address of a suspension (an aset group when
// there are several), the slot's buffer the requests copy into, and the
// accesses made near once their line has arrived. Private to memcoro-split.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_COMPILER_SPLIT_AMUREQUESTS_H
#define MEMCORO_COMPILER_SPLIT_AMUREQUESTS_H

#include "split/SplitInternal.h"

namespace memcoro {

class AmuRequests {
public:
  explicit AmuRequests(Skeleton &S) : S(S) {}

  /// The entry-block alloca that holds the thread's AMU.
  void createState(llvm::IRBuilder<> &Entry);
  /// In the preheader: the thread's AMU, or a stop with a message when the
  /// thread has none (memcoro_amu__cc_current).
  void initState(llvm::IRBuilder<> &Preheader);
  /// The slot's request buffer: one entry per far address of the suspension
  /// with the most.
  void addBufferField(llvm::SmallVectorImpl<llvm::Type *> &Fields);
  /// Issues the requests of \p Sp under \p Id (i32), each registering
  /// \p Resume (null: none) as its resume target for bafin.
  void emitRequests(llvm::IRBuilder<> &B, const Suspension &Sp, llvm::Value *Id, llvm::Value *Resume);
  /// A call of the AMU's request path; inlined by finish() when the module
  /// has its definition (include/memcoro/amu_cc.h).
  llvm::CallInst *call(llvm::IRBuilder<> &B, llvm::StringRef Name, llvm::Type *Ret,
                       llvm::ArrayRef<llvm::Value *> Args);
  llvm::Value *amu(llvm::IRBuilder<> &B);
  llvm::AllocaInst *state() const { return Amu; }
  /// The accesses the requests served read and write the lines the AMU has
  /// brought in, in address space 0, so that memcoro-amu-far leaves them
  /// alone; then the request path is inlined.
  void finish();

private:
  Skeleton &S;
  llvm::AllocaInst *Amu = nullptr;
  unsigned BufferField = 0;
  unsigned EntryBytes = 8;
  llvm::SmallVector<llvm::CallInst *, 8> Calls;
};

/// The i32 AMU id of slot \p Slot: the slot's index.
llvm::Value *amuId(llvm::IRBuilder<> &B, llvm::Value *Slot);

/// What the schedulers that resume the slot the AMU reports done (getfin,
/// bafin) share: slots are launched one at a time up to a cursor, a slot
/// takes the next iteration at once when its own ends, and a slot without an
/// iteration retires (it has no request in flight, so it is never reported).
class AmuCompletionScheduler : public RingLaunchCodeGen {
public:
  explicit AmuCompletionScheduler(Skeleton &S) : RingLaunchCodeGen(S), Requests(S) {}

  /// retire: live--.
  void emitSchedulerBlocks() override;
  void finishLowering() override { Requests.finish(); }

protected:
  /// The shared state's allocas, before the derived scheduler's own.
  void createLaunchState(llvm::IRBuilder<> &Entry);
  /// Slot 0 runs first (the lowering starts at slot 0); the others are
  /// launched by next.
  void initLaunchState(llvm::IRBuilder<> &Preheader);
  /// spawn: the next slot never used runs now (its state launches an
  /// iteration); the caller branches on.
  void emitSpawn(llvm::IRBuilder<> &B);

  /// The next slot never used (the launched iteration and live slots are
  /// the ring's).
  llvm::AllocaInst *Cursor = nullptr;
  AmuRequests Requests;
};

} // namespace memcoro

#endif // MEMCORO_COMPILER_SPLIT_AMUREQUESTS_H
