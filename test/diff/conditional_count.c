// conditional_count: a count reduction under a condition on the remote value.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int32_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int32_t)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  unsigned count = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    if (a[idx[i]] > 500)
      ++count;
  printf("%u\n", count);
  return 0;
}
