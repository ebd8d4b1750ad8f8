// Tests what a visit of the general ring costs (issue 15, item 8), on a
// chained hash probe with two suspension points: the count of live slots is
// tested only where a slot retires, not at every visit; the probe's running
// match count and payload sum are folded into their accumulators at the
// suspension inside the chain walk and start again from 0 on resume, so the
// slot has no field for them (key, bucket and entry only); a floating-point
// sum keeps its field (its parts, folded in another order, would round
// differently).
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
#include <stdint.h>

typedef struct {
  uint64_t key, payload;
  uint32_t next, pad[3];
} entry_t;

// CHECK: %memcoro.slot = type { i32, i64, ptr, ptr }
// CHECK: %memcoro.slot.0 = type { i32, ptr, double, ptr, ptr }

// CHECK-LABEL: define {{.*}} @probe(
// CHECK: memcoro.next:
// CHECK-NOT: icmp
// CHECK: br label %memcoro.sched
// CHECK: memcoro.retire:
// CHECK: [[LEFT:%.*]] = add i64 %memcoro.live{{.*}}, -1
// CHECK-NEXT: [[NONE:%.*]] = icmp eq i64 [[LEFT]], 0
// CHECK-NEXT: br i1 [[NONE]], label %{{.*}}, label %memcoro.next
// The entry's suspension: its two prefetches, the folds, no store of a sum.
// CHECK: getelementptr i8, ptr %{{.*}}, i64 16
// CHECK-NEXT: call void @llvm.prefetch
// CHECK-NEXT: add i64 %matches{{.*}}.memcoro.acc{{.*}}, %matches
// CHECK-NEXT: add i64 %sum{{.*}}.memcoro.acc{{.*}}, %sum
// CHECK-NOT: store i64
// CHECK: br label %memcoro.next
// CHECK: memcoro.resume.2:
// CHECK-NOT: memcoro.acc
// CHECK: br i1
void probe(const entry_t *entries, const uint32_t *heads, unsigned shift, const uint64_t *keys, uint64_t n,
           uint64_t *out) {
  uint64_t matches = 0, sum = 0;
#pragma memcoro parallel(16) remote(entries, heads)
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t key = keys[i];
    for (uint32_t e = heads[(key * 0x9e3779b97f4a7c15ull) >> shift]; e != ~0u; e = entries[e].next)
      if (entries[e].key == key) {
        ++matches;
        sum += entries[e].payload;
      }
  }
  out[0] = matches;
  out[1] = sum;
}
// REMARK: split-ring-visit.c:[[@LINE-11]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch, 32 bytes of context per slot

// CHECK-LABEL: define {{.*}} @probe_fp(
// CHECK: store double
double probe_fp(const entry_t *entries, const uint32_t *heads, unsigned shift, const uint64_t *keys, uint64_t n) {
#pragma clang fp reassociate(on)
  double sum = 0;
#pragma memcoro parallel(16) remote(entries, heads)
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t key = keys[i];
    for (uint32_t e = heads[(key * 0x9e3779b97f4a7c15ull) >> shift]; e != ~0u; e = entries[e].next)
      sum += (double)entries[e].payload;
  }
  return sum;
}
// REMARK: split-ring-visit.c:[[@LINE-7]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch, 40 bytes of context per slot
