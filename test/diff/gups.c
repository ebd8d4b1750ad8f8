// gups: xor read-modify-write of a random table entry (remote store).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 12 };
  uint64_t *t = diff_alloc(sizeof *t * TABLE);
  uint64_t *r = diff_alloc(sizeof *r * (n + 1));
  for (int i = 0; i < TABLE; ++i) t[i] = i;
  for (int i = 0; i < n; ++i) r[i] = diff_rand();
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    t[r[i] & (TABLE - 1)] ^= r[i];
  printf("%llx\n", (unsigned long long)diff_hash_u64(t, TABLE));
  return 0;
}
