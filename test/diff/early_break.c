// early_break: a sum that stops at a sentinel (`break`), the sum live across
// the exit; the sentinel in the first, middle and last iteration, twice (the
// first wins), and nowhere.
#include "common.h"
enum { TABLE = 1 << 15, SENTINEL = 424242 };

static int64_t sum_until_sentinel(const int64_t *a, const int32_t *idx, int n) {
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    if (a[idx[i]] == SENTINEL)
      break;
    sum += a[idx[i]];
  }
  return sum;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 100000);
  a[7] = SENTINEL;
  for (int i = 0; i < n; ++i) idx[i] = 8 + diff_rand() % (TABLE - 8);
  int at[] = {0, n / 2, n - 1, n};
  for (int k = 0; k < 4; ++k) {
    int32_t saved[3] = {0};
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) { saved[d] = idx[at[k] + 2 * d]; idx[at[k] + 2 * d] = 7; }
    printf("%d: %lld\n", at[k], (long long)sum_until_sentinel(a, idx, n));
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) idx[at[k] + 2 * d] = saved[d];
  }
  return 0;
}
