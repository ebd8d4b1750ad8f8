// A sequence read on some paths only (mcf's `arc->tail` under `if
// (arc->ident > 0)`) is read ahead beside a field every iteration reads
// (`arc->ident`), not on its own path: there the prefetches ahead skipped
// the arcs whose ident is basic and the arcs whose element ahead lay in the
// next page. The read ahead is bounded by the guard's last element and stays
// in the page of the guard's element ahead (split/PrefetchAhead.cpp, guardOf).
// A sequence with no such neighbour (`ix[i]` under `flag[i]`) keeps its own
// path and the page rule.
// RUN: %memcoro-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o - | %FileCheck %s
#include <stdint.h>

struct node {
  int64_t potential, depth;
};
struct arc {
  int64_t cost;
  struct node *tail, *head;
  int32_t ident, pad;
};

// CHECK-LABEL: define internal void @price.memcoro.prefetching(
// CHECK: %ident = getelementptr inbounds i8, ptr %[[ARC:.*]], i64 24
// CHECK-NEXT: %[[IDENT:.*]] = load i32, ptr %ident
// 16 arcs of 64 bytes ahead of the ident at 24.
// CHECK-NEXT: %memcoro.ahead.ptr = getelementptr i8, ptr %[[ARC]], i64 1048
// CHECK-NEXT: %memcoro.ahead.inrange.not = icmp ugt ptr %memcoro.ahead.ptr, %[[LAST:.*]]
// CHECK-NEXT: br i1 %memcoro.ahead.inrange.not
// The tail's first byte, 16 before the ident: one page check for both.
// CHECK: %[[AT:.*]] = ptrtoint ptr %memcoro.ahead.ptr to i64
// CHECK-NEXT: %[[LOW:.*]] = add i64 %[[AT]], -16
// CHECK-NEXT: %[[APART:.*]] = xor i64 %[[LOW]], %[[AT]]
// CHECK-NEXT: %memcoro.ahead.inpage = icmp ult i64 %[[APART]], 4096
// CHECK: getelementptr i8, ptr %[[ARC]], i64 1032
// CHECK-NEXT: %.ahead = load ptr
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %.ahead, i32 0, i32 3, i32 1)
// CHECK: getelementptr i8, ptr %[[ARC]], i64 1040
// CHECK-NEXT: %[[HEAD:.*]] = load ptr
// CHECK-NEXT: call void @llvm.prefetch.p0(ptr %[[HEAD]], i32 0, i32 3, i32 1)
// The branch on the ident comes after the reads ahead.
// CHECK: icmp sgt i32 %[[IDENT]], 0
uint64_t price(const struct arc *arcs, long n) {
  uint64_t h = 0;
#pragma memcoro
  for (long i = 0; i < n; ++i)
    if (arcs[i].ident > 0)
      h = (h ^ (uint64_t)(arcs[i].cost - arcs[i].tail->potential + arcs[i].head->potential)) * 31;
  return h;
}

// CHECK-LABEL: define internal void @flagged.memcoro.prefetching(
// CHECK: %[[FLAG:.*]] = load i8
// CHECK-NEXT: icmp eq i8 %[[FLAG]], 0
// CHECK: load i32, ptr %[[IXP:[a-z0-9.]+]],
// CHECK-NOT: memcoro.ahead.inrange
// CHECK: %memcoro.ahead.inpage = icmp ult
// CHECK: getelementptr i8, ptr %[[IXP]], i64 256
// CHECK: call void @llvm.prefetch.p0(
uint64_t flagged(const uint64_t *t, const uint32_t *ix, const uint8_t *flag, long n) {
  uint64_t h = 0;
#pragma memcoro
  for (long i = 0; i < n; ++i)
    if (flag[i])
      h = (h ^ t[ix[i]]) * 31;
  return h;
}
