// gather: a sum over a[idx[i]] (indirect load, reduction).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    sum += a[idx[i]];
  printf("%lld\n", (long long)sum);
  return 0;
}
