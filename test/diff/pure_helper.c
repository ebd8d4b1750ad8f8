// pure_helper: a call to a helper that touches no memory (kept out of line) stays inside the coroutine.
#include "common.h"
__attribute__((noinline, const)) static uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  return x ^ (x >> 27);
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  uint64_t *t = diff_alloc(sizeof *t * TABLE);
  uint64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int i = 0; i < TABLE; ++i) t[i] = diff_rand();
  for (int i = 0; i < n; ++i) keys[i] = diff_rand();
  uint64_t acc = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    acc += mix(t[mix(keys[i]) % TABLE]);
  printf("%llx\n", (unsigned long long)acc);
  return 0;
}
