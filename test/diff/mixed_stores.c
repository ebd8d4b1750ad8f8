// mixed_stores: a local streaming store and a remote increment in one iteration.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 14 };
  int64_t *hist = diff_alloc(sizeof *hist * TABLE);
  int64_t *src = diff_alloc(sizeof *src * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *local = diff_alloc(sizeof *local * (n + 1));
  for (int i = 0; i < TABLE; ++i) src[i] = (int64_t)(diff_rand() % 5000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    local[i] = src[idx[i]] + i;
    hist[(idx[i] * 7) % TABLE] += 1;
  }
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64((uint64_t *)local, n),
         (unsigned long long)diff_hash_u64((uint64_t *)hist, TABLE));
  return 0;
}
