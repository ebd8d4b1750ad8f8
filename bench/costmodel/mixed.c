// SPDX-License-Identifier: Apache-2.0
// mixed: issue 13's loop, s += hot[ix[i]] * cold[iy[i]]: both indirect, hot a
// 4 KiB global table that always hits, cold a large heap table that misses.
// One op = one iteration. Argument: bytes of cold.
#include "costmodel.h"

#ifdef COSTMODEL_MAIN
uint32_t hot[1024];
#else
extern uint32_t hot[1024];
#endif

#ifndef COSTMODEL_MAIN
uint64_t KERNEL(mixed)(const uint32_t *ix, const uint32_t *iy, const uint64_t *cold, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(CM_N)
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}

#else
uint64_t mixed_serial(const uint32_t *, const uint32_t *, const uint64_t *, size_t);
uint64_t mixed_memcoro(const uint32_t *, const uint32_t *, const uint64_t *, size_t);
uint64_t mixed_insist(const uint32_t *, const uint32_t *, const uint64_t *, size_t);
static uint32_t *ix, *iy;
static uint64_t *cold;
static size_t n;
static uint64_t sums[CM_VARIANTS];

static void run(int variant) {
  uint64_t (*const fn[])(const uint32_t *, const uint32_t *, const uint64_t *, size_t) = {
      mixed_serial, mixed_memcoro, mixed_insist};
  sums[variant] = fn[variant](ix, iy, cold, n);
}

static uint64_t result(int variant) { return sums[variant]; }

int main(int argc, char **argv) {
  size_t bytes = cm_bytes(argc, argv, 1u << 30);
  size_t entries = bytes / sizeof *cold;
  n = 1u << 23;
  cold = cm_alloc(entries * sizeof *cold);
  ix = cm_alloc(n * sizeof *ix), iy = cm_alloc(n * sizeof *iy);
  uint64_t s = 2;
  for (size_t i = 0; i < 1024; ++i)
    hot[i] = (uint32_t)splitmix64(&s);
  for (size_t i = 0; i < entries; ++i)
    cold[i] = splitmix64(&s);
  for (size_t i = 0; i < n; ++i)
    ix[i] = splitmix64(&s) % 1024, iy[i] = splitmix64(&s) % entries;
  char what[64];
  snprintf(what, sizeof what, "mixed hot 4K, cold %s, N=%d", argc > 1 ? argv[1] : "1G", CM_N);
  return cm_measure(what, (double)n, cm_trials(argc, argv), run, result);
}
#endif
