// openmp_chunks: the chunk loop of every OpenMP schedule, with int and size_t counters and int stores (the chunk's upper bound sits in a stack slot such a store may alias): its bound is evaluated once, as OpenMP does, and each chunk interleaves (issue 17, item 2).
// flags: -fopenmp
#include <stddef.h>
#include "common.h"
enum { TABLE = 1 << 15 };
static int32_t T[TABLE];

__attribute__((noinline)) void static_int(int32_t *out, const int32_t *idx, int n) {
#pragma omp parallel for schedule(static) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = T[idx[i]] + i;
}

__attribute__((noinline)) void dynamic_size_t(int32_t *out, const int32_t *idx, size_t n) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(2)
#pragma memcoro parallel(N)
  for (size_t i = 0; i < n; ++i)
    out[i] = T[idx[i]] ^ (int32_t)i;
}

__attribute__((noinline)) void guided_chunked(int32_t *out, const int32_t *idx, int n) {
#pragma omp parallel for schedule(guided) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = T[idx[i]] * 3;
}

__attribute__((noinline)) void static_chunk(int32_t *out, const int32_t *idx, int n) {
#pragma omp parallel for schedule(static, 7) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = T[idx[i]] - i;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int32_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (int32_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  static_int(out, idx, n);
  printf("%llx\n", (unsigned long long)diff_hash_i32(out, n));
  dynamic_size_t(out, idx, (size_t)n);
  printf("%llx\n", (unsigned long long)diff_hash_i32(out, n));
  guided_chunked(out, idx, n);
  printf("%llx\n", (unsigned long long)diff_hash_i32(out, n));
  static_chunk(out, idx, n);
  printf("%llx\n", (unsigned long long)diff_hash_i32(out, n));
  return 0;
}
