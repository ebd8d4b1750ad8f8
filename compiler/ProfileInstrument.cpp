//===- ProfileInstrument.cpp - memcoro-profile-instrument: sample latencies ===//
//
// The instrumented build of -fmemcoro-profile-generate[=FILE] (the driver
// passes -mllvm -memcoro-profile-generate=FILE). Runs at the vectorizer-start
// extension point just before memcoro-split, so it sees the candidate
// suspension points memcoro-split would see (memcoro-remote-accesses), on the
// same IR, and names them as the profile-use build will (Profile.h). Each
// candidate gets a site in a table of the function, and in front of the
// access:
//
//   %c = load atomic i32, ptr @site.countdown monotonic
//   store atomic i32 (%c - 1), ptr @site.countdown monotonic
//   br (%c == 0), label %sample, label %access       ; unlikely
// sample:
//   call void @__memcoro_profile_sample(ptr @site, ptr %addr)
//   br label %access
//
// The runtime (runtime/profile/profile.c) times one access to the line with
// the TSC, tallies it, and sets the countdown for the next sample, 1 in K
// executions on average (MEMCORO_PROFILE_PERIOD). Every other execution of
// the loop takes no samples and is timed instead, from its preheader to each
// exit (__memcoro_profile_loop_enter/exit): its misses' latency over that time
// is how many misses the serial loop already overlaps. The table's descriptor goes
// in the section memcoro_profile, where the runtime finds every table of the
// program, and writes the profile at exit. The marked loop then stays
// serial, an ordinary loop: a loop interleaved would prefetch and hide the
// very misses the profile is to find.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-profile-instrument \
//       -memcoro-profile-generate=x.profile -S in.ll
//
//===----------------------------------------------------------------------===//
#include "ProfileInstrument.h"
#include "MemcoroInternal.h"
#include "Profile.h"
#include "RemoteAccesses.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-profile-instrument"

STATISTIC(NumProfiledLoops, "Number of marked loops instrumented for -memcoro-profile-generate");
STATISTIC(NumProfiledSites, "Number of candidate suspension points that sample their latency");

static cl::opt<std::string> ProfileGenerate(
    "memcoro-profile-generate", cl::Hidden, cl::init(""), cl::value_desc("file"),
    cl::desc("Instrument the candidate suspension points of marked loops to sample their access latency, "
             "keep the loops serial, and write the profile to this file at exit "
             "(-fmemcoro-profile-generate)"));

bool memcoro::profileGenerateEnabled() { return !ProfileGenerate.empty(); }

namespace {

/// One candidate to instrument, and its site's index in the table.
struct SampledAccess {
  Instruction *Access;
  unsigned Index;
};

/// A marked loop whose serial time is measured: from its preheader to each
/// of its exits, which the preheader dominates.
struct TimedLoop {
  Loop *L;
  BasicBlock *Preheader;
  SmallVector<BasicBlock *, 2> Exits;
};

class ProfileInstrumenter {
public:
  ProfileInstrumenter(Function &F, LoopInfo &LI, const RemoteAccessInfo &RAI, OptimizationRemarkEmitter &ORE)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), LI(LI), RAI(RAI), ORE(ORE) {}
  bool run();

private:
  Constant *string(StringRef S);
  GlobalVariable *emitTable();
  void instrument(GlobalVariable *Table, const SampledAccess &S);
  void time(unsigned Index, const TimedLoop &T);

  Function &F;
  Module &M;
  LLVMContext &Ctx;
  LoopInfo &LI;
  const RemoteAccessInfo &RAI;
  OptimizationRemarkEmitter &ORE;
  SmallVector<ProfileSite, 8> Sites;
  SmallVector<SampledAccess, 8> Accesses;
  SmallVector<TimedLoop, 4> Timed;
  GlobalVariable *Loops = nullptr;
};

} // namespace

Constant *ProfileInstrumenter::string(StringRef S) {
  auto *GV = new GlobalVariable(M, ArrayType::get(Type::getInt8Ty(Ctx), S.size() + 1), true,
                                GlobalValue::PrivateLinkage, ConstantDataArray::getString(Ctx, S),
                                "memcoro.profile.str");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return GV;
}

