// two_loops: two marked loops in one function (the first one's state machine must not stop the
// second), and a marked loop nested in a marked loop (the outer one is interleaved).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { LEN = 50021, TABLE = 1 << 15 };
  int64_t *sorted = diff_alloc(sizeof *sorted * LEN), *a = diff_alloc(sizeof *a * TABLE);
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1)), *pos = diff_alloc(sizeof *pos * (n + 1));
  int32_t *idx = diff_alloc(sizeof *idx * (n * 4 + 1));
  int64_t *rows = diff_alloc(sizeof *rows * (n + 1));
  for (int i = 0; i < LEN; ++i) sorted[i] = (int64_t)i * 3;
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 100000);
  for (int i = 0; i < n; ++i) keys[i] = diff_rand() % (LEN * 3);
  for (int i = 0; i < n * 4; ++i) idx[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t lo = 0, hi = LEN;
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (sorted[mid] < keys[i]) lo = mid + 1; else hi = mid;
    }
    pos[i] = lo;
  }
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    sum += a[idx[i]] ^ pos[i];
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t s = 0;
#pragma memcoro parallel(4)
    for (int j = 0; j < 4 + (i & 3); ++j)
      s += a[idx[(i * 4 + j) % (n * 4)]];
    rows[i] = s;
  }
  printf("%lld %llx %llx\n", (long long)sum, (unsigned long long)diff_hash_u64((uint64_t *)pos, n),
         (unsigned long long)diff_hash_u64((uint64_t *)rows, n));
  return 0;
}
