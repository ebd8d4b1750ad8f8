// openmp_reduction: `reduction(+: error)` over a double permits reassociating that sum, without -fopenmp (the directive is an ignored pragma that memcoro still reads) and, as diff-openmp/openmp_reduction.c, with it (the private copy the runtime combines is kept in memory too) (issue 17, item 3). The second loop is NPB CG's product, `sum += a[k] * z[colidx[k]]`, which clang contracts into llvm.fmuladd by default: a reduction too. The third counts every lookup with `total++` beside a sum: with -fopenmp the count's private copy, stored in every iteration, steps like an induction variable, and the store kept the loop serial ("writes one location in every iteration"); it is a reduction whose copy is stored once after the loop.
#include "common.h"
enum { TABLE = 1 << 15 };
static double T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  // Multiples of 1/8 below 2^20: every partial sum is exact, so any order of
  // the additions gives the same double.
  for (int k = 0; k < TABLE; ++k) T[k] = (double)(diff_rand() % 8000) / 8;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  double error = 0, scale = 1;
#pragma omp parallel for reduction(+ : error) reduction(*: scale) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    error += T[idx[i]];
    scale *= T[idx[i]] > 999 ? 2.0 : 1.0;
  }
  printf("%.3f %.1f\n", error, scale);
  double *a = diff_alloc(sizeof *a * (n + 1));
  for (int i = 0; i < n; ++i) a[i] = (double)(diff_rand() % 4) / 2;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
#pragma memcoro parallel(N)
  for (int k = 0; k < n; k++)
    sum = sum + a[k] * T[idx[k]];
  printf("%.4f\n", sum);
  // Keys of the private copies' type: the loop's loads may read them, so
  // LICM leaves their stores in the loop.
  long *keys = diff_alloc(sizeof *keys * TABLE);
  for (int k = 0; k < TABLE; ++k) keys[k] = (long)(diff_rand() >> 1);
  long total = 0, big = 0;
#pragma omp parallel for reduction(+ : total, big) num_threads(2)
#pragma memcoro parallel(N)
  for (size_t k = 0; k < (size_t)n; k++) {
    total++;
    big += keys[idx[k]] >> 40;
  }
  printf("%ld %ld\n", total, big);
  return 0;
}
