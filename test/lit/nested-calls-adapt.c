// Loops that resume a callee as a nested coroutine adapt at run time (issue 15,
// item 5): a copied callee's stack array and the frame buffer of a callee of
// another unit are stack memory of each iteration, which the interleaved
// iterations get one copy per slot of and the serial copy of the loop keeps
// as one object of its own. The serial copy calls the other unit's callee
// plainly, as the loop without the pragma does: a cache-resident table then
// runs serially at the serial loop's speed.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// The serial copy checked where the lowering leaves it, before it moves into
// a function of its own (split/OutlineSerialCopy.cpp).
// RUN: %memcoro-cc -O2 -fno-discard-value-names -mllvm -memcoro-outline-serial-copy=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// Serial copies with stack objects of their own stay in place by default.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=KEPT
// KEPT-NOT: memcoro.serial(
// KEPT: define {{.*}}@sum_here(
// KEPT-NOT: memcoro.serial(
// KEPT: define {{.*}}@sum_elsewhere(
// KEPT-NOT: memcoro.serial(
#include <stdint.h>

struct entry { int64_t key, value; struct entry *next; };

int64_t lookup(struct entry *const *heads, uint64_t mask, int64_t key);

__attribute__((noinline)) int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key) {
  int64_t path[4];
  int depth = 0;
  for (const struct entry *e = heads[((uint64_t)key * 0x9E3779B97F4A7C15ull >> 17) & mask]; e; e = e->next) {
    path[depth++ & 3] = e->key;
    if (e->key == key)
      return e->value + path[0];
  }
  return -1;
}

// CHECK-NOT: does not adapt
// CHECK: nested-calls-adapt.c:[[#@LINE+4]]:3: remark: loop adapts at run time
int64_t sum_here(struct entry *const *heads, uint64_t mask, const int64_t *keys, int n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (int i = 0; i < n; ++i)
    s += probe(heads, mask, keys[i]);
  return s;
}
// CHECK: remark: loop turned into 16 interleaved coroutines: {{.*}}callee 'probe' resumed as a nested coroutine

// CHECK-NOT: does not adapt
// CHECK: nested-calls-adapt.c:[[#@LINE+4]]:3: remark: loop adapts at run time
int64_t sum_elsewhere(struct entry *const *heads, uint64_t mask, const int64_t *keys, int n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (int i = 0; i < n; ++i)
    s += lookup(heads, mask, keys[i]);
  return s;
}
// CHECK: remark: loop turned into 16 interleaved coroutines: {{.*}}callee 'lookup' of another translation unit resumed
// CHECK-NOT: does not adapt

// The copied callee's array: one copy per slot, and the serial copy's own.
// IR-LABEL: define {{.*}} @sum_here(
// IR-DAG: %path.i.serial = alloca [4 x i64]
// IR-DAG: %path.i.memcoro.private = alloca [512 x i8]
// IR: call void @llvm.lifetime.start.p0(i64 32, ptr nonnull %path.i.serial)

// The frame buffers are per slot; the serial copy makes the plain call and
// neither resumes nor yields.
// IR-LABEL: define {{.*}} @sum_elsewhere(
// IR: %nested.frame.memcoro.private = alloca [4096 x i8]
// IR: br i1 %{{.*}}, label %[[SERIAL:[a-z.]+\.serial]], label %memcoro.window
// IR: call ptr %{{.*}}(ptr nonnull %nested.frame.own
// IR: [[SERIAL]]:
// IR-NOT: nested.frame
// IR: call i64 @lookup(
// IR-NOT: nested.frame
// IR: br i1 %{{.*}}, label %memcoro.adapt.next, label %[[SERIAL]]
// IR-NEXT: }