/// struct memcoro_profile_site (runtime/profile/profile.h) for each site, and
/// the struct memcoro_profile_module that points at them, in the section the
/// runtime walks.
GlobalVariable *ProfileInstrumenter::emitTable() {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::get(Ctx, 0);
  auto *SiteTy = StructType::get(Ctx, {Ptr, Ptr, I32, I32, I32, I32, I32, I32, I64, I64, I64, I64, I64});
  Constant *Function = string(F.getName());
  StringMap<Constant *> Kinds;
  SmallVector<Constant *, 8> Init;
  for (const ProfileSite &S : Sites) {
    Constant *&Kind = Kinds[S.Kind];
    if (!Kind)
      Kind = string(S.Kind);
    auto *Zero = ConstantInt::get(I64, 0);
    Init.push_back(ConstantStruct::get(
        SiteTy, {Function, Kind, ConstantInt::get(I32, S.LoopLine), ConstantInt::get(I32, S.LoopColumn),
                 ConstantInt::get(I32, S.Line), ConstantInt::get(I32, S.Column), ConstantInt::get(I32, S.Ordinal),
                 ConstantInt::get(I32, 0), Zero, Zero, Zero, Zero, Zero}));
  }
  auto *TableTy = ArrayType::get(SiteTy, Init.size());
  auto *Table = new GlobalVariable(M, TableTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
                                   ConstantArray::get(TableTy, Init), "memcoro.profile.sites");
  Table->setAlignment(Align(8));
  auto *LoopTy = StructType::get(Ctx, {Ptr, I32, I32, I64, I64, I64});
  SmallVector<Constant *, 4> LoopInit;
  for (const TimedLoop &T : Timed) {
    DebugLoc Loc = T.L->getStartLoc();
    auto *Zero = ConstantInt::get(I64, 0);
    LoopInit.push_back(ConstantStruct::get(LoopTy, {Function, ConstantInt::get(I32, Loc ? Loc.getLine() : 0),
                                                    ConstantInt::get(I32, Loc ? Loc.getCol() : 0), Zero, Zero,
                                                    Zero}));
  }
  auto *LoopsTy = ArrayType::get(LoopTy, LoopInit.size());
  Loops = new GlobalVariable(M, LoopsTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
                             ConstantArray::get(LoopsTy, LoopInit), "memcoro.profile.loops");
  Loops->setAlignment(Align(8));
  auto *ModuleTy = StructType::get(Ctx, {Ptr, I32, Ptr, I32, Ptr});
  auto *Descriptor = new GlobalVariable(
      M, ModuleTy, /*isConstant=*/false, GlobalValue::PrivateLinkage,
      ConstantStruct::get(ModuleTy, {string(ProfileGenerate), ConstantInt::get(I32, Init.size()), Table,
                                     ConstantInt::get(I32, LoopInit.size()), Loops}),
      "memcoro.profile.table");
  Descriptor->setSection("memcoro_profile");
  Descriptor->setAlignment(Align(8));
  // Nothing in the program refers to the descriptor: only the runtime, through
  // the section's bounds.
  appendToCompilerUsed(M, {Descriptor});
  return Table;
}

void ProfileInstrumenter::instrument(GlobalVariable *Table, const SampledAccess &S) {
  Type *I32 = Type::getInt32Ty(Ctx);
  PointerType *Ptr = PointerType::get(Ctx, 0);
  IRBuilder<> B(S.Access);
  Value *Site = B.CreateConstInBoundsGEP2_32(Table->getValueType(), Table, 0, S.Index, "memcoro.profile.site");
  Value *Countdown = B.CreateConstInBoundsGEP2_32(cast<ArrayType>(Table->getValueType())->getElementType(), Site,
                                                  0, 7, "memcoro.profile.countdown");
  // Atomic, so that threads running one site race on nothing undefined; on
  // x86 a monotonic load and store are plain moves.
  LoadInst *Count = B.CreateLoad(I32, Countdown, "memcoro.profile.count");
  Count->setAtomic(AtomicOrdering::Monotonic);
  Count->setAlignment(Align(4));
  StoreInst *Next = B.CreateStore(B.CreateSub(Count, ConstantInt::get(I32, 1)), Countdown);
  Next->setAtomic(AtomicOrdering::Monotonic);
  Next->setAlignment(Align(4));
  Value *Due = B.CreateICmpEQ(Count, ConstantInt::get(I32, 0), "memcoro.profile.due");
  Instruction *Then =
      SplitBlockAndInsertIfThen(Due, S.Access, /*Unreachable=*/false, MDBuilder(Ctx).createUnlikelyBranchWeights());
  B.SetInsertPoint(Then);
  FunctionCallee Sample = M.getOrInsertFunction("__memcoro_profile_sample", Type::getVoidTy(Ctx), Ptr, Ptr);
  if (auto *Fn = dyn_cast<Function>(Sample.getCallee()))
    Fn->setDoesNotThrow();
  B.CreateCall(Sample, {Site, B.CreateAddrSpaceCast(accessedPointer(*S.Access), Ptr)});
}

