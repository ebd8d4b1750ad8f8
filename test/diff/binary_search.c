// binary_search: a while loop with one remote load per step (suspension in an inner loop).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { LEN = 100003 };
  int64_t *sorted = diff_alloc(sizeof *sorted * LEN);
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  int64_t *pos = diff_alloc(sizeof *pos * (n + 1));
  for (int i = 0; i < LEN; ++i) sorted[i] = (int64_t)i * 5 + (i % 3);
  for (int i = 0; i < n; ++i) keys[i] = diff_rand() % (LEN * 5 + 10);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t lo = 0, hi = LEN;
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (sorted[mid] < keys[i]) lo = mid + 1; else hi = mid;
    }
    pos[i] = lo;
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)pos, n));
  return 0;
}
