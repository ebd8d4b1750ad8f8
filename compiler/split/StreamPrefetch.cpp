//===- StreamPrefetch.cpp - wide affine streams prefetched ahead ----------===//
//
// A step of memcoro-split's lowering (SplitLowering.cpp calls it before the
// run-time adaptation copies the serial loop, so the serial copy and the
// coroutines both carry it). The cost model (SplitCost.cpp) leaves affine
// streams without a suspension: the hardware prefetcher runs ahead of them.
// It does not run far enough ahead of a stream that takes a whole cache line
// every iteration: mcf's pricing loop reads one 64-byte arc per iteration
// (128 MiB of them) and its serial loop waits on the arc stream, not on the
// node lines it reaches through them. A prefetch 4 KiB ahead of the stream,
// as the hand-written loop has (`__builtin_prefetch(&arcs[i + 2 * D])`),
// made it 1.3x faster at 1 MiB of nodes and 1.05x at 1 GiB (docs/bench.md,
// "mcf's arc stream").
//
// For each load of the marked loop (not of an inner loop) whose address is
// affine in the loop's counter with a stride of at least
// -memcoro-stream-prefetch-stride bytes (never a suspension point: the cost
// model leaves such streams to the prefetcher, and a loop without remote()
// does not even count them as remote), a prefetch of the address
// -memcoro-stream-prefetch-bytes further on goes right before the load. One
// prefetch serves the loads of one line: a load within a line of a load
// already prefetched in a block that dominates it gets none. A prefetch never
// faults, so an address past the stream's end is harmless, and the loop's
// loads and stores are untouched: nothing of the contract is at stake.
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumStreamPrefetches, "Number of wide affine streams prefetched ahead in interleaved loops");

// One new line per iteration is what outruns the hardware prefetcher (mcf);
// a stream of 8-byte elements takes a line every 8 iterations, and the
// prefetcher keeps up with it (bench/kernels/stream.cpp).
static cl::opt<unsigned> WideStride("memcoro-stream-prefetch-stride", cl::Hidden, cl::init(64),
                                    cl::desc("Smallest stride in bytes of an affine stream an interleaved loop "
                                             "prefetches ahead itself (0: none)"));

// mcf's arcs at 1 MiB of nodes: 4 KiB ahead ran 1.25-1.3x the serial loop,
// 2 and 8 KiB 1.2-1.27x, 1 KiB 1.15x (a throwaway copy of bench/kernels/mcf.cpp).
static cl::opt<unsigned> AheadBytes("memcoro-stream-prefetch-bytes", cl::Hidden, cl::init(4096),
                                    cl::desc("How far ahead, in bytes, a wide affine stream is prefetched"));

namespace {
/// A stream prefetched ahead: its address in this iteration and its stride.
struct Prefetched {
  const SCEV *Address;
  int64_t Stride;
  Instruction *At;
};
} // namespace

/// The stride in bytes of \p Load's address in \p L, if it is an affine
/// stream of the marked loop wide enough to prefetch.
static std::optional<int64_t> wideStride(ScalarEvolution &SE, const Loop &L, LoadInst &Load) {
  std::optional<APInt> Step = constantStepIn(SE, L, Load.getPointerOperand());
  if (!Step || Step->getSignificantBits() > 32)
    return std::nullopt;
  int64_t Stride = Step->getSExtValue();
  if (uint64_t(std::abs(Stride)) < WideStride)
    return std::nullopt;
  return Stride;
}

void memcoro::prefetchWideStreams(const SplitAnalyses &A, const LoopPlan &Plan, OptimizationRemarkEmitter &ORE) {
  if (!WideStride || Plan.ThroughAmu)
    return;
  Loop &L = Plan.L;
  // Dominator-tree order, so that a load's dominating partner in its line is
  // seen, and prefetched, first.
  SmallVector<Prefetched, 4> Done;
  for (DomTreeNode *Node : depth_first(A.DT.getNode(L.getHeader()))) {
    BasicBlock *BB = Node->getBlock();
    if (A.LI.getLoopFor(BB) != &L)
      continue;
    for (Instruction &I : *BB) {
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load)
        continue;
      std::optional<int64_t> Stride = wideStride(A.SE, L, *Load);
      if (!Stride)
        continue;
      const SCEV *Address = A.SE.getSCEV(Load->getPointerOperand());
      bool SameLine = any_of(Done, [&](const Prefetched &P) {
        if (P.Stride != *Stride || !A.DT.dominates(P.At, Load))
          return false;
        auto *Apart = dyn_cast<SCEVConstant>(A.SE.getMinusSCEV(Address, P.Address));
        return Apart && Apart->getAPInt().abs().ult(64);
      });
      if (SameLine) {
        LLVM_DEBUG(dbgs() << "memcoro-split: stream " << *Load << " not prefetched again: in a line prefetched "
                          << "before it\n");
        continue;
      }
      int64_t Iterations = std::max<int64_t>(1, AheadBytes / std::abs(*Stride));
      IRBuilder<> B(Load);
      Value *Ahead = B.CreateGEP(B.getInt8Ty(), Load->getPointerOperand(), B.getInt64(Iterations * *Stride),
                                 "memcoro.stream.ahead");
      B.CreateIntrinsic(Intrinsic::prefetch, {Ahead->getType()},
                        {Ahead, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
      Done.push_back({Address, *Stride, Load});
      ++NumStreamPrefetches;
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(RemarkPass, "StreamPrefetch", Load)
               << "this load walks a stream of one " << ore::NV("Stride", std::abs(*Stride))
               << "-byte step per iteration, faster than the hardware prefetcher runs ahead: prefetched "
               << ore::NV("Iterations", Iterations) << " iterations ahead";
      });
    }
  }
}
