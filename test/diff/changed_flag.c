// changed_flag: flags the iterations only set, as relaxation and fixed-point loops keep them (`changed = true`, `all_ok = false`, `found = 1` from 0): interleaved as | and & reductions, whichever iterations set them; again as diff-openmp/changed_flag.c, where the OpenMP reduction clauses keep private copies in memory that each setting iteration stores one constant into (bench/programs/sssp.cpp).
#include "common.h"
#include <stdbool.h>
enum { TABLE = 1 << 15 };
static int32_t T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int32_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (int32_t)(diff_rand() % 100000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  bool changed = false, all_ok = true;
  int found = 0;
#pragma omp parallel for reduction(|| : changed) reduction(&& : all_ok) reduction(| : found) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int32_t t = T[idx[i]];
    out[i] = t / 2;
    if (t > 95000)
      changed = true;
    if (t % 97 == 0)
      all_ok = false;
    if (t < 1000)
      found = 1;
  }
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i];
  printf("%d %d %d %ld\n", changed, all_ok, found, sum);
  return 0;
}
