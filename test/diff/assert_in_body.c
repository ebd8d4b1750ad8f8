// assert_in_body: an assert() in the body is no early exit (its failing path ends the program either way); the loop interleaves (issue 17, item 5).
#include <assert.h>
#include "common.h"
static int64_t T[4096];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % 4096;
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    assert(idx[i] >= 0 && idx[i] < 4096);
    sum += T[idx[i]];
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
