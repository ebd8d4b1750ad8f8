//===- KeepLoopMarks.h - marked loops' metadata through SCCP ----*- C++ -*-===//
#ifndef MEMCORO_COMPILER_KEEPLOOPMARKS_H
#define MEMCORO_COMPILER_KEEPLOOPMARKS_H

namespace llvm {
class PassInstrumentationCallbacks;
} // namespace llvm

namespace memcoro {

/// Puts a marked loop's !llvm.loop back on its latch when SCCP folds the
/// latch's branch into an unconditional one and drops the metadata with it.
void keepLoopMarksThroughSCCP(llvm::PassInstrumentationCallbacks &PIC);

} // namespace memcoro

#endif