void ProfileInstrumenter::time(unsigned Index, const TimedLoop &T) {
  Type *I64 = Type::getInt64Ty(Ctx);
  PointerType *Ptr = PointerType::get(Ctx, 0);
  FunctionCallee Enter = M.getOrInsertFunction("__memcoro_profile_loop_enter", I64, Ptr);
  FunctionCallee Exit = M.getOrInsertFunction("__memcoro_profile_loop_exit", Type::getVoidTy(Ctx), Ptr, I64);
  for (FunctionCallee Callee : {Enter, Exit})
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee()))
      Fn->setDoesNotThrow();
  IRBuilder<> B(T.Preheader->getTerminator());
  Value *Loop = B.CreateConstInBoundsGEP2_32(Loops->getValueType(), Loops, 0, Index, "memcoro.profile.loop");
  Value *Entered = B.CreateCall(Enter, {Loop}, "memcoro.profile.entered");
  for (BasicBlock *Out : T.Exits) {
    B.SetInsertPoint(Out, Out->getFirstInsertionPt());
    B.CreateCall(Exit, {Loop, Entered});
  }
}

bool ProfileInstrumenter::run() {
  SmallPtrSet<Instruction *, 16> Taken;
  SmallVector<Loop *, 4> Marked;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!getMarkedParallelism(*L))
      continue;
    Marked.push_back(L);
    const auto *Candidates = RAI.lookup(L);
    unsigned Count = 0;
    if (Candidates) {
      SmallVector<ProfileSite, 8> LoopSites = profileSites(F, *L, *Candidates);
      for (unsigned J = 0; J < Candidates->size(); ++J) {
        Instruction *Access = (*Candidates)[J].Access;
        // An access of a marked loop inside another marked loop is sampled
        // once, for the outer loop: a second timed access would always hit.
        if (!Taken.insert(Access).second) {
          LLVM_DEBUG(dbgs() << "memcoro-profile-instrument: already sampled for an outer loop:" << *Access << "\n");
          continue;
        }
        Accesses.push_back({Access, unsigned(Sites.size())});
        Sites.push_back(LoopSites[J]);
        ++Count;
      }
    }
    TimedLoop T{L, L->getLoopPreheader(), {}};
    L->getUniqueExitBlocks(T.Exits);
    if (T.Preheader && L->hasDedicatedExits() && !T.Exits.empty())
      Timed.push_back(std::move(T));
    else
      LLVM_DEBUG(dbgs() << "memcoro-profile-instrument: loop " << L->getHeader()->getName()
                        << " is not timed: no preheader, or an exit also reached from outside\n");
    if (!Count)
      LLVM_DEBUG(dbgs() << "memcoro-profile-instrument: loop " << L->getHeader()->getName() << " in "
                        << F.getName() << " has no candidate suspension point to sample\n");
    ++NumProfiledLoops;
    NumProfiledSites += Count;
    ORE.emit([&] {
      return OptimizationRemark(RemarkPass, "ProfileInstrumented", L->getStartLoc(), L->getHeader())
             << "loop instrumented for -fmemcoro-profile-generate: " << ore::NV("Sites", Count)
             << " candidate suspension point" << (Count == 1 ? "" : "s")
             << " sample their access latency; the loop runs serially in this build";
    });
  }
  if (Marked.empty())
    return false;
  // Unmarked before the blocks are split: the loop's properties sit on its
  // latch's branch, which a split moves.
  for (Loop *L : Marked) {
    recordLoopSeen(*L);
    unmarkLoop(*L);
  }
  if (!Sites.empty()) {
    GlobalVariable *Table = emitTable();
    for (const SampledAccess &S : Accesses)
      instrument(Table, S);
    for (unsigned J = 0; J < Timed.size(); ++J)
      time(J, Timed[J]);
  }
  return true;
}

PreservedAnalyses ProfileInstrumentPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!profileGenerateEnabled())
    return PreservedAnalyses::all();
  // memcoro-split prepares each marked loop before it plans it; so does this
  // pass, which times a loop from its preheader to its dedicated exits. The
  // candidates are then the same.
  bool Reshaped = false;
  {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    for (Loop *L : LI.getLoopsInPreorder())
      if (getMarkedParallelism(*L))
        Reshaped |= prepareMarkedLoop(*L, LI, DT, SE, AC);
  }
  if (Reshaped)
    FAM.invalidate(F, PreservedAnalyses::none());
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &RAI = FAM.getResult<RemoteAccessAnalysis>(F);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  if (!ProfileInstrumenter(F, LI, RAI, ORE).run() && !Reshaped)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
