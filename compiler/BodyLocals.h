//===- BodyLocals.h - a marked loop's body variables begin uninitialised -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_BODYLOCALS_H
#define MEMCORO_COMPILER_BODYLOCALS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Loop;
} // namespace llvm

namespace memcoro {

/// Loop metadata: the body copies a value read from memory into a variable
/// declared before the loop, which the next iteration uses.
inline constexpr llvm::StringLiteral CopiesMemoryMD = "memcoro.copies.memory";

/// Stores zero, one of the values an uninitialised variable may hold, into
/// each scalar variable declared in the body of the marked loop \p L where
/// its lifetime starts, so that promoting it to a register gives no value
/// carried from the previous iteration. Returns how many.
unsigned restartBodyLocals(llvm::Loop &L);

/// Whether the body of the marked loop \p L copies a value it read from
/// memory into a variable declared before the loop (`start = starts[j + 1]`),
/// handing it to the next iteration in place of a read of its own.
bool copiesMemoryIntoOuterLocal(const llvm::Loop &L);

} // namespace memcoro

#endif
