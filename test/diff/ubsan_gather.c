// ubsan_gather: under -fsanitize=undefined the checks' handler calls run in place and do not keep the loop serial (issue 17, item 8).
// flags: -fsanitize=undefined -fno-sanitize-recover=all
#include "common.h"
static int64_t T[4096];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % 4096;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = T[idx[i]] * 3 + i;
  printf("%llx\n", (unsigned long long)diff_hash_u64((const uint64_t *)out, n));
  return 0;
}
