// last_value: values of the last iteration read after the loop (OpenMP's
// lastprivate, a last row's result kept for a report): a gathered value, one
// chosen on a branch, and one beside a store of every iteration. Each goes
// through a slot stored in iteration order; they kept the loop serial. The
// third is OpenMP's lastprivate under -fopenmp (test/diff/CMakeLists.txt),
// where the chunk's bound is read through memory.
#include "common.h"
enum { TABLE = 1 << 15 };

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  uint32_t *t = diff_alloc(sizeof *t * TABLE), *idx = diff_alloc(sizeof *idx * (n + 1));
  uint32_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) t[i] = (uint32_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = (uint32_t)(diff_rand() % TABLE);
  uint32_t last = 0, picked = 0, stored = 0;
  uint64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    last = t[t[idx[i]] % TABLE];
    sum += last;
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[idx[i]];
    picked = v & 1 ? v >> 1 : t[v % TABLE];
  }
#pragma omp parallel for lastprivate(stored)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    stored = t[t[idx[i]] % TABLE] ^ (uint32_t)i;
    out[i] = stored;
  }
  uint64_t h = 0;
  for (int i = 0; i < n; ++i) h = h * 31 + out[i];
  printf("%u %u %u %llu %llx\n", last, picked, stored, (unsigned long long)sum, (unsigned long long)h);
  return 0;
}
