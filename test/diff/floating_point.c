// floating_point: per-iteration floating-point results (no reduction), exact either way.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  double *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  double *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (double)(diff_rand() % 1000000) / 7.0;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = a[idx[i]] * 1.5 + (double)i;
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
