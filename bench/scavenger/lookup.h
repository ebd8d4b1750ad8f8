/* SPDX-License-Identifier: Apache-2.0 */
/* The hash table both pointer chases walk (bench/scavenger): chains of
 * 64-byte nodes scattered over a table much larger than the caches. */
#ifndef MEMCORO_BENCH_SCAVENGER_LOOKUP_H
#define MEMCORO_BENCH_SCAVENGER_LOOKUP_H

#include <stdint.h>

struct node {
  struct node *next;
  uint64_t key;
  uint64_t value;
  char pad[40];
};

struct table {
  struct node **heads;
  uint64_t mask; /* buckets - 1; a key's bucket is key & mask */
};

/* lookup.c, built once per variant: serial (-fno-memcoro) and scavenger
 * mode with bounds of 25 to 1600 ns (run.sh lists them). Looks keys[0..n)
 * up, writes each value (0: absent) to out, returns how many were found. */
#define MEMCORO_BENCH_LOOKUP(v) \
  uint64_t lookup_##v(const struct table *t, const uint32_t *keys, long n, uint64_t *out);
MEMCORO_BENCH_LOOKUP(serial)
MEMCORO_BENCH_LOOKUP(25)
MEMCORO_BENCH_LOOKUP(50)
MEMCORO_BENCH_LOOKUP(100)
MEMCORO_BENCH_LOOKUP(200)
MEMCORO_BENCH_LOOKUP(400)
MEMCORO_BENCH_LOOKUP(800)
MEMCORO_BENCH_LOOKUP(1600)
#undef MEMCORO_BENCH_LOOKUP

#endif
