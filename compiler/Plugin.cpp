//===- Plugin.cpp - registers every memcoro pass with LLVM ------*- C++ -*-===//
//
// The one place memcoro's passes and analyses meet the pass builder: their
// pipeline names (for opt -passes=...) and the extension points at which
// clang runs them:
//
//   pipeline start     memcoro-mark       pragma markers -> loop metadata
//   around SCCP        marked loops' metadata put back where SCCP folds a
//                                         latch's branch and drops it
//                                         (KeepLoopMarks.cpp)
//   pipeline start     memcoro-sanitizer-handlers
//                                         UBSan's handlers write only their
//                                         arguments' memory (modules with
//                                         marked loops)
//   vectorizer start   memcoro-profile-instrument
//                                         under -memcoro-profile-generate: marked
//                                         loops sample their latencies, serially
//   vectorizer start   memcoro-split      marked loops -> interleaved coroutines
//   optimizer last     memcoro-split again, for marked loops the pipeline
//                                         had no vectorizer start for (ThinLTO
//                                         pre-link, LateSplit.cpp)
//   optimizer last     memcoro-amu-far    under -memcoro-amu: far accesses left
//                                         -> synchronous AMU loads and stores
//   optimizer last     memcoro-finalize   report loops that never got there
//
//===----------------------------------------------------------------------===//
#include "AmuFarAccesses.h"
#include "Finalize.h"
#include "KeepLoopMarks.h"
#include "LateSplit.h"
#include "MarkLoops.h"
#include "NestedCalls.h"
#include "ResumableCallees.h"
#include "SanitizerHandlers.h"
#include "ProfileInstrument.h"
#include "RemoteAccesses.h"
#include "Split.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Coroutines/CoroCleanup.h"
#include "llvm/Transforms/Coroutines/CoroSplit.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace memcoro;

namespace {

/// Debian's LLVM is a release build: it has the LLVM_DEBUG machinery but not
/// the -debug / -debug-only options that switch it on. Register them when
/// they are missing, so `-debug-only=memcoro-split` works as in LLVM's docs.
void ensureDebugOptions() {
  if (cl::getRegisteredOptions().count("debug-only"))
    return;
  static auto *Debug = new cl::opt<bool>(
      "debug", cl::desc("Enable debug output (memcoro passes)"), cl::Hidden,
      cl::cb<void, bool>([](bool On) { DebugFlag = On; }));
  static auto *DebugOnly = new cl::list<std::string>(
      "debug-only", cl::desc("Enable debug output of the named passes (memcoro passes)"),
      cl::Hidden, cl::CommaSeparated, cl::cb<void, std::string>([](const std::string &Type) {
        DebugFlag = true;
        static std::vector<std::string> Types;
        Types.push_back(Type);
        std::vector<const char *> Ptrs;
        for (const std::string &T : Types)
          Ptrs.push_back(T.c_str());
        setCurrentDebugTypes(Ptrs.data(), Ptrs.size());
      }));
  (void)Debug;
  (void)DebugOnly;
}

/// clang loads the plugin with -fplugin before it parses -mllvm options but
/// asks for the pass-plugin entry point only later, so register on load.
const bool DebugOptionsRegistered = (ensureDebugOptions(), true);

/// memcoro-split and the steps that go with it.
void addSplitPasses(FunctionPassManager &FPM) {
  if (profileGenerateEnabled())
    FPM.addPass(ProfileInstrumentPass());
  FPM.addPass(NestedCallsPass());
  FPM.addPass(SplitPass());
}

void registerPasses(PassBuilder &PB) {
  // Lets -print-before=memcoro-split and friends name the passes as opt does.
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks()) {
    PIC->addClassToPassName(MarkLoopsPass::name(), "memcoro-mark");
    PIC->addClassToPassName(SplitPass::name(), "memcoro-split");
    PIC->addClassToPassName(NestedCallsPass::name(), "memcoro-nested-calls");
    PIC->addClassToPassName(ProfileInstrumentPass::name(), "memcoro-profile-instrument");
    PIC->addClassToPassName(FinalizePass::name(), "memcoro-finalize");
    keepLoopMarksThroughSCCP(*PIC);
  }
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(createModuleToFunctionPassAdaptor(MarkLoopsPass()));
    MPM.addPass(SanitizerHandlersPass());
  });
  // LLVM 19 runs vectorizer-start callbacks at -O0 too, but an unoptimised
  // loop (not rotated, values in memory) is no loop to interleave; at -O0
  // memcoro-finalize tells the user instead.
  PB.registerVectorizerStartEPCallback([](FunctionPassManager &FPM, OptimizationLevel Level) {
    if (Level == OptimizationLevel::O0)
      return;
    addSplitPasses(FPM);
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel Level) {
    // Resumable clones for marked loops of other translation units: their
    // frames are laid out by LLVM's own coroutine passes.
    if (Level != OptimizationLevel::O0) {
      FunctionPassManager Steps;
      addSplitPasses(Steps);
      MPM.addPass(createModuleToFunctionPassAdaptor(LateSplitPass(std::move(Steps))));
      MPM.addPass(ResumableCalleesPass());
      MPM.addPass(createModuleToPostOrderCGSCCPassAdaptor(CoroSplitPass(/*OptimizeFrame=*/true)));
      MPM.addPass(CoroCleanupPass());
      MPM.addPass(ResumableDescriptorsPass());
    }
    if (amuEnabled())
      MPM.addPass(createModuleToFunctionPassAdaptor(AmuFarAccessesPass()));
    MPM.addPass(FinalizePass(Level));
  });

  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "memcoro-mark") {
          FPM.addPass(MarkLoopsPass());
          return true;
        }
        if (Name == "memcoro-nested-calls") {
          FPM.addPass(NestedCallsPass());
          return true;
        }
        if (Name == "memcoro-split") {
          FPM.addPass(SplitPass());
          return true;
        }
        if (Name == "memcoro-profile-instrument") {
          FPM.addPass(ProfileInstrumentPass());
          return true;
        }
        if (Name == "memcoro-amu-far") {
          FPM.addPass(AmuFarAccessesPass());
          return true;
        }
        if (Name == "print<memcoro-plan>") {
          FPM.addPass(SplitPlanPrinterPass(errs()));
          return true;
        }
        if (Name == "print<memcoro-remote-accesses>") {
          FPM.addPass(RemoteAccessPrinterPass(errs()));
          return true;
        }
        return false;
      });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
    FAM.registerPass([] { return RemoteAccessAnalysis(); });
  });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "memcoro-resumable") {
          MPM.addPass(ResumableCalleesPass());
          return true;
        }
        if (Name == "memcoro-resumable-descriptors") {
          MPM.addPass(ResumableDescriptorsPass());
          return true;
        }
        if (Name == "memcoro-sanitizer-handlers") {
          MPM.addPass(SanitizerHandlersPass());
          return true;
        }
        if (Name == "memcoro-finalize") {
          MPM.addPass(FinalizePass());
          return true;
        }
        return false;
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  (void)DebugOptionsRegistered;
  return {LLVM_PLUGIN_API_VERSION, "memcoro", "0.1", registerPasses};
}
