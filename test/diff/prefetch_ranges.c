// prefetch_ranges: flat gathers kept in order with prefetches ahead (a sum counted up by int, down by long, over a pointer range, by a uint16_t, an int histogram), switched with the loop as written in windows of iterations (split/PrefetchSwitchRanges.cpp); each loop runs again and again, shorter each time, so that windows end inside, at and past the loop's end and decisions' budgets run out mid-loop.
// cost-model: on
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { REPEATS = 24 };
  // A size the compiler does not see, as the data of a real program's.
  static volatile int table_bits = 16;
  const int TABLE = 1 << table_bits;
  int64_t *t = diff_alloc(sizeof *t * TABLE);
  int32_t *ix = diff_alloc(sizeof *ix * ((size_t)n + 1));
  int32_t *h = diff_alloc(sizeof *h * TABLE);
  for (int k = 0; k < TABLE; ++k) t[k] = (int64_t)diff_rand();
  for (int i = 0; i < n; ++i) ix[i] = (int32_t)(diff_rand() % TABLE);
  int64_t up = 0, down = 0, range = 0, narrow = 0;
  for (int r = 0; r < REPEATS; ++r) {
    int m = n - r * (n / REPEATS + 3);
    int64_t s = 0;
#pragma memcoro
    for (int i = 0; i < m; ++i)
      s += t[ix[i]];
    up = up * 31 + s;
    s = 0;
#pragma memcoro
    for (long i = (long)m - 1; i >= 0; --i)
      s ^= t[ix[i]];
    down = down * 31 + s;
    s = 0;
    const int32_t *end = ix + (m > 0 ? m : 0);
#pragma memcoro
    for (const int32_t *p = ix + r; p < end; ++p)
      s += t[*p];
    range = range * 31 + s;
    s = 0;
    uint16_t short_m = (uint16_t)(m > 0 ? (m < 65535 ? m : 65535) : 0);
#pragma memcoro
    for (uint16_t j = 0; j < short_m; ++j)
      s += t[ix[j]] >> 3;
    narrow = narrow * 31 + s;
#pragma memcoro
    for (int i = 0; i < m; ++i)
      h[ix[i]]++;
  }
  uint64_t hist = 0;
  for (int k = 0; k < TABLE; ++k) hist = hist * 1099511628211ull + (uint64_t)h[k];
  printf("%lld %lld %lld %lld %llu\n", (long long)up, (long long)down, (long long)range, (long long)narrow,
         (unsigned long long)hist);
  return 0;
}
