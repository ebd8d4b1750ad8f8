// openmp: `#pragma omp parallel for` outside, memcoro inside each thread's chunk.
// flags: -fopenmp
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma omp parallel for num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = a[idx[i]] ^ i;
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
