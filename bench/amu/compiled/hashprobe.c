/* SPDX-License-Identifier: Apache-2.0 */
/* hashprobe (not one of the paper's nine; kept beside hj because bench/amu
 * has it hand-written): a two-choice table of 2^18 far 64-byte buckets of 4
 * keys and 4 values, 65536 probes at scale 1, half of them hits. */
#include "suite.h"

enum { WAYS = 4, BUCKETS = 1 << 18 };
struct bucket {
  uint64_t key[WAYS], value[WAYS];
};
static struct bucket *table;
static uint64_t *probes, count, expected;

static uint64_t first(uint64_t key) { return mix64(key) & (BUCKETS - 1); }
static uint64_t second(uint64_t key) { return mix64(key ^ 0xC2B2AE3D27D4EB4FULL) & (BUCKETS - 1); }

static uint64_t search(const struct bucket __remote *b, uint64_t key) {
  uint64_t found = 0;
  for (unsigned j = 0; j < WAYS; ++j)
    found = b->key[j] == key ? b->value[j] + 1 : found;
  return found;
}
__attribute__((noinline)) uint64_t hashprobe_loop(const struct bucket __remote *b, const uint64_t *probe,
                                                  uint64_t n) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t key = probe[i];
    uint64_t found = search(&b[first(key)], key);
    if (!found)
      found = search(&b[second(key)], key);
    sum += found;
  }
  return sum;
}

static void setup(double scale) {
  uint64_t st = 42;
  count = (uint64_t)(65536 * scale);
  table = suite_far_alloc(BUCKETS * sizeof *table);
  probes = suite_alloc(count * 8);
  expected = 0;
  for (uint64_t i = 0; i < BUCKETS * WAYS / 2; ++i) {
    uint64_t key = splitmix64(&st) | 1;
    struct bucket *x = &table[first(key)], *y = &table[second(key)];
    unsigned nx = 0, ny = 0;
    while (nx < WAYS && x->key[nx])
      ++nx;
    while (ny < WAYS && y->key[ny])
      ++ny;
    struct bucket *to = ny < nx ? y : x;
    unsigned at = ny < nx ? ny : nx;
    if (at < WAYS) {
      to->key[at] = key;
      to->value[at] = mix64(key);
    }
    /* Odd keys are stored (when their buckets had room), even ones never. */
    if (i < count) {
      probes[i] = (i & 1) ? key : (key & ~1ull) | 2;
      expected += (i & 1) && at < WAYS ? mix64(key) + 1 : 0;
    }
  }
}
static void reset(void) {}
static uint64_t run(void) { return hashprobe_loop((const struct bucket __remote *)table, probes, count); }
static const char *check(uint64_t sum) { return sum == expected ? NULL : "the sum of found values differs"; }
const struct suite_kernel suite_hashprobe = {"hashprobe", setup, reset, run, NULL, check};
