// openmp_conditional_reduction: `reduction(+ : hits, sum)` over totals updated only when a lookup hits, as a batch of index lookups counts them (bench/programs/bst.cpp): the runtime's private copies are stored on the hit path only, and the loop still interleaves with the copies holding the serial totals.
// flags: -fopenmp
#include "common.h"
enum { TABLE = 1 << 15 };
static int64_t T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (int64_t)(diff_rand() % 1000) - 300;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  long hits = 0, sum = 0;
#pragma omp parallel for reduction(+ : hits, sum) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    if (T[idx[i]] > 0) {
      hits++;
      sum += T[idx[i]];
    }
  }
  printf("%ld %ld\n", hits, sum);
  return 0;
}
