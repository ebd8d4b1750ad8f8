// The serial copy of an adapting ring prefetches its gathers off affine
// sequences ahead (split/PrefetchSerialCopy.cpp): run-time adaptation runs it
// while the coroutines measure no faster, and the copy as written stays
// beside it for data near the core. A pipeline's serial copy does not
// (its one suspension is a prefetch distance already, and its serial copy
// runs on data near the core).
// RUN: %memcoro-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o - | %FileCheck %s
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o - -mllvm -memcoro-prefetch-serial-copy=0 | %FileCheck %s --check-prefix=OFF
#include <stdint.h>

struct node {
  uint64_t key, value;
  struct node *next;
};

// CHECK-LABEL: define {{.*}} @probe(
// CHECK: call void @probe.memcoro.serial(
// The copy is kept twice, as written and prefetching, switched by measured
// cycles (split/PrefetchSwitch.cpp), by the threshold of a flat loop (32).
// CHECK-LABEL: define internal void @probe.memcoro.serial(
// CHECK: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 32)
// CHECK: %.ahead = load i32, ptr %memcoro.ahead.ptr
// CHECK: call void @llvm.prefetch.p0(ptr {{%.*}}, i32 0, i32 3, i32 1)
// CHECK: if.else.serial.plain:
// CHECK-NOT: @llvm.prefetch
// CHECK: ret void
// CHECK-LABEL: define {{.*}} @gather(
// CHECK-LABEL: define internal void @gather.memcoro.serial(
// CHECK-NOT: @llvm.prefetch
// CHECK: ret void

// REMARK: remark: loop turned into 16 interleaved coroutines: {{[0-9]+}} suspension points, ring dispatch
// REMARK: remark: the loop's serial windows, which run-time adaptation runs while interleaving is not faster, prefetch 'buckets[...]' 32 iterations ahead, the load at {{.*}}split-prefetch-serial-copy.c:{{[0-9]+}}:{{[0-9]+}} 16 iterations ahead (through 2 loads ahead) (switched at run time with the copy as written, which runs where the prefetches measure slower)
// REMARK: remark: loop turned into 16 interleaved coroutines: 1 suspension point, pipeline dispatch
// REMARK-NOT: serial windows

// OFF-LABEL: define internal void @probe.memcoro.serial(
// OFF-NOT: @llvm.prefetch
// OFF: ret void

uint64_t probe(struct node **buckets, const uint32_t *keys, long n, uint32_t mask) {
  uint64_t found = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; ++i) {
    uint32_t k = keys[i];
    for (struct node *p = buckets[k & mask]; p; p = p->next)
      if (p->key == k) {
        found += p->value;
        break;
      }
  }
  return found;
}

uint64_t gather(const uint64_t *t, const uint32_t *ix, long n) {
  uint64_t s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
