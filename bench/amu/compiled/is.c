/* SPDX-License-Identifier: Apache-2.0 */
/* is: NPB IS's key counting, counts[key[i]]++ over a far table of 2^21
 * 32-bit counts, 131072 keys at scale 1, drawn as in NPB (the mean of four
 * uniforms, so that keys bunch in the middle and repeat). Iterations that
 * share a key update one count; the update is whole within an iteration. */
#include "suite.h"

enum { KEYS_MAX = 1 << 21 };
static uint32_t *counts, *keys, *reference;
static uint64_t nkeys;

__attribute__((noinline)) void is_loop(uint32_t __remote *c, const uint32_t *key, uint64_t n) {
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < n; ++i)
    c[key[i]]++;
}

static void setup(double scale) {
  uint64_t st = 11;
  nkeys = (uint64_t)(131072 * scale);
  counts = suite_far_alloc(4ull * KEYS_MAX);
  keys = suite_alloc(4 * nkeys);
  reference = suite_alloc(4ull * KEYS_MAX);
  for (uint64_t i = 0; i < nkeys; ++i) {
    uint64_t sum = 0;
    for (int j = 0; j < 4; ++j)
      sum += splitmix64(&st) >> 44; /* 20 bits each */
    keys[i] = (uint32_t)(sum * KEYS_MAX >> 22);
    reference[keys[i]]++;
  }
}
static void reset(void) {
  for (uint64_t i = 0; i < nkeys; ++i)
    counts[keys[i]] = 0;
}
static uint64_t run(void) {
  is_loop((uint32_t __remote *)counts, keys, nkeys);
  return 0;
}
static uint64_t digest(uint64_t result) {
  (void)result;
  uint64_t h = 0;
  for (uint64_t i = 0; i < nkeys; ++i)
    h = mix64(h ^ counts[keys[i]] ^ (uint64_t)keys[i] << 32);
  return h;
}
static const char *check(uint64_t sum) {
  (void)sum;
  uint64_t total = 0;
  for (uint64_t i = 0; i < nkeys; ++i)
    if (counts[keys[i]] != reference[keys[i]])
      return "a key's count differs from the number of times it occurs";
  for (uint64_t k = 0; k < KEYS_MAX; ++k)
    total += counts[k];
  return total == nkeys ? NULL : "the counts do not add up to the number of keys";
}
const struct suite_kernel suite_is = {"is", setup, reset, run, digest, check};
