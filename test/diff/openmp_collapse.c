// openmp_collapse: `collapse(2)` beside the pragma, before it and after it; the marker goes into the innermost body, so OpenMP still sees the two loops perfectly nested (it was a compile error), and the one loop it makes of them interleaves (issue 17, item 2). Also built with -fopenmp (diff-openmp/openmp_collapse.c).
#include "common.h"

enum { TABLE = 1 << 12 };

__attribute__((noinline)) static int64_t sum_rows(const int64_t *t, const uint32_t *ix, int rows, int cols) {
  int64_t s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s) num_threads(2)
#pragma memcoro parallel(N)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      s += t[ix[(long)r * cols + c]];
  return s;
}

__attribute__((noinline)) static void scale_rows(int64_t *out, const int64_t *t, const uint32_t *ix, int rows,
                                                 int cols) {
#pragma memcoro parallel(N)
#pragma omp parallel for collapse(2) schedule(dynamic, 3) num_threads(2)
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++)
      out[(long)r * cols + c] = t[ix[(long)r * cols + c]] * (r + 1) - c;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int cols = 3, rows = n / cols;
  int64_t *t = diff_alloc(sizeof *t * TABLE);
  uint32_t *ix = diff_alloc(sizeof *ix * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i)
    t[i] = (int64_t)(diff_rand() % 1000003);
  for (int i = 0; i < n; ++i)
    ix[i] = diff_rand() % TABLE;
  printf("sum %lld\n", (long long)sum_rows(t, ix, rows, cols));
  scale_rows(out, t, ix, rows, cols);
  uint64_t h = 0;
  for (int i = 0; i < rows * cols; ++i)
    h = h * 1099511628211ull + (uint64_t)out[i];
  printf("rows %d hash %llx\n", rows, (unsigned long long)h);
  return 0;
}
