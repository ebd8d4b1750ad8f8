// SPDX-License-Identifier: Apache-2.0
// edges: a CSR row walk whose inner loop gathers through its column stream,
// `for (k = rowstr[j]; k < rowstr[j + 1]; k++) sum += a[k] * x[col[k]]`:
// NPB CG's product (-DEDGES_WEIGHTED, double) and GAP's pull PageRank
// neighbour sum (float or double scores, int32 or int64 offsets: -DOFF=,
// -DSCORE=). The cost model keeps such loops serial (the core overlaps the
// inner loop's loads); memcoro prefetches the column stream ahead across rows
// (compiler/split/PrefetchEdges.cpp). Beside the serial build and memcoro,
// the two hand prefetches a user writes, built with -fno-memcoro:
//   rows    `for (k = rowstr[j + D] ..) prefetch(&x[col[k]])`, D rows ahead
//   stream  the row shifted D elements ahead along the column stream
// Random columns, rows of 1..2 * degree - 1 elements. One op = one element.
// Arguments: log2 rows, mean degree, trials. The sums are in the serial
// order in every variant: each must equal serial's exactly.
#include "costmodel.h"

#ifndef OFF
#define OFF int32_t
#endif
#ifndef SCORE
#define SCORE double
#endif
#ifdef EDGES_WEIGHTED
#define WEIGHT(k) a[k] *
#else
#define WEIGHT(k)
#endif

#ifndef COSTMODEL_MAIN
void KERNEL(edges)(const OFF *rowstr, const int32_t *col, const double *a, const SCORE *x, SCORE *y, long n) {
#pragma memcoro
  for (long j = 0; j < n; j++) {
    SCORE sum = 0;
    for (OFF k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum += WEIGHT(k) x[col[k]];
    y[j] = sum;
  }
}

#else
typedef void EdgesFn(const OFF *, const int32_t *, const double *, const SCORE *, SCORE *, long);
EdgesFn edges_serial, edges_memcoro;

__attribute__((noinline)) static void edges_rows(const OFF *rowstr, const int32_t *col, const double *a,
                                                 const SCORE *x, SCORE *y, long n, long d) {
  for (long j = 0; j < n; j++) {
    if (j + d < n)
      for (OFF k = rowstr[j + d]; k < rowstr[j + d + 1]; k++)
        __builtin_prefetch(&x[col[k]], 0, 3);
    SCORE sum = 0;
    for (OFF k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum += WEIGHT(k) x[col[k]];
    y[j] = sum;
  }
}

__attribute__((noinline)) static void edges_stream(const OFF *rowstr, const int32_t *col, const double *a,
                                                   const SCORE *x, SCORE *y, long n, long d) {
  int64_t end = rowstr[n];
  for (long j = 0; j < n; j++) {
    int64_t hi = (int64_t)rowstr[j + 1] + d < end ? (int64_t)rowstr[j + 1] + d : end;
    for (int64_t k = (int64_t)rowstr[j] + d; k < hi; k++)
      __builtin_prefetch(&x[col[k]], 0, 3);
    SCORE sum = 0;
    for (OFF k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum += WEIGHT(k) x[col[k]];
    y[j] = sum;
  }
}

enum { SERIAL, MEMCORO, ROWS, STREAM, VARIANTS };
static const char *const names[VARIANTS] = {"serial", "memcoro", "hand rows", "hand stream"};

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  long degree = argc > 2 ? atol(argv[2]) : 8;
  int trials = argc > 3 ? atoi(argv[3]) : 3;
  long n = 1L << scale, cap = n * degree;
  OFF *rowstr = cm_alloc((n + 1) * sizeof *rowstr);
  int32_t *col = cm_alloc(cap * sizeof *col);
#ifdef EDGES_WEIGHTED
  double *a = cm_alloc(cap * sizeof *a);
#else
  double *a = NULL;
#endif
  SCORE *x = cm_alloc(n * sizeof *x), *y[VARIANTS];
  for (int v = 0; v < VARIANTS; v++)
    y[v] = cm_alloc(n * sizeof *y[v]);
  uint64_t s = 27491095;
  long e = 0;
  for (long j = 0; j < n; j++) {
    rowstr[j] = (OFF)e;
    long d = 1 + (long)(splitmix64(&s) % (uint64_t)(2 * degree - 1));
    for (long k = 0; k < d && e < cap; k++, e++) {
      col[e] = (int32_t)(splitmix64(&s) % (uint64_t)n);
#ifdef EDGES_WEIGHTED
      a[e] = (double)(splitmix64(&s) % 1024) / 1024;
#endif
    }
  }
  rowstr[n] = (OFF)e;
  for (long j = 0; j < n; j++)
    x[j] = (SCORE)((double)(splitmix64(&s) % 4096) / 4096);
  // The hand variants at their best distances of a sweep (8, 16, 32 rows;
  // 64, 128, 256 elements), each timed as often as the others.
  static const long rows_d[] = {8, 16, 32}, stream_d[] = {64, 128, 256};
  enum { SWEEP = 3 };
  double best[VARIANTS] = {0};
  long best_d[VARIANTS] = {0};
  double t[VARIANTS][SWEEP][16];
  if (trials > 16)
    trials = 16;
  for (int k = -1; k < trials; k++)
    for (int v = 0; v < VARIANTS; v++)
      for (int i = 0; i < (v >= ROWS ? SWEEP : 1); i++) {
        double start = cm_now();
        if (v == SERIAL)
          edges_serial(rowstr, col, a, x, y[v], n);
        else if (v == MEMCORO)
          edges_memcoro(rowstr, col, a, x, y[v], n);
        else if (v == ROWS)
          edges_rows(rowstr, col, a, x, y[v], n, rows_d[i]);
        else
          edges_stream(rowstr, col, a, x, y[v], n, stream_d[i]);
        if (k >= 0)
          t[v][i][k] = cm_now() - start;
        if (memcmp(y[v], y[SERIAL], n * sizeof *y[v])) {
          printf("edges: verify=FAIL (%s differs from serial)\n", names[v]);
          return 1;
        }
      }
  for (int v = 0; v < VARIANTS; v++)
    for (int i = 0; i < (v >= ROWS ? SWEEP : 1); i++) {
      qsort(t[v][i], trials, sizeof(double), cm_cmp);
      double med = t[v][i][trials / 2];
      if (!best[v] || med < best[v])
        best[v] = med, best_d[v] = v == ROWS ? rows_d[i] : v == STREAM ? stream_d[i] : 0;
    }
  printf("edges 2^%d rows, %ld elements, %zu-byte scores, %zu-byte offsets%s, gathered %.0f MiB:\n", scale, e,
         sizeof(SCORE), sizeof(OFF),
#ifdef EDGES_WEIGHTED
         " (weighted)",
#else
         "",
#endif
         n * sizeof(SCORE) / 1048576.0);
  for (int v = 0; v < VARIANTS; v++) {
    printf("  %-12s %7.3f ns/op  %.2fx serial", names[v], best[v] / e * 1e9, best[SERIAL] / best[v]);
    if (best_d[v])
      printf("  (best distance %ld %s)", best_d[v], v == ROWS ? "rows" : "elements");
    printf("\n");
  }
  return 0;
}
#endif
