//===- RegisterAppend.cpp - appends whose counter lives in a register -----===//
//
// A part of memcoro-split's legality (see SplitInternal.h), for
// SplitOrdered.cpp and the lowering's demoteAppendCounters: appends through a
// buffer object that the optimiser took apart,
//
//   lq.push_back(v)   if (in == size) { copy(buf, buf + in, out); in = 0; }
//                     buf[in++] = v;
//                     (GAP's QueueBuffer, flush() inlined: SROA keeps `in`
//                     in a register, a header phi reset to 0 at the flush)
//   get_new_bucket()  if (buf->count < SIZE) b = &buf->buf[buf->count++];
//                     else { nb = malloc(...); nb->next = buf; buf = nb; ... }
//                     (a bump allocator whose current block, once inlined
//                     into the caller that owns it, is a register)
//
// The value is a web of phis (phiWeb) whose other values are increments by
// loop invariants, other instructions of the loop (malloc's result) and
// loop invariants a phi takes from one block (the reset). Something it
// reaches is the address of a store: it is an append. Which iteration gets
// which place depends on the order in which iterations read it, so from its
// first read on each path the iteration runs in iteration order, to its end
// (as an append through a counter in memory, BufferAppend.cpp), and the
// lowering keeps the value in one shared scalar: each use reads it, each
// definition and reset writes it where it takes effect. The flush, the
// malloc, every other statement after the first read runs in place and in
// order, so the buffer fills as the serial loop fills it.
//
// A std::vector local to the loop's function leaves three such phis: begin
// and end reach the addresses of the stores (the element, and the one the
// growth path writes into its new storage), and the capacity, compared with
// end, reaches none. The capacity is a companion of the append: every first
// read of it already holds an append's turn (the compare reads end too), so
// it is kept in a shared scalar the same way (recogniseAppendCompanion,
// asked by legality once every other header phi is classified).
//
// A use of a value after a later definition (`old = in; in = 0; use(old)`)
// would read the new one from the scalar: refused, as for `next[n++] = v`.
//
// Under a lock (NPO takes the bucket's latch, then the overflow bucket): an
// iteration waiting for its turn while holding a latch an older iteration
// needs would hang the thread, so in a loop that takes locks an append's
// turn is taken before the first lock on its way (TurnBeforeLocks.cpp, as
// for every other ordered section).
//
//   before                                after (demoteRegisterAppend)
//   in = phi [0, ph], [in.3, latch]       (dead: one shared scalar, %shared)
//   full = in == size                     full = (load %shared) == size
//   flush: memcpy(.., in * 4)             flush: memcpy(.., (load %shared) * 4)
//                                                store 0, %shared      (reset)
//   in.2 = phi [in, ..], [0, flush]       (dead)
//   buf[in.2] = v; in.3 = in.2 + 1        c = load %shared; buf[c] = v
//                                         in.3 = c + 1; store in.3, %shared
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes='print<memcoro-plan>' \
//       -disable-output in.ll
//
//===----------------------------------------------------------------------===//
#include "MemcoroInternal.h"
#include "split/SplitInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/Debug.h"

using namespace llvm;
using namespace memcoro;

#define DEBUG_TYPE "memcoro-split"

STATISTIC(NumRegisterAppends, "Number of append counters kept in a register run in iteration order");
STATISTIC(NumAppendCompanions, "Number of other buffer fields kept in a register run in an append's order");

