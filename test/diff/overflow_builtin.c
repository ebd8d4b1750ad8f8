// overflow_builtin: a total updated with __builtin_add_overflow whose flag the program counts is about the running total, not an iteration's part: unlike the sanitizer's check of `hits++` (ubsan_reduction.c), it is no reduction memcoro may split into parts, and the loop stays serial with the serial count.
// expect: serial
#include "common.h"

static int64_t T[4096];

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() >> 1);
  for (int i = 0; i < n; ++i) keys[i] = diff_rand() % 4096;
  int64_t total = 0;
  long overflows = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    if (__builtin_add_overflow(total, T[keys[i]], &total))
      overflows++;
  printf("%lld %ld\n", (long long)total, overflows);
  return 0;
}
