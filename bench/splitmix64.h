/* SPDX-License-Identifier: Apache-2.0 */
/*
 * splitmix64, the C benchmarks' data generator: a fast, fixed,
 * platform-independent stream, so that every build of a kernel (serial,
 * memcoro, each scheduler) sees the same data and must print the same answer.
 * Shared by the AMU benchmarks (amu/harness.h, amu/compiled/suite.h) and the
 * cost model's loops (costmodel/costmodel.h); the C++ suite has its own in
 * harness.h.
 */
#ifndef MEMCORO_BENCH_SPLITMIX64_H
#define MEMCORO_BENCH_SPLITMIX64_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* One draw of the stream started at x: a hash of x. */
static inline uint64_t mix64(uint64_t x) { return splitmix64(&x); }

#endif