bool memcoro::recogniseRegisterValue(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi, RegisterValue Kind,
                                     function_ref<bool(Instruction *)> TurnHeld) {
  Loop &L = Plan.L;
  bool Companion = Kind == RegisterValue::Companion, InRegion = Kind == RegisterValue::InOrderedRegion;
  auto fail = [&](const char *Why) {
    LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " is no "
                      << (Companion  ? "companion of an append in a register"
                          : InRegion ? "value carried in an ordered region"
                                     : "append counter in a register")
                      << ": " << Why << "\n");
    return false;
  };
  // A value carried in order is any value the region computes (`h = h *
  // 31 + v` in a double too); an append's is an index or an address.
  if (Phi->getParent() != L.getHeader() || !Plan.Preheader || !Plan.Latch ||
      !(InRegion || Phi->getType()->isIntegerTy() || Phi->getType()->isPointerTy()))
    return false;
  AppendCounter C;
  C.Phi = Phi;
  C.Buffered = true;
  C.InOrderedRegion = InRegion;
  // The phis the variable flows into. A phi that only merges values
  // computed for it (a vector's new storage: null, or operator new's result)
  // is one of its assignments, made where that phi's value reaches the web.
  // A phi of an inner loop's header that steps from the value (the loop
  // that moves a vector's elements into its new storage) is a read of it.
  auto walksFrom = [&](PHINode *P) {
    Loop *Inner = A.LI.getLoopFor(P->getParent());
    BasicBlock *InnerLatch = Inner != &L && Inner->getHeader() == P->getParent() ? Inner->getLoopLatch() : nullptr;
    auto *Step = InnerLatch ? dyn_cast<Instruction>(P->getIncomingValueForBlock(InnerLatch)) : nullptr;
    return Step && !isa<PHINode>(Step) && is_contained(Step->operands(), P);
  };
  // A phi the web takes a value from is the variable too unless all it
  // merges are fresh values (the new storage above): the latch's merge of
  // `in + 5` on one branch and `in + 2` on another, or of the values each
  // branch stored to the field GVN forwarded across the back edge (Redis's
  // reply buffer position in dictget.c). Another header phi is a variable of
  // its own, whose value is assigned (`last = i` takes the counter's).
  auto computedInLoop = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return I && L.contains(I) && !isa<CallBase>(I);
  };
  auto joinsWeb = [&](PHINode *P) { return L.contains(P) && !walksFrom(P); };
  SmallVector<PHINode *, 4> Web = {Phi};
  for (unsigned I = 0; I < Web.size(); ++I) {
    for (User *U : Web[I]->users())
      if (auto *P = dyn_cast<PHINode>(U); P && !is_contained(Web, P) && joinsWeb(P))
        Web.push_back(P);
    for (Value *In : Web[I]->incoming_values())
      if (auto *P = dyn_cast<PHINode>(In);
          P && !is_contained(Web, P) && joinsWeb(P) && P->getParent() != L.getHeader() &&
          any_of(P->incoming_values(), computedInLoop))
        Web.push_back(P);
  }
  SmallPtrSet<Instruction *, 16> Closure(Web.begin(), Web.end());
  // Two phis of it in one block would be two values of it at once.
  SmallPtrSet<BasicBlock *, 8> Blocks;
  for (PHINode *P : Web)
    if (!Blocks.insert(P->getParent()).second) {
      LLVM_DEBUG(dbgs() << "memcoro-split: merged again by" << *P << "\n");
      return fail("two of its phis merge in one block");
    }
  // What the phis take other than each other: the variable's assignments,
  // on the edge from the incoming block (the header phi's entering value
  // aside).
  SmallVector<Instruction *, 2> Defs;
  for (PHINode *P : Web)
    for (unsigned In = 0; In < P->getNumIncomingValues(); ++In) {
      Value *V = P->getIncomingValue(In);
      BasicBlock *From = P->getIncomingBlock(In);
      if ((P == Phi && From == Plan.Preheader) || (isa<PHINode>(V) && Closure.contains(cast<PHINode>(V))))
        continue;
      C.Assigned.push_back({P, From});
      if (auto *Def = dyn_cast<Instruction>(V); Def && L.contains(Def) && !is_contained(Defs, Def))
        Defs.push_back(Def);
    }
  if (C.Assigned.empty())
    return fail("never assigned in the loop");
  // Only ever read again from memory (under -fopenmp a shared `C` re-read
  // after each store that may alias it, as the column count of `out[r * C
  // + c]`): a carried load, no counter the loop advances.
  if (!Defs.empty() && all_of(Defs, [](Instruction *Def) { return isa<LoadInst>(Def); }))
    return fail("each of its values is read from memory");
  // Reads: the uses of its phis in the loop. After the loop only the value
  // the latch hands on is used.
  Value *LatchValue = Phi->getIncomingValueForBlock(Plan.Latch);
  SmallVector<Instruction *, 16> Values(Web.begin(), Web.end());
  append_range(Values, Defs);
  for (Instruction *X : Values)
    for (User *U : X->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI)) {
        // A path that ends the program (the vector's length error, its
        // fields stored back on the way) may read any of its values.
        if (X != LatchValue && !blockEndsProgram(UI->getParent())) {
          LLVM_DEBUG(dbgs() << "memcoro-split: used after the loop by" << *UI << "\n");
          return fail("an intermediate value is used after the loop");
        }
        continue;
      }
      if (!is_contained(Web, X) || Closure.contains(UI))
        continue;
      if (isa<PHINode>(UI) && !walksFrom(cast<PHINode>(UI)))
        return fail("a phi merges it with another value");
      if (!is_contained(C.Reads, UI))
        C.Reads.push_back(UI);
    }
  // A region may only assign it (`last = i`): the scalar then keeps the
  // last assignment in iteration order for the code after the loop.
  if (C.Reads.empty() && !InRegion)
    return fail("it is never read");
  if (Kind == RegisterValue::Append && none_of(C.Reads, [&](Instruction *R) { return indexesStore(L, R, nullptr, A.DL); }))
    return fail("no store's address is computed from it");
  // The first reads on each path: from there the iteration holds the turn,
  // so every assignment must come after one (in a region, after its marker).
  SmallVector<Instruction *, 2> Starts;
  for (Instruction *R : C.Reads)
    if (none_of(C.Reads, [&](Instruction *O) { return O != R && A.DT.dominates(O, R); }))
      Starts.push_back(R);
  auto afterStart = [&](Instruction *I) {
    return any_of(Starts, [&](Instruction *S) { return S == I || A.DT.dominates(S, I); });
  };
  for (auto [P, From] : C.Assigned)
    if (!(InRegion ? TurnHeld(From->getTerminator()) : afterStart(From->getTerminator())))
      return fail("it is assigned before the iteration holds its turn");
  // A companion rides on an append's turn, a value carried in a region on
  // the region's: the iteration holds it wherever the value is first read.
  if (Kind != RegisterValue::Append && !all_of(Starts, TurnHeld))
    return fail("it is read where the iteration does not hold its turn yet");
  // One shared scalar holds it, assigned at the end of a block: no
  // assignment may come between a phi and a use of the phi's value.
  for (PHINode *X : Web)
    for (Use &U : X->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (!L.contains(User))
        continue;
      Instruction *At = usePosition(U);
      for (auto [P, From] : C.Assigned) {
        Instruction *E = From->getTerminator();
        if ((E == At && !isa<PHINode>(User)) ||
            (reachesInIteration(L, X, E, nullptr) && reachesInIteration(L, E, At, X))) {
          LLVM_DEBUG(dbgs() << "memcoro-split: the use" << *User << " follows the assignment at" << *E << "\n");
          return fail("a value of it is used after a later assignment");
        }
      }
    }
  append_range(C.Closure, Closure);
  // A phi among the assignments (the new storage, null or operator new's
  // result) keeps its value: the closure's phis are the ones made dead.
  for (Instruction *Def : Defs)
    if (!isa<PHINode>(Def))
      C.Closure.push_back(Def);
  sortClosure(C.Closure);
  // A region's marker is its ordered point already.
  if (!InRegion)
    for (Instruction *S : Starts)
      if (!is_contained(Plan.RegisterAppendStarts, S))
        Plan.RegisterAppendStarts.push_back(S);
  if (Kind == RegisterValue::Append)
    ++NumRegisterAppends;
  else if (Companion)
    ++NumAppendCompanions;
  LLVM_DEBUG(dbgs() << "memcoro-split: " << Phi->getName() << " is "
                    << (Companion  ? "a companion of an append"
                        : InRegion ? "a value carried in an ordered region"
                                   : "an append counter")
                    << " kept in a register; in order from its first read\n");
  Plan.Counters.push_back(std::move(C));
  return true;
}

