// SPDX-License-Identifier: Apache-2.0
// The mixed loop of issue 13: s += hot[ix[i]] * cold[iy[i]], both loads
// indirect, hot a small table that stays in L1, cold a large one whose
// loads miss. Built three ways by bench/profile/run.sh (-fno-memcoro, memcoro,
// memcoro with the profile of a -fmemcoro-profile-generate build): the same
// source, one pragma. Prints the loop's thread CPU time per iteration (the
// median of `reps` runs) and the sum, which every build must agree on.
//
//   mixed HOT_BYTES COLD_BYTES ITERATIONS [REPS]
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

__attribute__((noinline)) static int64_t mixed(const int64_t *hot, const int64_t *cold, const uint32_t *ix,
                                               const uint32_t *iy, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s HOT_BYTES COLD_BYTES ITERATIONS [REPS]\n", argv[0]);
    return 2;
  }
  size_t hot_n = strtoull(argv[1], 0, 0) / 8, cold_n = strtoull(argv[2], 0, 0) / 8, n = strtoull(argv[3], 0, 0);
  int reps = argc > 4 ? atoi(argv[4]) : 3;
  int64_t *hot = malloc(8 * hot_n), *cold = malloc(8 * cold_n);
  uint32_t *ix = malloc(4 * n), *iy = malloc(4 * n);
  double *t = malloc(sizeof *t * reps);
  if (!hot || !cold || !ix || !iy || !t || hot_n == 0 || cold_n == 0 || reps < 1)
    return 2;
  for (size_t i = 0; i < hot_n; ++i)
    hot[i] = (int64_t)(i * 7 + 1);
  for (size_t i = 0; i < cold_n; ++i)
    cold[i] = (int64_t)(i * 3);
  uint64_t x = 42;
  for (size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    ix[i] = (uint32_t)((x >> 33) % hot_n);
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    iy[i] = (uint32_t)((x >> 24) % cold_n);
  }
  // Through a volatile pointer: the loop only reads memory, and the compiler
  // would otherwise run it once for all the repetitions.
  int64_t (*volatile loop)(const int64_t *, const int64_t *, const uint32_t *, const uint32_t *, size_t) = mixed;
  int64_t s = loop(hot, cold, ix, iy, n); // untimed: page tables and caches as in the timed runs
  for (int r = 0; r < reps; ++r) {
    double t0 = cpu_ns();
    int64_t again = loop(hot, cold, ix, iy, n);
    t[r] = (cpu_ns() - t0) / (double)n;
    if (again != s) {
      fprintf(stderr, "mixed: run %d gave %lld, not %lld\n", r, (long long)again, (long long)s);
      return 1;
    }
  }
  qsort(t, reps, sizeof *t, by_value);
  printf("sum=%lld ns_per_iter=%.3f\n", (long long)s, t[reps / 2]);
  return 0;
}
