/* SPDX-License-Identifier: Apache-2.0 */
/* bsearch (the suite's bs): lookups of local keys in 2^21 sorted far words,
 * 22 dependent probes each; 6000 lookups at scale 1. */
#include "suite.h"

static uint64_t *arr, *keys, lookups, expected;
enum { BS_WORDS = 1 << 21 };

__attribute__((noinline)) uint64_t bsearch_loop(const uint64_t __remote *a, uint64_t n, const uint64_t *key,
                                                uint64_t count) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t k = key[i], base = 0, len = n;
    while (len > 1) {
      uint64_t half = len / 2;
      if (a[base + half] <= k)
        base += half;
      len -= half;
    }
    sum += base * (k | 1);
  }
  return sum;
}

/* The position of the last element <= k (0 when none), by a different search. */
static uint64_t reference(uint64_t k) {
  uint64_t lo = 0, hi = BS_WORDS;
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (arr[mid] <= k)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static void setup(double scale) {
  uint64_t st = 42, v = 0;
  lookups = (uint64_t)(6000 * scale);
  arr = suite_far_alloc(8ull * BS_WORDS);
  keys = suite_alloc(lookups * 8);
  for (uint64_t j = 0; j < BS_WORDS; ++j)
    arr[j] = v += 1 + splitmix64(&st) % 16;
  for (uint64_t i = 0; i < lookups; ++i)
    keys[i] = splitmix64(&st) % (v + 16);
  expected = 0;
  for (uint64_t i = 0; i < lookups; ++i)
    expected += reference(keys[i]) * (keys[i] | 1);
}
static void reset(void) {}
static uint64_t run(void) { return bsearch_loop((const uint64_t __remote *)arr, BS_WORDS, keys, lookups); }
static const char *check(uint64_t sum) { return sum == expected ? NULL : "the sum of found positions differs"; }
const struct suite_kernel suite_bsearch = {"bsearch", setup, reset, run, NULL, check};
