// npo.h: the data structures of the no-partitioning hash join (NPO) that
// hashjoin.c (its probe) and hashbuild.c (its latched build) share, as the
// original code shares them between its build and probe phases: a
// bucket-chained table of 32-byte buckets (a latch, a count, two tuples, an
// overflow pointer), the relations, the hash, and the generator of the keys.
#ifndef MEMCORO_PROGRAMS_NPO_H
#define MEMCORO_PROGRAMS_NPO_H
#include <stdint.h>
#include <stdlib.h>

#define BUCKET_SIZE 2
typedef struct { uint32_t key, payload; } tuple_t;
typedef struct bucket_t {
  volatile char latch;
  uint32_t count;
  tuple_t tuples[BUCKET_SIZE];
  struct bucket_t *next;
} bucket_t;
typedef struct {
  bucket_t *buckets;
  uint32_t num_buckets;
  uint32_t hash_mask;
  uint32_t skip_bits;
} hashtable_t;
typedef struct {
  tuple_t *tuples;
  uint64_t num_tuples;
} relation_t;

#define HASH(X, MASK, SKIP) (((X) & MASK) >> SKIP)

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

// R: the keys 1..n in random order, payload 7 (key - 1) + 3.
static relation_t primary_keys(uint64_t n) {
  relation_t R = {malloc(sizeof(tuple_t) * n), n};
  for (uint64_t i = 0; i < n; i++) R.tuples[i] = (tuple_t){(uint32_t)(i + 1), (uint32_t)(i * 7 + 3)};
  for (uint64_t i = n - 1; i > 0; i--) {
    uint64_t j = next_rand() % (i + 1);
    tuple_t t = R.tuples[i];
    R.tuples[i] = R.tuples[j];
    R.tuples[j] = t;
  }
  return R;
}

#endif
