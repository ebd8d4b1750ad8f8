//===- RemoteAccesses.h - which accesses of a marked loop are remote -*- C++ -*-===//
#ifndef MEMCORO_COMPILER_REMOTEACCESSES_H
#define MEMCORO_COMPILER_REMOTEACCESSES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Instruction;
class Loop;
class Value;
class raw_ostream;
} // namespace llvm

namespace memcoro {

/// Why an access was judged long-latency.
enum class RemoteReason {
  AddressSpace,   ///< through a __remote (address space 1) pointer
  NamedBase,      ///< based on a name listed in remote(...)
  IndirectAddress,///< the address depends on a value loaded in the loop
  NotAffine,      ///< the address is not an affine function of the induction variables
};

const char *describe(RemoteReason R);

/// One suspension candidate: a load, store or atomic whose latency is worth hiding.
struct RemoteAccess {
  llvm::Instruction *Access;
  RemoteReason Reason;
};

/// Whether one of \p Remote is in the AMU's far memory (address space 1),
/// which is not reached through the cache: a prefetch does not bring it in.
inline bool reachesFarMemory(llvm::ArrayRef<RemoteAccess> Remote) {
  return llvm::any_of(Remote, [](const RemoteAccess &RA) { return RA.Reason == RemoteReason::AddressSpace; });
}

/// The remote accesses of every marked loop in a function, in program order.
class RemoteAccessInfo {
public:
  const llvm::SmallVector<RemoteAccess, 8> *lookup(const llvm::Loop *L) const {
    auto It = PerLoop.find(L);
    return It == PerLoop.end() ? nullptr : &It->second;
  }
  void print(llvm::raw_ostream &OS) const;
  bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &,
                  llvm::FunctionAnalysisManager::Invalidator &);

  llvm::DenseMap<const llvm::Loop *, llvm::SmallVector<RemoteAccess, 8>> PerLoop;
  llvm::SmallVector<const llvm::Loop *, 4> Order;
};

/// memcoro-remote-accesses: decides which accesses of each marked loop are
/// suspension points. Rules, first match wins: (a) address space 1;
/// (b) based on a remote() name; (c) only when the loop has neither: the
/// address, outside stack memory, depends on a value loaded inside the loop,
/// or is neither loop invariant nor affine in the loop (affine streams are
/// left to the hardware prefetcher).
class RemoteAccessAnalysis : public llvm::AnalysisInfoMixin<RemoteAccessAnalysis> {
  friend llvm::AnalysisInfoMixin<RemoteAccessAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = RemoteAccessInfo;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<memcoro-remote-accesses>
class RemoteAccessPrinterPass : public llvm::PassInfoMixin<RemoteAccessPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit RemoteAccessPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace memcoro

#endif
