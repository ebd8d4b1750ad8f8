// strided: a loop that starts at 5 and steps by 3.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int limit = 5 + 3 * n;
  enum { TABLE = 1 << 15 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (limit + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 1000003);
  for (int i = 0; i < limit; ++i) idx[i] = diff_rand() % TABLE;
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 5; i < limit; i += 3)
    sum += a[idx[i]] * i;
  printf("%lld\n", (long long)sum);
  return 0;
}
