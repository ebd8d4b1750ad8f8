// Tests split/OverlappedGathers.cpp: a marked loop of short independent
// gathers one load away from an affine sequence (COO SpMV) stays in serial
// order with prefetches 128 ahead, with a remark saying why; a chain, an
// atomic update, and an explicit parallel(N) keep the coroutines.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -mllvm -memcoro-gather-body=0 -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
#include <stddef.h>
#include <stdint.h>

void spmv(size_t nnz, const int32_t *row, const int32_t *col, const double *val, const double *x, double *y) {
#pragma memcoro
  for (size_t k = 0; k < nnz; k++)
    y[row[k]] += val[k] * x[col[k]];
}
// CHECK: split-overlapped-gathers.c:[[@LINE-3]]:3: remark: loop turned into a prefetching loop in serial order: prefetching {{.*}} 128 iterations ahead{{.*}}; its iterations are short independent gathers, which the processor already overlaps; interleaving them would add a switch per iteration
// OFF: split-overlapped-gathers.c:[[@LINE-4]]:3: remark: loop turned into 32 interleaved coroutines

// Each address depends on another far load: the misses come one after the
// other, and interleaving overlaps them.
uint64_t chain(size_t n, const uint32_t *ix, const uint32_t *next, const uint64_t *t) {
  uint64_t s = 0;
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    s += t[next[ix[i]]];
  return s;
}
// CHECK: split-overlapped-gathers.c:[[@LINE-4]]:3: remark: loop turned into 32 interleaved coroutines

// A locked add drains the store buffer: the core overlaps nothing serially.
void degrees(size_t n, const int64_t *src, int64_t *deg) {
#pragma memcoro
  for (size_t k = 0; k < n; k++)
    __atomic_fetch_add(&deg[src[k]], 1, __ATOMIC_RELAXED);
}
// CHECK: split-overlapped-gathers.c:[[@LINE-3]]:3: remark: loop turned into 32 interleaved coroutines

// parallel(N) asks for N iterations in flight.
uint64_t gather_n(size_t n, const uint32_t *ix, const uint64_t *t) {
  uint64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
// CHECK: split-overlapped-gathers.c:[[@LINE-4]]:3: remark: loop turned into 16 interleaved coroutines
