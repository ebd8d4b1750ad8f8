//===- MemcoroInternal.h - what memcoro's passes agree on -------*- C++ -*-===//
//
// The names by which the passes hand a marked loop to each other: the marker
// strings the Clang plugin puts in llvm.annotation calls, the loop metadata
// memcoro-mark attaches, and the marker call that keeps remote() bases alive
// through the optimisation pipeline. Private to the compiler plugin.
//
//===----------------------------------------------------------------------===//
#ifndef MEMCORO_COMPILER_MEMCOROINTERNAL_H
#define MEMCORO_COMPILER_MEMCOROINTERNAL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <optional>

namespace llvm {
class AssumptionCache;
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
class Module;
class Function;
} // namespace llvm

namespace memcoro {

/// Annotation strings the pragma plugin emits (see docs/frontend.md).
inline constexpr llvm::StringLiteral LoopAnnotation = "memcoro.loop";
inline constexpr llvm::StringLiteral RemoteAnnotation = "memcoro.remote";
/// `#pragma memcoro ordered`: at the start of the region's statement.
inline constexpr llvm::StringLiteral OrderedAnnotation = "memcoro.ordered";

/// Loop metadata: the pragma's parallel(N), 0 when memcoro chooses.
inline constexpr llvm::StringLiteral ParallelMD = "memcoro.parallel";
/// Loop metadata: a number unique in the module, to tell at the end of the
/// pipeline whether every marked loop reached memcoro-split.
inline constexpr llvm::StringLiteral LoopIdMD = "memcoro.id";
/// Loop metadata: the floating-point reduction operators ("+", "*", "+*")
/// whose reassociation an OpenMP reduction clause on the loop permits.
inline constexpr llvm::StringLiteral ReassocMD = "memcoro.reassoc";
/// What the pragma plugin appends to the loop annotation for them.
inline constexpr llvm::StringLiteral ReassocSuffix = " reassoc ";
/// Loop metadata: the pragma's `insist` clause; every remote access is a
/// suspension point, whatever the cost model says.
inline constexpr llvm::StringLiteral InsistMD = "memcoro.insist";
/// What the pragma plugin appends to the loop annotation for it.
inline constexpr llvm::StringLiteral InsistSuffix = " insist";
/// Loop metadata: names listed in remote(), for remarks.
inline constexpr llvm::StringLiteral RemoteNamesMD = "memcoro.remote.names";
/// Module metadata: every marked loop, !{i32 id, !DILocation or null}.
inline constexpr llvm::StringLiteral MarkedLoopsMD = "memcoro.marked";
/// Module metadata: ids of the marked loops memcoro-split has seen.
inline constexpr llvm::StringLiteral SeenLoopsMD = "memcoro.seen";

/// `void __memcoro_remote_base(ptr)`: placed in a marked loop's body for each
/// remote() name. It only touches inaccessible memory and does not capture its
/// argument, so it costs the optimiser nothing but keeps the base visible.
inline constexpr llvm::StringLiteral RemoteBaseFn = "__memcoro_remote_base";

/// `void __memcoro_ordered()`: memcoro-mark puts it where an ordered region
/// begins. It may read and write any memory, so that nothing of the region
/// moves above it and nothing before it moves below; memcoro-split turns it
/// into the point where an iteration waits for its turn, memcoro-finalize
/// removes what is left.
inline constexpr llvm::StringLiteral OrderedFn = "__memcoro_ordered";

/// Function attribute memcoro-mark gives a function with a marked loop.
inline constexpr llvm::StringLiteral MarkedFnAttr = "memcoro-marked";

/// Whether \p F is one of UBSan's check handlers (`__ubsan_handle_*`), which
/// report a failed check and return or abort.
bool isUBSanHandler(const llvm::Function &F);

/// Whether \p F is a sanitizer's check or report (UBSan's handlers, ASan's,
/// TSan's and MSan's run-time calls): it touches nothing the program sees.
bool isSanitizerRuntimeFn(const llvm::Function &F);

/// Remark pass name: what -Rpass=memcoro matches.
inline constexpr const char *RemarkPass = "memcoro";

/// Returns the marker function, declaring it on first use.
llvm::Function *getOrInsertRemoteBaseFn(llvm::Module &M);

/// Returns the ordered-region marker function, declaring it on first use.
llvm::Function *getOrInsertOrderedFn(llvm::Module &M);

/// Whether \p I is a call of the ordered-region marker.
bool isOrderedMarker(const llvm::Instruction &I);

/// The ordered-region markers in the loop's blocks.
llvm::SmallVector<llvm::CallInst *, 2> getOrderedMarkers(const llvm::Loop &L);

/// The parallel(N) of a marked loop: std::nullopt if the loop is not marked,
/// 0 if the pragma left N to memcoro.
std::optional<unsigned> getMarkedParallelism(const llvm::Loop &L);

/// The address a load, store or atomic update accesses; null for any other
/// instruction.
llvm::Value *accessedPointer(llvm::Instruction &I);

/// The marker calls in the loop's blocks, in program order.
llvm::SmallVector<llvm::CallInst *, 4> getRemoteBaseCalls(const llvm::Loop &L);

/// Records that the marked loop \p L reached memcoro-split (or a pass that
/// stands in for it), so that memcoro-finalize does not report it as lost.
void recordLoopSeen(const llvm::Loop &L);

/// Puts the marked loop \p L back in loop-simplify and LCSSA form, which
/// function passes since the loop pipeline may have undone (SimplifyCFG folds
/// preheaders away), as LoopVectorize does. Returns whether it changed.
bool prepareMarkedLoop(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT, llvm::ScalarEvolution &SE,
                       llvm::AssumptionCache &AC);

/// Makes the marked loop \p L an ordinary loop: its markers and memcoro's
/// loop properties go, so that it optimises as any other loop.
void unmarkLoop(llvm::Loop &L);

} // namespace memcoro

#endif // MEMCORO_COMPILER_MEMCOROINTERNAL_H
