// local_array: an array declared in the loop body is private to each iteration, even while iterations interleave.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15, K = 5 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int32_t *which = diff_alloc(sizeof *which * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 100000);
  for (int i = 0; i < n; ++i) { idx[i] = diff_rand() % TABLE; which[i] = diff_rand() % K; }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t f[K];
    for (int k = 0; k < K; ++k)
      f[k] = a[(idx[i] + k * 977) % TABLE];
    out[i] = f[which[i]] * 3 - f[(which[i] + 1) % K];
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
