// bytes: narrow (8-bit) remote elements summed into a wider counter.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 18 };
  uint8_t *a = diff_alloc(TABLE);
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (uint8_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  uint64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    sum += a[idx[i]];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
