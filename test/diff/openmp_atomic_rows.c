// openmp_atomic_rows: a CSR scatter under `omp parallel for` whose inner loop adds with `#pragma omp atomic` through row pointers `for (p = begin[u]; p < end[u]; p++)`. With -fopenmp the atomic may write the captured variables, so LLVM reads `end` again after the inner loop and carries it through a header phi; that phi's only use was the inner loop's guard `p < end[u]`, and a branch was taken for a use that reads nothing: the phi was dropped as dead and its uses became poison (the program hung, or corrupted its stack). A branch reads its condition now, and the sums equal the serial loop's. The carried `end` is a phi of its reload and of itself (rows the inner loop skips): each iteration reads it again (CarriedLoad.cpp), and the loop interleaves.
// flags: -fopenmp
#include "common.h"

__attribute__((noinline)) static void scatter(int n, int **begin, int **end, const int *c, int *next) {
#pragma omp parallel for
#pragma memcoro parallel(N)
  for (int u = 0; u < n; u++) {
    int cu = c[u];
    for (int *p = begin[u]; p < end[u]; p++) {
#pragma omp atomic
      next[*p] += cu;
    }
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *off = diff_alloc(sizeof *off * (n + 2));
  for (int i = 0; i < n; i++) off[i + 1] = off[i] + (int64_t)(diff_rand() % 16);
  int *adj = diff_alloc(sizeof *adj * (off[n] + 1));
  int *c = diff_alloc(sizeof *c * (n + 1));
  int *next = diff_alloc(sizeof *next * (n + 1));
  for (int64_t e = 0; e < off[n]; e++) adj[e] = (int)(diff_rand() % (n + 1));
  for (int i = 0; i < n; i++) c[i] = (int)(diff_rand() % 1000);
  int **begin = diff_alloc(sizeof *begin * (n + 1)), **end = diff_alloc(sizeof *end * (n + 1));
  for (int i = 0; i < n; i++) {
    begin[i] = adj + off[i];
    end[i] = adj + off[i + 1];
  }
  scatter(n, begin, end, c, next);
  long s = 0;
  for (int i = 0; i <= n; i++) s += (long)next[i] * (i + 1);
  printf("%ld\n", s);
  return 0;
}
