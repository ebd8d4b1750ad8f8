/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the standalone C benchmarks (calls/lookup.c, exits/exits.c) share: one
 * data stream, so that the serial and memcoro copies of a loop in one binary
 * see the same data, and the thread's CPU clock, which the other process on a
 * shared core does not advance.
 */
#ifndef MEMCORO_BENCH_STANDALONE_H
#define MEMCORO_BENCH_STANDALONE_H

#include "splitmix64.h"
#include <time.h>

static uint64_t standalone_state = 88172645463325252ull;
static inline uint64_t rnd(void) { return splitmix64(&standalone_state); }

static inline double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#endif
