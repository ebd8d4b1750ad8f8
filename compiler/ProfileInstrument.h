//===- ProfileInstrument.h - memcoro-profile-instrument -------*- C++ -*-===//
#ifndef MEMCORO_COMPILER_PROFILEINSTRUMENT_H
#define MEMCORO_COMPILER_PROFILEINSTRUMENT_H

#include "llvm/IR/PassManager.h"

namespace memcoro {

/// Under -memcoro-profile-generate: every candidate suspension point of each
/// marked loop samples its access latency at run time, and the loop stays
/// serial, so that the samples are the serial loop's.
struct ProfileInstrumentPass : llvm::PassInfoMixin<ProfileInstrumentPass> {
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

/// Whether -memcoro-profile-generate asks for the instrumented build.
bool profileGenerateEnabled();

} // namespace memcoro

#endif
