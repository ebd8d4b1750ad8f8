// Tests what a visit of the general ring costs (issue 15, item 8), on list
// walks with two suspension points (the list head, each node): the count of
// live slots is tested only where a slot retires, not at every visit; the
// walk's running hit count and value sum are folded into their accumulators
// at the suspension inside the walk and start again from 0 on resume, so the
// slot has no field for them; a floating-point sum keeps its field (its
// parts, folded in another order, would round differently).
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
#include <stdint.h>

struct node {
  struct node *next;
  uint64_t key, value;
};

// state, i (for wanted[i]), the head's address, wanted[i], the node.
// CHECK: %memcoro.slot = type { i32, i64, ptr, i64, ptr }
// 32 bytes, padded to 40: slots a multiple of 16 bytes apart run slower
// (SplitFrame.cpp, layOutSlots).
// CHECK: %memcoro.slot.0 = type { i32, ptr, ptr, double, i64 }

// CHECK-LABEL: define {{.*}} @count_hits(
// CHECK: memcoro.next:
// CHECK-NOT: icmp
// CHECK: br label %memcoro.sched
// CHECK: memcoro.retire:
// CHECK: [[LEFT:%.*]] = add i64 %memcoro.live{{.*}}, -1
// CHECK-NEXT: [[NONE:%.*]] = icmp eq i64 [[LEFT]], 0
// CHECK-NEXT: br i1 [[NONE]], label %{{.*}}, label %memcoro.next
// The node's suspension: its prefetches, the folds, no store of a sum.
// CHECK: call void @llvm.prefetch.p0(ptr nonnull %value
// CHECK-NEXT: add i64 %t{{.*}}.memcoro.acc
// CHECK-NEXT: add i64 %h{{.*}}.memcoro.acc
// CHECK-NOT: store i64
// CHECK: br label %memcoro.next
void count_hits(struct node *const *lists, const uint32_t *which, const uint64_t *wanted, long n, uint64_t *hits,
                uint64_t *total) {
  uint64_t h = 0, t = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; ++i)
    for (const struct node *p = lists[which[i]]; p; p = p->next) {
      h += p->key == wanted[i];
      t += p->value;
    }
  *hits = h;
  *total = t;
}
// REMARK: split-ring-visit.c:[[@LINE-8]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch, 40 bytes of context per slot

// CHECK-LABEL: define {{.*}} @sum_values(
// CHECK: store double
double sum_values(struct node *const *lists, const uint32_t *which, long n) {
#pragma clang fp reassociate(on)
  double s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; ++i)
    for (const struct node *p = lists[which[i]]; p; p = p->next)
      s += (double)p->value;
  return s;
}
// REMARK: split-ring-visit.c:[[@LINE-5]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch, 32 bytes of context per slot
