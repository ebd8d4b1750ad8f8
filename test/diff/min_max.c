// min_max: signed min, unsigned max and xor reductions over remote values.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  int64_t lo = INT64_MAX;
  uint64_t hi = 0, x = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t v = a[idx[i]];
    lo = v < lo ? v : lo;
    hi = (uint64_t)v > hi ? (uint64_t)v : hi;
    x ^= (uint64_t)v;
  }
  printf("%lld %llu %llx\n", (long long)lo, (unsigned long long)hi, (unsigned long long)x);
  return 0;
}
