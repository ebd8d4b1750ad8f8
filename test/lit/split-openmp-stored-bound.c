// Tests that an OpenMP static chunk loop whose upper bound is clamped and
// stored back before the loop (ub = min(ub, n - 1)), with a store on only
// some paths of the body (Graph500's edge scatter, GAP's Shiloach-Vishkin
// hooking), takes the stored bound as the one it enters with: the bound is
// evaluated once, as OpenMP does, and the chunk interleaves.
// RUN: %memcoro-cc -fno-memcoro-adapt -O3 -fopenmp -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

int64_t *xoff, *xadj;

void gather_edges(const int64_t *src, const int64_t *dst, int64_t nedge) {
#pragma omp parallel for
#pragma memcoro parallel(8)
  for (int64_t k = 0; k < nedge; ++k) {
    int64_t i = src[k], j = dst[k];
    if (i >= 0 && j >= 0 && i != j)
      xadj[__sync_fetch_and_add(&xoff[2 * i + 1], 1)] = j;
  }
}
// CHECK: split-openmp-stored-bound.c:[[@LINE-8]]:1: remark: loop turned into 8 interleaved coroutines: {{.*}}; its bound, read through memory, evaluated once before the loop, as OpenMP does

void hook(int32_t *comp, const int64_t *off, const int32_t *adj, int n, int *change) {
#pragma omp parallel for
#pragma memcoro parallel(8)
  for (int u = 0; u < n; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++) {
      int32_t cu = comp[u], cv = comp[adj[e]];
      int32_t high = cu > cv ? cu : cv, low = cu + (cv - high);
      if (cu != cv && high == comp[high]) {
        *change = 1;
        comp[high] = low;
      }
    }
}
// CHECK: split-openmp-stored-bound.c:[[@LINE-12]]:1: remark: loop turned into 8 interleaved coroutines: {{.*}}; its bound, read through memory, evaluated once before the loop, as OpenMP does
