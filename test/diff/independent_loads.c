// independent_loads: two indirect loads from different tables whose addresses do not depend on each other.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int64_t *a = diff_alloc(sizeof *a * TABLE), *b = diff_alloc(sizeof *b * TABLE);
  int32_t *ia = diff_alloc(sizeof *ia * (n + 1)), *ib = diff_alloc(sizeof *ib * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < TABLE; ++i) { a[i] = (int64_t)diff_rand(); b[i] = (int64_t)diff_rand(); }
  for (int i = 0; i < n; ++i) { ia[i] = diff_rand() % TABLE; ib[i] = diff_rand() % TABLE; }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = a[ia[i]] ^ (b[ib[i]] >> 3);
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
