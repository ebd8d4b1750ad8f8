// atomics: relaxed atomic increments of random counters (atomic read-modify-write as a suspension point).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 13 };
  uint64_t *counters = diff_alloc(sizeof *counters * TABLE);
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    __atomic_fetch_add(&counters[idx[i]], (uint64_t)i + 1, __ATOMIC_RELAXED);
  printf("%llx\n", (unsigned long long)diff_hash_u64(counters, TABLE));
  return 0;
}
