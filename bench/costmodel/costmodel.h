// SPDX-License-Identifier: Apache-2.0
// The cost model's loops (issue 15's table), each timed against its serial
// build side by side in one process. Every kernel file defines its loop once,
// as a user writes it, under the name KERNEL(name); bench/costmodel/run.sh
// compiles it three times into one binary:
//   serial   memcoro-cc -fno-memcoro                (the plain loop)
//   memcoro  memcoro-cc                             (with the cost model)
//   insist   memcoro-cc -fno-memcoro-cost-model     (every remote access
//            suspends, what memcoro did before the cost model)
// and once more with -DCOSTMODEL_MAIN for the data, the verifier and the
// timing loop: the variants run round robin, thread CPU time, and every run's
// result must equal the serial one.
#ifndef MEMCORO_BENCH_COSTMODEL_H
#define MEMCORO_BENCH_COSTMODEL_H

#include "../splitmix64.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CM_CAT(a, b) a##_##b
#define CM_NAME(a, b) CM_CAT(a, b)
#ifndef VARIANT
#define VARIANT serial
#endif
#define KERNEL(name) CM_NAME(name, VARIANT)
/// parallel(N) of the loops that take it from the build (-DCM_N=...).
#ifndef CM_N
#define CM_N 16
#endif

static inline double cm_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static inline void *cm_alloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 2u << 20, bytes ? bytes : 1)) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  memset(p, 0, bytes);
  return p;
}

static inline size_t cm_bytes(int argc, char **argv, size_t fallback) {
  if (argc < 2)
    return fallback;
  char *end;
  double v = strtod(argv[1], &end);
  switch (*end) {
  case 'K': case 'k': v *= 1 << 10; break;
  case 'M': case 'm': v *= 1 << 20; break;
  case 'G': case 'g': v *= 1 << 30; break;
  }
  return (size_t)v;
}

static inline int cm_trials(int argc, char **argv) { return argc > 2 ? atoi(argv[2]) : 5; }

/// Times `run(variant)` for the three variants round robin, `trials` times
/// after one warm-up each; `result(variant)`, untimed, gives what must equal
/// serial's. Prints the median time per op of each and the ratios to serial.
#define CM_VARIANTS 3
static const char *const cm_variant_names[CM_VARIANTS] = {"serial", "memcoro", "insist"};

static int cm_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static inline int cm_measure(const char *what, double ops, int trials, void (*run)(int variant),
                             uint64_t (*result)(int variant)) {
  double t[CM_VARIANTS][64];
  if (trials > 64)
    trials = 64;
  run(0);
  uint64_t want = result(0);
  for (int v = 1; v < CM_VARIANTS; ++v)
    if (run(v), result(v) != want) {
      printf("%s: verify=FAIL (%s differs from serial)\n", what, cm_variant_names[v]);
      return 1;
    }
  for (int k = 0; k < trials; ++k)
    for (int v = 0; v < CM_VARIANTS; ++v) {
      double start = cm_now();
      run(v);
      t[v][k] = cm_now() - start;
      if (result(v) != want) {
        printf("%s: verify=FAIL (%s differs from serial)\n", what, cm_variant_names[v]);
        return 1;
      }
    }
  double med[CM_VARIANTS];
  for (int v = 0; v < CM_VARIANTS; ++v) {
    qsort(t[v], trials, sizeof(double), cm_cmp);
    med[v] = t[v][trials / 2];
  }
  printf("%-34s serial %8.3f ns/op | memcoro %8.3f (%.2fx serial) | insist %8.3f (%.2fx serial)\n", what,
         med[0] / ops * 1e9, med[1] / ops * 1e9, med[0] / med[1], med[2] / ops * 1e9, med[0] / med[2]);
  return 0;
}

#endif
