// descending: a loop counting down, writing results by iteration.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int16_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int32_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int16_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = n - 1; i >= 0; --i)
    out[i] = a[idx[i]] * 3 + i;
  printf("%llx\n", (unsigned long long)diff_hash_i32(out, n));
  return 0;
}
