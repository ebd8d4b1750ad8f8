//===- RemoteAccesses.cpp - which accesses of a marked loop are remote ----===//
//
// An analysis, run by memcoro-split on each marked loop after the O2
// simplification pipeline: loads, stores and atomic read-modify-writes whose
// address is long-latency become suspension points. The printer shows the
// decision and its reason for each access:
//
//   opt -load-pass-plugin=MemcoroPasses.so \
//       -passes='print<memcoro-remote-accesses>' -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "RemoteAccesses.h"
#include "MemcoroInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace memcoro;

AnalysisKey RemoteAccessAnalysis::Key;

const char *memcoro::describe(RemoteReason R) {
  switch (R) {
  case RemoteReason::AddressSpace:
    return "address space 1 (__remote)";
  case RemoteReason::NamedBase:
    return "based on a name in remote()";
  case RemoteReason::IndirectAddress:
    return "address depends on a value loaded in the loop";
  case RemoteReason::NotAffine:
    return "address not affine in the loop";
  }
  llvm_unreachable("unknown RemoteReason");
}

namespace {

/// True if computing \p V inside \p L reads a value loaded inside \p L.
/// Phis are followed, so a pointer walked through a list (p = p->next) counts.
bool dependsOnLoopLoad(Value *V, const Loop &L, SmallPtrSetImpl<Value *> &Visited) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || !Visited.insert(I).second)
    return false;
  if (isa<LoadInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  // A call's result (pure helper) depends on its arguments only.
  for (Value *Op : I->operands())
    if (dependsOnLoopLoad(Op, L, Visited))
      return true;
  return false;
}

/// True if \p Ptr is derived (through GEPs, casts, phis and selects) from one
/// of the remote() bases.
bool isBasedOn(Value *Ptr, const SmallPtrSetImpl<Value *> &Bases) {
  SmallVector<Value *, 8> Work = {Ptr};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Bases.contains(V))
      return true;
    // A container's data() read again where a store may have changed it
    // (remote(v) on a std::vector of bytes): the same pointer field.
    if (auto *Load = dyn_cast<LoadInst>(V); Load && any_of(Bases, [&](Value *B) {
          auto *BaseLoad = dyn_cast<LoadInst>(B);
          return BaseLoad && BaseLoad->getPointerOperand() == Load->getPointerOperand();
        }))
      return true;
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      Work.push_back(GEP->getPointerOperand());
    else if (auto *Cast = dyn_cast<CastInst>(V))
      Work.push_back(Cast->getOperand(0));
    else if (auto *Phi = dyn_cast<PHINode>(V))
      append_range(Work, Phi->incoming_values());
    else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      Work.push_back(Sel->getTrueValue());
      Work.push_back(Sel->getFalseValue());
    }
  }
  return false;
}

} // namespace

RemoteAccessInfo RemoteAccessAnalysis::run(Function &F, FunctionAnalysisManager &FAM) {
  RemoteAccessInfo Info;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);

  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!getMarkedParallelism(*L))
      continue;
    SmallPtrSet<Value *, 4> Bases;
    for (CallInst *Marker : getRemoteBaseCalls(*L))
      Bases.insert(Marker->getArgOperand(0)->stripPointerCasts());

    SmallVector<Instruction *, 16> Accesses;
    bool AnyAddressSpace = false;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (Value *Ptr = accessedPointer(I)) {
          Accesses.push_back(&I);
          AnyAddressSpace |= Ptr->getType()->getPointerAddressSpace() == 1;
        }
    const bool Automatic = Bases.empty() && !AnyAddressSpace;

    auto &List = Info.PerLoop[L];
    Info.Order.push_back(L);
    // Program order within the loop, for stable output and suspension numbering.
    for (BasicBlock *BB : L->getBlocksVector())
      for (Instruction &I : *BB) {
        Value *Ptr = accessedPointer(I);
        if (!Ptr)
          continue;
        std::optional<RemoteReason> Reason;
        if (Ptr->getType()->getPointerAddressSpace() == 1)
          Reason = RemoteReason::AddressSpace;
        else if (!Bases.empty() && isBasedOn(Ptr, Bases))
          Reason = RemoteReason::NamedBase;
        else if (Automatic && !isa<AllocaInst>(getUnderlyingObject(Ptr))) {
          // Stack memory is small and recently touched: whatever its index,
          // it is not worth a suspension unless the user names it.
          SmallPtrSet<Value *, 16> Visited;
          if (dependsOnLoopLoad(Ptr, *L, Visited))
            Reason = RemoteReason::IndirectAddress;
          else if (!L->isLoopInvariant(Ptr)) {
            const SCEV *S = SE.getSCEV(Ptr);
            auto *AR = dyn_cast<SCEVAddRecExpr>(S);
            bool Affine = AR && AR->isAffine() && AR->getLoop() == L;
            // An address affine in an inner loop and invariant in L is a
            // stream too.
            if (!Affine && AR && AR->isAffine() && L->contains(AR->getLoop()))
              Affine = SE.isLoopInvariant(AR->getStart(), L) ||
                       isa<SCEVAddRecExpr>(AR->getStart());
            if (!Affine)
              Reason = RemoteReason::NotAffine;
          }
        }
        if (Reason)
          List.push_back({&I, *Reason});
      }
  }
  return Info;
}

bool RemoteAccessInfo::invalidate(Function &, const PreservedAnalyses &PA,
                                  FunctionAnalysisManager::Invalidator &) {
  auto PAC = PA.getChecker<RemoteAccessAnalysis>();
  return !PAC.preserved() && !PAC.preservedSet<AllAnalysesOn<Function>>();
}

void RemoteAccessInfo::print(raw_ostream &OS) const {
  for (const Loop *L : Order) {
    const auto &List = PerLoop.find(L)->second;
    OS << "marked loop " << L->getHeader()->getName() << ": " << List.size()
       << " remote access" << (List.size() == 1 ? "" : "es") << "\n";
    for (const RemoteAccess &A : List) {
      OS << "  " << describe(A.Reason) << ":";
      A.Access->print(OS);
      OS << "\n";
    }
  }
}

PreservedAnalyses RemoteAccessPrinterPass::run(Function &F, FunctionAnalysisManager &FAM) {
  OS << "memcoro remote accesses in '" << F.getName() << "':\n";
  FAM.getResult<RemoteAccessAnalysis>(F).print(OS);
  return PreservedAnalyses::all();
}
