/* SPDX-License-Identifier: Apache-2.0 */
/* gups (the suite's gups): t[idx(i)] ^= v(i) over 2^21 far words, 131072
 * updates at scale 1. The index is a bijective scramble of i, so no two
 * updates touch one word and the answer does not depend on their order. */
#include "suite.h"

enum { GUPS_BITS = 21 };
static uint64_t *table, updates;

static uint64_t gups_index(uint64_t i) {
  const uint64_t mask = (1ull << GUPS_BITS) - 1;
  uint64_t x = (i * 0x9E3779B97F4A7C15ULL) & mask;
  x ^= x >> (GUPS_BITS / 2);
  return (x * 0xD6E8FEB86659FD93ULL) & mask;
}
static uint64_t gups_value(uint64_t i) { return mix64(i ^ 0x6A09E667F3BCC909ULL); }

__attribute__((noinline)) void gups_loop(uint64_t __remote *t, uint64_t n) {
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < n; ++i)
    t[gups_index(i)] ^= gups_value(i);
}

static void setup(double scale) {
  table = suite_far_alloc(8ull << GUPS_BITS);
  updates = (uint64_t)(131072 * scale);
  for (uint64_t j = 0; j < 1ull << GUPS_BITS; ++j)
    table[j] = j;
}
/* Only the updated words change (and the check tests them all). */
static void reset(void) {
  for (uint64_t i = 0; i < updates; ++i)
    table[gups_index(i)] = gups_index(i);
}
static uint64_t run(void) {
  gups_loop((uint64_t __remote *)table, updates);
  return 0;
}
static uint64_t digest(uint64_t result) {
  (void)result;
  uint64_t h = 0;
  for (uint64_t i = 0; i < updates; ++i)
    h = mix64(h ^ table[gups_index(i)]);
  return h;
}
static const char *check(uint64_t sum) {
  (void)sum;
  for (uint64_t i = 0; i < updates; ++i)
    if (table[gups_index(i)] != (gups_index(i) ^ gups_value(i)))
      return "an updated word differs from its index xor its update";
  return NULL;
}
const struct suite_kernel suite_gups = {"gups", setup, reset, run, digest, check};
