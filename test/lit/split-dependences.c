// Tests the contract's compile-time side: a loop-carried memory dependence
// that dependence analysis proves keeps the loop serial, the remark naming
// both accesses with file:line:col; pairs it cannot tell apart are assumed
// independent and named in an analysis remark; accesses of one iteration only,
// or on restrict pointers, need neither.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=assumed
#include <stddef.h>

void war(long *a, const int *idx, const long *b, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    a[i] = a[i + 1] + b[idx[i]];
}
// CHECK: split-dependences.c:[[@LINE-2]]:10: remark: marked loop not interleaved, kept in serial order with prefetches ahead: its iterations depend on each other through memory: the store at {{.*}}split-dependences.c:[[@LINE-2]]:10 and the load at {{.*}}split-dependences.c:[[@LINE-2]]:12 touch the same memory in iterations 1 apart, so interleaving them would change the answer

void waw(long *out, const int *idx, const long *b, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    *out = b[idx[i]];
}
// CHECK: split-dependences.c:[[@LINE-2]]:10: remark: marked loop not interleaved, kept in serial order with prefetches ahead: its iterations depend on each other through memory: the store at {{.*}}split-dependences.c:[[@LINE-2]]:10 writes one location in every iteration that runs it

void conditional(long *a, const int *idx, const long *b, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    if (b[idx[i]] > 0)
      a[i + 2] = a[i] + 1;
}
// CHECK: split-dependences.c:[[@LINE-2]]:16: remark: marked loop not interleaved, kept in serial order with prefetches ahead: {{.*}} the store at {{.*}}:[[@LINE-2]]:16 and the load at {{.*}}:[[@LINE-2]]:18 can touch the same memory in iterations 2 apart

void in_inner_loop(long *a, const int *head, const int *next, const long *t, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    for (int e = head[i]; e >= 0; e = next[e])
      a[i + 1] = a[i] + t[e];
}
// CHECK: split-dependences.c:[[@LINE-2]]:16: remark: marked loop not interleaved, kept in serial order with prefetches ahead: {{.*}} can touch the same memory in iterations 1 apart

// The two shapes of issue 11: indirect addresses, independent only by the
// pragma's word. Transformed, and the accesses assumed independent are named.
void indirect(long *a, const int *x, const int *y, int n) {
#pragma memcoro parallel(16)
  for (int i = 0; i < n; i++)
    a[x[i]] = a[y[i]] + 1;
}
// CHECK: split-dependences.c:[[@LINE-2]]:13: remark: assumed, as the pragma asserts, that other iterations do not reach the memory this store writes with the load at {{.*}}split-dependences.c:[[@LINE-2]]:15, this store of another iteration (the compiler cannot tell; -fmemcoro-check verifies it at run time)
// CHECK: split-dependences.c:[[@LINE-4]]:3: remark: loop turned into 16 interleaved coroutines

// One iteration's own elements, on restrict pointers: nothing to assume.
void own_elements(long *restrict a, const int *restrict idx, const long *restrict b, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    a[i] = b[idx[i]] * 2;
}
// CHECK: split-dependences.c:[[@LINE-3]]:3: remark: loop turned into 8 interleaved coroutines

// A commutative update of one location by every iteration is a reduction into
// memory: transformed (the read and the write are never split by a yield).
void update_one(long *restrict h, const int *restrict idx, const long *restrict b, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    h[0] += b[idx[i]];
}
// CHECK: split-dependences.c:[[@LINE-3]]:3: remark: loop turned into 8 interleaved coroutines

// When the old value is used as a store's index, which iteration sees which
// count depends on the order: an append through a counter in memory, run in
// iteration order (BufferAppend.cpp), as the serial loop runs it.
void take_ticket(long *cnt, const int *restrict idx, const long *restrict b, long *out, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    out[cnt[0]++] = b[idx[i]];
}
// CHECK: split-dependences.c:[[@LINE-2]]:15: remark: append through a counter in memory runs in iteration order
// CHECK: split-dependences.c:[[@LINE-4]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, pipeline dispatch, {{.*}}, 1 run in iteration order
