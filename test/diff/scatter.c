// scatter: remote stores only, out[idx[i]] = f(i), distinct targets (a permutation).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *perm = diff_alloc(sizeof *perm * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < n; ++i) perm[i] = i;
  for (int i = n - 1; i > 0; --i) {
    int j = diff_rand() % (i + 1);
    int32_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[perm[i]] = (int64_t)i * 7 - 3;
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
