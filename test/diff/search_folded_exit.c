// search_folded_exit: searches for the first match, built at -O1, where
// flags: -O1
// SimplifyCFG folds the `break` into the latch (it leaves on `match ||
// count`) and the index found is a select carried from iteration to
// iteration: read as a carried value, the loops stayed serial. The match in
// the first, middle and last iteration, three times, and nowhere; a second search
// returns from the loop.
#include "common.h"
enum { TABLE = 1 << 15, STOP = 424242 };

__attribute__((noinline)) static long find_first(const int32_t *big, const int32_t *r, size_t n) {
  long found = -1;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < n; ++i) {
    int32_t v = big[big[r[i]] % TABLE];
    if ((v & 0xFFFFF) == STOP) {
      found = (long)i;
      break;
    }
  }
  return found;
}

__attribute__((noinline)) static int find_return(const int32_t *big, const int32_t *r, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    if (big[big[r[i]] % TABLE] == STOP)
      return i;
  return -1;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *big = diff_alloc(sizeof *big * TABLE);
  int32_t *r = diff_alloc(sizeof *r * (n + 1));
  for (int i = 0; i < TABLE; ++i) big[i] = (int32_t)(diff_rand() % 100000);
  big[7] = STOP;
  big[8] = 7;
  big[9] = 8;
  for (int i = 0; i < n; ++i) r[i] = 10 + diff_rand() % (TABLE - 10);
  int at[] = {0, n / 2, n - 1, n};
  for (int k = 0; k < 4; ++k) {
    int32_t saved[3] = {0};
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) { saved[d] = r[at[k] + 2 * d]; r[at[k] + 2 * d] = 8; }
    printf("%d: %ld %d\n", at[k], find_first(big, r, (size_t)n), find_return(big, r, n));
    for (int d = 0; d < 3; ++d)
      if (at[k] + 2 * d < n) r[at[k] + 2 * d] = saved[d];
  }
  return 0;
}
