// remote_qualifier: far memory typed with __remote (address space 1), allocated with memcoro_remote_alloc.
#include "common.h"
#include <memcoro/memcoro.h>
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int64_t *plain = memcoro_remote_alloc(sizeof(int64_t) * TABLE);
  for (int i = 0; i < TABLE; ++i) plain[i] = (int64_t)diff_rand();
  __remote int64_t *far = (__remote int64_t *)plain;
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    sum += far[idx[i]] >> 4;
  printf("%lld\n", (long long)sum);
  memcoro_remote_free(plain);
  return 0;
}
