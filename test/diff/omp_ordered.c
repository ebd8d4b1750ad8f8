// omp_ordered: ordered loops as OpenMP users write them, `omp parallel for ordered` and `#pragma omp ordered` alone, no memcoro ordered: a running hash of gathered values in a shared scalar, then a block (`threads`) inside a condition, order-dependent updates of memory, a floating-point recurrence and the last index seen. Here without -fopenmp (the pragmas ignored by clang, the scalars in registers), again with it in diff-openmp/omp_ordered.c on 2 threads (libomp orders the chunks, memcoro the iterations within one). Both loops stayed serial.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { M = 1 << 12 };
  uint32_t *t = diff_alloc(sizeof *t * M);
  for (int i = 0; i < M; ++i) t[i] = (uint32_t)diff_rand();
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = (uint32_t)(diff_rand() % M);
  uint64_t oh = 0;
#pragma omp parallel for ordered schedule(dynamic, 8) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % M];
#pragma omp ordered
    oh = oh * 1000003 + v;
  }
  uint64_t *hist = diff_alloc(sizeof *hist * 64);
  double acc = 1.0;
  int last = -1;
#pragma omp parallel for ordered num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % M];
    if (v % 3) {
#pragma omp ordered threads
      {
        hist[v % 64] = hist[v % 64] * 31 + (uint64_t)i;
        acc = acc * 0.75 + (double)(v % 1000);
        last = i;
      }
    }
  }
  printf("%llx %llx %.17g %d\n", (unsigned long long)oh, (unsigned long long)diff_hash_u64(hist, 64), acc, last);
  return 0;
}
