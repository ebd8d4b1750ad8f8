// SPDX-License-Identifier: Apache-2.0
// Times the builds of the mixed loop (mixed.c, one copy per build, named in
// -DVARIANTS="X(name) X(name) ...") side by side in one process on the same
// data, round robin, with the hand-written prefetch-distance loop at several
// distances as the baseline; every build must return the serial sum. Prints
// each one's median thread CPU time per iteration.
//
//   mixed HOT_BYTES COLD_BYTES ITERATIONS REPS
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int64_t (*loop_fn)(const int64_t *, const int64_t *, const uint32_t *, const uint32_t *, size_t);

#define X(name) int64_t name(const int64_t *, const int64_t *, const uint32_t *, const uint32_t *, size_t);
VARIANTS
#undef X

// The hand-written baseline: the cold load of iteration i + D prefetched in
// iteration i, the hot one left to the cache.
#define PFD(D)                                                                                                  \
  static int64_t pfd##D(const int64_t *hot, const int64_t *cold, const uint32_t *ix, const uint32_t *iy,        \
                        size_t n) {                                                                             \
    int64_t s = 0;                                                                                              \
    size_t i = 0;                                                                                               \
    for (; i + D < n; ++i) {                                                                                    \
      __builtin_prefetch(&cold[iy[i + D]]);                                                                     \
      s += hot[ix[i]] * cold[iy[i]];                                                                            \
    }                                                                                                           \
    for (; i < n; ++i)                                                                                          \
      s += hot[ix[i]] * cold[iy[i]];                                                                            \
    return s;                                                                                                   \
  }
PFD(16)
PFD(64)
PFD(128)

#define X(name) {#name, name},
static const struct {
  const char *name;
  loop_fn run;
} variants[] = {VARIANTS{"pfd16", pfd16}, {"pfd64", pfd64}, {"pfd128", pfd128}};
#undef X

static double cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s HOT_BYTES COLD_BYTES ITERATIONS REPS\n", argv[0]);
    return 2;
  }
  size_t hot_n = strtoull(argv[1], 0, 0) / 8, cold_n = strtoull(argv[2], 0, 0) / 8, n = strtoull(argv[3], 0, 0);
  int reps = atoi(argv[4]);
  enum { nv = sizeof variants / sizeof variants[0] };
  int64_t *hot = malloc(8 * hot_n), *cold = malloc(8 * cold_n);
  uint32_t *ix = malloc(4 * n), *iy = malloc(4 * n);
  double *t = malloc(sizeof *t * nv * (reps > 0 ? reps : 1));
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
  // The first variant is the serial build: its untimed run gives the sum
  // and warms page tables and caches as in the timed runs.
  int64_t want = variants[0].run(hot, cold, ix, iy, n);
  for (int r = 0; r < reps; ++r)
    for (int k = 0; k < nv; ++k) {
      int j = (k + r) % nv; // each rep starts with another variant
      double t0 = cpu_ns();
      int64_t s = variants[j].run(hot, cold, ix, iy, n);
      t[j * reps + r] = (cpu_ns() - t0) / (double)n;
      if (s != want) {
        fprintf(stderr, "mixed: %s gave %lld, not %lld\n", variants[j].name, (long long)s, (long long)want);
        return 1;
      }
    }
  for (int j = 0; j < nv; ++j) {
    qsort(t + j * reps, reps, sizeof *t, by_value);
    printf("%s %.3f\n", variants[j].name, t[j * reps + reps / 2]);
  }
  printf("sum=%lld\n", (long long)want);
  return 0;
}
