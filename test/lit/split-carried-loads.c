// Tests the reads GVN carries across the back edge (split/CarriedLoad.cpp,
// split/ReloadedBound.cpp):
// the next row's start forwarded into the next iteration is read again in
// each iteration (NPB CG), unless the loop may write it; a bound re-read only
// after a compare-and-swap (GAP's Afforest) is evaluated once, before the
// loop. Also a hand-made spin lock (an asm statement, a volatile release):
// the release is part of the lock, and the loop interleaves.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
#include <stdint.h>

int nrows;
int *rowstr, *colidx;
double *a;

void spmv(const double *p, double *q) {
#pragma memcoro parallel(8) insist
  for (int j = 0; j < nrows; j++) {
    double sum = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum = sum + a[k] * p[colidx[k]];
    q[j] = sum;
  }
}
// REMARK: split-carried-loads.c:[[@LINE-7]]:3: remark: loop turned into 8 interleaved coroutines
// CHECK-LABEL: define {{.*}} @spmv(
// CHECK:       memcoro.iter.start:
// CHECK:       .again = load i32

// The user carries the next start, then writes ints through a pointer that
// may be the same array: the carried value may not be what the array holds
// in the next iteration, and the loop stays serial.
void carried_by_user(const int *starts, int *marks, const double *p, double *q, int n) {
  int start = starts[0];
#pragma memcoro parallel(8) insist
  for (int j = 0; j < n; j++) {
    q[j] = p[start];
    start = starts[j + 1];
    marks[j + 1] = 1;
  }
}
// REMARK: split-carried-loads.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: a value{{.*}} is carried from one iteration to the next
// CHECK-LABEL: define {{.*}} @carried_by_user(
// CHECK-NOT:   .again
// CHECK-NOT:   memcoro.stage
// CHECK:       ret void

typedef struct {
  int64_t num_nodes;
  int64_t *index;
  int32_t *neighs;
} graph_t;

// Afforest's link step: the bound is read again after the cmpxchg.
void link_first(const graph_t *g, int32_t *comp) {
#pragma memcoro parallel(8)
  for (int64_t u = 0; u < g->num_nodes; u++) {
    if (g->index[u] == g->index[u + 1])
      continue;
    int32_t v = g->neighs[g->index[u]];
    int32_t p1 = comp[u], p2 = comp[v];
    int32_t high = p1 > p2 ? p1 : p2, low = p1 + (p2 - high);
    if (comp[high] == high)
      __sync_bool_compare_and_swap(&comp[high], high, low);
  }
}
// REMARK: split-carried-loads.c:[[@LINE-10]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}; its bound, read through memory, evaluated once before the loop, as OpenMP does
// CHECK-LABEL: define {{.*}} @link_first(
// CHECK:       memcoro.iter.start:

// A spin lock through an asm statement, released by a volatile store of 0:
// the release is part of the lock, and the yield moves in front of it.
static inline void lock(volatile char *l) {
  char old;
  do
    __asm__ __volatile__("xchgb %0,%1" : "=q"(old), "=m"(*l) : "0"((unsigned char)0xff), "m"(*l) : "memory");
  while (old);
}

void locked_count(volatile char *latch, uint32_t *count, const uint32_t *key, uint64_t n, uint32_t mask) {
#pragma memcoro parallel(8)
  for (uint64_t i = 0; i < n; i++) {
    uint32_t b = key[i] & mask;
    lock(&latch[b]);
    count[b]++;
    latch[b] = 0;
  }
}
// REMARK: split-carried-loads.c:[[@LINE-7]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, {{.*}}the call to inline asm runs in place
