// Tests the cost model of memcoro-split's plan (split/SplitCost.cpp): each
// decision, its remark, the loop left serial when nothing is worth a
// suspension, and the two ways to insist (the clause, the driver flag).
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -ffast-math -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -ffast-math -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
#include <stddef.h>
#include <stdint.h>

// An affine stream named in remote(): the prefetcher serves it.
void triad(double *a, const double *b, const double *c, double q, size_t n) {
#pragma memcoro parallel(16) remote(a, b, c)
  for (size_t i = 0; i < n; ++i)
    a[i] = b[i] + q * c[i];
}
// CHECK: split-cost-model.c:[[@LINE-2]]:12: remark: no suspension at this load: an affine stream the hardware prefetcher serves
// CHECK: split-cost-model.c:[[@LINE-3]]:12: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}split-cost-model.c:[[@LINE-3]]:12: an affine stream the hardware prefetcher serves (write 'insist' in the pragma, or build with -fno-memcoro-cost-model, to interleave it anyway)
// OFF: split-cost-model.c:[[@LINE-5]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point

// The same loop, and the user insists.
void triad_insist(double *a, const double *b, const double *c, double q, size_t n) {
#pragma memcoro parallel(16) remote(a, b, c) insist
  for (size_t i = 0; i < n; ++i)
    a[i] = b[i] + q * c[i];
}
// CHECK-NOT: no suspension at this load
// CHECK: split-cost-model.c:[[@LINE-4]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point, pipeline dispatch

// Index arithmetic on the counter: a wrapping neighbour, as in lbm.
void neighbour(double *out, const double *in, size_t nx, size_t n) {
#pragma memcoro parallel(8) remote(in)
  for (size_t c = 0; c < n; ++c) {
    size_t x = c % nx;
    size_t left = x == 0 ? c + nx - 1 : c - 1;
    out[c] = in[left] + in[c];
  }
}
// CHECK: split-cost-model.c:[[@LINE-3]]:14: remark: no suspension at this load: its address is computed from the loop counter by index arithmetic alone
// CHECK: remark: marked loop left serial: no access in the loop is worth a suspension

// A hash of the counter is not index arithmetic: it scatters.
uint64_t hashed(const uint64_t *t, size_t mask, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(8) remote(t)
  for (size_t i = 0; i < n; ++i)
    s += t[((i * 0x9e3779b97f4a7c15ull) >> 17) & mask];
  return s;
}
// CHECK-NOT: no suspension at this load
// CHECK: split-cost-model.c:[[@LINE-5]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point

// Issue 13's mixed loop: hot is a 4 KiB table, cold misses. One suspension.
uint32_t hot[1024];
uint64_t mixed(const uint32_t *ix, const uint32_t *iy, const uint64_t *cold, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}
// CHECK: split-cost-model.c:[[@LINE-3]]:10: remark: no suspension at this load: into an object of 4 KiB, which fits in the cache
// CHECK: split-cost-model.c:[[@LINE-5]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point, pipeline dispatch
// OFF: split-cost-model.c:[[@LINE-6]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points

// A table declared without its size elsewhere: its size is not known, and it
// keeps its suspension.
extern uint64_t far_table[];
uint64_t unsized(const uint32_t *ix, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += far_table[ix[i]];
  return s;
}
// CHECK-NOT: no suspension at this load
// CHECK: split-cost-model.c:[[@LINE-5]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point

// Pull PageRank: the inner loop's loads are independent; the core overlaps
// them. Nothing else misses, so the loop stays serial. (With off[u] and
// off[u + 1] as bounds, LLVM carries off[u + 1] over to the next iteration
// and legality keeps the loop serial before the cost model sees it.)
struct range { uint32_t begin, end; };
void pagerank(const struct range *in, const uint32_t *nbr, const double *contrib, double *next, size_t nv) {
#pragma memcoro parallel(16)
  for (size_t u = 0; u < nv; ++u) {
    double sum = 0;
    for (uint32_t e = in[u].begin; e < in[u].end; ++e)
      sum += contrib[nbr[e]];
    next[u] = sum;
  }
}
// CHECK: split-cost-model.c:[[@LINE-4]]:22: remark: no suspension at this load: an affine stream the hardware prefetcher serves
// CHECK: split-cost-model.c:[[@LINE-5]]:14: remark: no suspension at this load: an independent load of an inner loop, which the processor already overlaps with the next iterations' loads; a yield per load would serialise them
// CHECK: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}an affine stream the hardware prefetcher serves; {{.*}}an independent load of an inner loop
// OFF: split-cost-model.c:[[@LINE-10]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch

// The row pointer is the outer loop's own miss: it keeps its suspension;
// the row is a stream.
int64_t rows(const int64_t *const *row, const uint32_t *which, size_t n, size_t cols) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i) {
    const int64_t *r = row[which[i]];
    for (size_t c = 0; c < cols; ++c)
      s += r[c];
  }
  return s;
}
// CHECK: split-cost-model.c:[[@LINE-4]]:12: remark: no suspension at this load: an affine stream
// CHECK: split-cost-model.c:[[@LINE-8]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point

// A list walk in the inner loop is a chain the core cannot overlap: it keeps
// its suspensions.
struct node { struct node *next; long v; };
long lists(struct node *const *heads, size_t n) {
  long s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    for (struct node *p = heads[i]; p; p = p->next)
      s += p->v;
  return s;
}
// CHECK-NOT: no suspension at this load
// CHECK: split-cost-model.c:[[@LINE-6]]:3: remark: loop turned into 16 interleaved coroutines

// An inner loop that branches on its loads keeps its suspensions (BFS); its
// edge list is a stream.
void relax(const int32_t *off, const int32_t *edges, int32_t *parent, const int32_t *frontier, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i) {
    int32_t u = frontier[i];
    for (int32_t e = off[u]; e < off[u + 1]; ++e) {
      int32_t v = edges[e];
      if (u < parent[v])
        parent[v] = u;
    }
  }
}
// CHECK: split-cost-model.c:[[@LINE-6]]:19: remark: no suspension at this load: an affine stream
// CHECK-NOT: no suspension at this load
// CHECK: split-cost-model.c:[[@LINE-11]]:3: remark: loop turned into 16 interleaved coroutines