bool memcoro::recogniseRegisterAppend(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  return recogniseRegisterValue(A, Plan, Phi, RegisterValue::Append, nullptr);
}

bool memcoro::recogniseAppendCompanion(const SplitAnalyses &A, LoopPlan &Plan, PHINode *Phi) {
  return !Plan.RegisterAppendStarts.empty() &&
         recogniseRegisterValue(A, Plan, Phi, RegisterValue::Companion, [&](Instruction *S) {
           return any_of(Plan.RegisterAppendStarts, [&](Instruction *T) { return T == S || A.DT.dominates(T, S); });
         });
}

void memcoro::demoteRegisterAppend(const Loop &L, const AppendCounter &C, AllocaInst *Slot,
                                   DenseMap<Instruction *, Instruction *> &ReadAt) {
  // A path out of the loop that ends the program (the vector's length
  // error) stores nothing anyone reads again.
  for (Instruction *I : C.Closure)
    I->replaceUsesWithIf(PoisonValue::get(I->getType()), [&](Use &U) {
      auto *User = cast<Instruction>(U.getUser());
      return !L.contains(User) && blockEndsProgram(User->getParent());
    });
  for (auto [P, From] : C.Assigned)
    new StoreInst(P->getIncomingValueForBlock(From), Slot, From->getTerminator()->getIterator());
  // The definitions' own uses keep their value: they run in this iteration,
  // after it was read.
  auto fromIt = [&](Value *Op) { return isa<PHINode>(Op) && is_contained(C.Closure, cast<PHINode>(Op)); };
  // An inner loop's walk from it reads it where that loop is entered.
  SmallVector<Instruction *, 8> InPlace;
  for (Instruction *R : C.Reads) {
    auto *Walk = dyn_cast<PHINode>(R);
    if (!Walk) {
      InPlace.push_back(R);
      continue;
    }
    for (unsigned In = 0; In < Walk->getNumIncomingValues(); ++In)
      if (fromIt(Walk->getIncomingValue(In)))
        Walk->setIncomingValue(In, new LoadInst(C.Phi->getType(), Slot, C.Phi->getName() + ".current",
                                                Walk->getIncomingBlock(In)->getTerminator()->getIterator()));
  }
  readSharedCounter(C, Slot, InPlace, fromIt, ReadAt);
}
