// while_search: a search written as a `while` loop whose body declares a
// variable and breaks on the first match (`found = i; break;`), the counter
// used after the loop; LoopRotate leaves it with the count tested at the
// header and the match at the latch. The match in the first, middle and last
// iteration, twice (the first wins), and nowhere; a second loop counting down
// by two.
#include "common.h"
enum { TABLE = 1 << 15, STOP = 424242 };

static long find_first(const int32_t *big, const int32_t *r, size_t n, size_t *at) {
  long found = -1;
  size_t i = 0;
#pragma memcoro parallel(N)
  while (i < n) {
    int32_t v = big[r[i]];
    if (v == STOP) {
      found = (long)i;
      break;
    }
    i++;
  }
  *at = i;
  return found;
}

static int find_last_even(const int32_t *big, const int32_t *r, int n) {
  int i = n - 1;
#pragma memcoro parallel(N)
  while (i >= 0) {
    int32_t v = big[r[i]];
    if (v == STOP)
      break;
    i -= 2;
  }
  return i;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *big = diff_alloc(sizeof *big * TABLE);
  int32_t *r = diff_alloc(sizeof *r * (n + 1));
  for (int i = 0; i < TABLE; ++i) big[i] = (int32_t)(diff_rand() % 100000);
  big[7] = STOP;
  for (int i = 0; i < n; ++i) r[i] = 8 + diff_rand() % (TABLE - 8);
  int at[] = {0, n / 2, n - 1, n};
  for (int k = 0; k < 4; ++k) {
    int32_t saved[3] = {0};
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) { saved[d] = r[at[k] + 2 * d]; r[at[k] + 2 * d] = 7; }
    size_t stopped;
    long found = find_first(big, r, (size_t)n, &stopped);
    printf("%d: found %ld, stopped at %zu, from the end %d\n", at[k], found, stopped, find_last_even(big, r, n));
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) r[at[k] + 2 * d] = saved[d];
  }
  return 0;
}
