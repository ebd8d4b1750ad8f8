//===- LockTable.cpp - read-modify-writes kept whole across a suspension ---===//
//
// CoroAMU's lock table (III-E), for memcoro-split's ring dispatch. A
// commutative update of memory (h[k] += v) whose read and write a suspension
// separates would lose another iteration's update made in between. Instead of
// keeping the loop serial, the update holds its address in a lock table kept
// with the slots (an alloca, no allocation): on arriving at the load the
// iteration hashes the address into its slot; it passes when no other slot
// holds that entry, and holds it until its store. An iteration that finds the
// entry held yields in the wait state of that point and tests again when the
// ring comes back (the wait points of SplitLowering.cpp).
//
// It cannot deadlock: a loop has one locked update, the load and the store
// sit in one block, so an iteration holds at most one entry and waits for
// nothing while it holds it; the holder is visited by the ring like every
// slot, reaches its store and releases. Entries are shared by addresses with
// the same hash: a false wait, never a wrong answer.
//
//   opt -load-pass-plugin=MemcoroPasses.so -passes=memcoro-split -S in.ll
//
//===----------------------------------------------------------------------===//
#include "split/SplitInternal.h"

#include "llvm/IR/Module.h"

using namespace llvm;
using namespace memcoro;

namespace {

class LockTable final : public WaitCodeGen {
public:
  LockTable(Skeleton &S, const LoopPlan &Plan) : WaitCodeGen(S), Plan(Plan) {}

  void createState(IRBuilder<> &Entry) override {
    Table = Entry.CreateAlloca(ArrayType::get(Entry.getInt32Ty(), Entries), nullptr, "memcoro.locks");
  }

  /// Every entry free.
  void initState(IRBuilder<> &Pre) override {
    Pre.CreateMemSet(Table, Pre.getInt8(0), Entries * 4, Table->getAlign());
  }

  /// The entry this slot waits for or holds.
  void addHeaderFields(SmallVectorImpl<Type *> &Fields) override {
    EntryField = Fields.size();
    Fields.push_back(Type::getInt64Ty(S.Ctx));
  }

  void emitArrive(IRBuilder<> &B, Value *Slot, unsigned W) override {
    // Eight-byte granules: the two halves of a word share an entry.
    Value *Address = B.CreatePtrToInt(Plan.Locked[W].first->getPointerOperand(), B.getInt64Ty());
    Value *Entry = B.CreateAnd(B.CreateLShr(Address, B.getInt64(3)), B.getInt64(Entries - 1), "memcoro.lock");
    B.CreateStore(Entry, S.Frame.fieldPtr(B, Slot, EntryField));
  }

  /// Free, or already this slot's (a slot's own earlier trip of an inner loop).
  Value *emitMayPass(IRBuilder<> &B, Value *Slot, unsigned W) override {
    Value *Holder = B.CreateLoad(B.getInt32Ty(), entryPtr(B, Slot), "memcoro.lock.holder");
    return B.CreateOr(B.CreateICmpEQ(Holder, B.getInt32(0)), B.CreateICmpEQ(Holder, owner(B, Slot)));
  }

  void emitPassed(IRBuilder<> &B, Value *Slot, unsigned W) override {
    B.CreateStore(owner(B, Slot), entryPtr(B, Slot));
  }

  void emitLeave(IRBuilder<> &B, Value *Slot, unsigned W) override {
    B.CreateStore(B.getInt32(0), entryPtr(B, Slot));
  }

  void promotableState(SmallVectorImpl<AllocaInst *> &Allocas) override {}

private:
  /// The slot as a holder: its index plus one, 0 meaning free.
  Value *owner(IRBuilder<> &B, Value *Slot) {
    return B.CreateTrunc(B.CreateAdd(Slot, B.getInt64(1)), B.getInt32Ty());
  }
  Value *entryPtr(IRBuilder<> &B, Value *Slot) {
    Value *Entry = B.CreateLoad(B.getInt64Ty(), S.Frame.fieldPtr(B, Slot, EntryField));
    return B.CreateInBoundsGEP(Table->getAllocatedType(), Table, {B.getInt64(0), Entry});
  }

  /// Entries of the table: enough that N slots rarely share one.
  static constexpr unsigned Entries = 1024;
  const LoopPlan &Plan;
  AllocaInst *Table = nullptr;
  unsigned EntryField = 0;
};

} // namespace

std::unique_ptr<WaitCodeGen> memcoro::createLockTableCodeGen(Skeleton &S, const LoopPlan &Plan) {
  return std::make_unique<LockTable>(S, Plan);
}
