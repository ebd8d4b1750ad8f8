/* SPDX-License-Identifier: Apache-2.0 */
/* hj: the no-partitioning hash join's probe phase. A chained hash table on
 * relation R (2^18 far 32-byte entries, 2^18 far bucket heads) is probed with
 * relation S (40000 keys at scale 1, half of them hits): each probe reads its
 * bucket head, then walks the chain, every step a dependent far load. */
#include "suite.h"

enum { ROWS = 1 << 18, LOG_BUCKETS = 18 };
#define NIL 0xFFFFFFFFu
struct entry {
  uint64_t key, payload;
  uint32_t next, pad[3];
};
static struct entry *entries;
static uint32_t *buckets;
static uint64_t *probe, nprobe, expected;

static uint64_t bucket_of(uint64_t key) { return (key * 0x9e3779b97f4a7c15ull) >> (64 - LOG_BUCKETS); }

__attribute__((noinline)) uint64_t hj_loop(const struct entry __remote *e, const uint32_t __remote *heads,
                                           const uint64_t *keys, uint64_t n) {
  uint64_t matches = 0, payload_sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t key = keys[i];
    for (uint32_t at = heads[bucket_of(key)]; at != NIL; at = e[at].next)
      if (e[at].key == key) {
        ++matches;
        payload_sum += e[at].payload;
      }
  }
  return matches << 40 ^ payload_sum;
}

static void setup(double scale) {
  uint64_t st = 7, matches = 0, payload_sum = 0;
  nprobe = (uint64_t)(40000 * scale);
  entries = suite_far_alloc(ROWS * sizeof *entries);
  buckets = suite_far_alloc(sizeof *buckets << LOG_BUCKETS);
  probe = suite_alloc(nprobe * 8);
  for (uint64_t b = 0; b < 1u << LOG_BUCKETS; ++b)
    buckets[b] = NIL;
  /* R: unique keys, the payload is the row; built by insertion at the head. */
  for (uint64_t r = 0; r < ROWS; ++r) {
    uint64_t key = mix64(r + 1);
    entries[r] = (struct entry){key, r, buckets[bucket_of(key)], {0, 0, 0}};
    buckets[bucket_of(key)] = (uint32_t)r;
  }
  /* S: a hit names a random row of R, a miss a key beyond R's. */
  for (uint64_t j = 0; j < nprobe; ++j) {
    uint64_t row = splitmix64(&st) % ROWS;
    if (splitmix64(&st) & 1) {
      probe[j] = mix64(row + 1);
      ++matches;
      payload_sum += row;
    } else {
      probe[j] = mix64(ROWS + 1 + row);
    }
  }
  expected = matches << 40 ^ payload_sum;
}
static void reset(void) {}
static uint64_t run(void) {
  return hj_loop((const struct entry __remote *)entries, (const uint32_t __remote *)buckets, probe, nprobe);
}
static const char *check(uint64_t sum) { return sum == expected ? NULL : "matches or payload sum differ"; }
const struct suite_kernel suite_hj = {"hj", setup, reset, run, NULL, check};
