// spmv: sparse matrix-vector multiplication on a matrix in coordinate (COO)
// format, written the way an OpenMP COO kernel is written: one parallel
// loop over the nonzeros, each adding val[k] * x[col[k]] into y[row[k]]
// with an atomic add, repeated as an iterative solver would. The nonzeros
// are sorted by row (as a Matrix Market file converted for SpMV is) and
// their columns spread over a vector far larger than the cache. Verified
// against a serial row-by-row product: every y[i] within a relative 1e-9 of
// the reference (atomic adds may sum a row in any order).
// One pragma line marks the nonzero loop; nothing else is edited.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  int64_t nrows, ncols, nnz;
  int32_t *row;
  int32_t *col;
  double *val;
} coo_matrix;

static void spmv_coo(const coo_matrix *A, const double *x, double *y) {
  memset(y, 0, A->nrows * sizeof(double));
#pragma omp parallel for
#pragma memcoro
  for (int64_t k = 0; k < A->nnz; k++) {
#pragma omp atomic
    y[A->row[k]] += A->val[k] * x[A->col[k]];
  }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : (1 << 23);
  int per_row = argc > 2 ? atoi(argv[2]) : 4;
  int reps = argc > 3 ? atoi(argv[3]) : 2;
  coo_matrix A = {n, n, n * per_row, NULL, NULL, NULL};
  A.row = malloc(A.nnz * sizeof(int32_t));
  A.col = malloc(A.nnz * sizeof(int32_t));
  A.val = malloc(A.nnz * sizeof(double));
  for (int64_t k = 0; k < A.nnz; k++) {
    A.row[k] = (int32_t)(k / per_row);
    A.col[k] = (int32_t)(next_rand() % n);
    A.val[k] = (double)(next_rand() % 1000) / 1000.0 - 0.5;
  }
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int64_t i = 0; i < n; i++)
    x[i] = 1.0 + (double)(i % 97) / 97.0;

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int r = 0; r < reps; r++)
    spmv_coo(&A, x, y);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  int ok = 1;
  for (int64_t i = 0, k = 0; i < n && ok; i++) {
    double sum = 0, mag = 0;
    for (; k < A.nnz && A.row[k] == i; k++) {
      sum += A.val[k] * x[A.col[k]];
      mag += fabs(A.val[k] * x[A.col[k]]);
    }
    ok = fabs(y[i] - sum) <= 1e-9 * (mag + 1e-300);
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%lld rows, %lld nonzeros, %d products\n", (long long)n, (long long)A.nnz, reps);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
