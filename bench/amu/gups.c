/* SPDX-License-Identifier: Apache-2.0 */
/* GUPS (HPCC RandomAccess) over far memory: table[idx(i)] ^= value(i).
 *
 * HPCC tolerates 1% lost updates from racing read-modify-writes; we want
 * bit-identical answers, so the update indices are a bijective scramble of
 * i (no two updates of a run touch the same word) and every version,
 * whatever its order, must produce the serial table exactly.
 * The write-back is a plain store into the far region: posted, like a
 * store-buffer write on a real core, in every version alike. Only the
 * read, which the core would stall on, goes through the model. */
#include "harness.h"

#include <string.h>

enum { GUPS_SET = 4 }; /* updates coalesced per slot under aset */

struct gups {
  uint64_t *table; /* far */
  unsigned bits;
  uint64_t updates;
  uint64_t next;
  struct memcoro_amu *amu;
  uint64_t iter[AMU_MAX_PARALLEL][GUPS_SET];
  uint64_t buf[AMU_MAX_PARALLEL][GUPS_SET];
  unsigned count[AMU_MAX_PARALLEL];
};

static uint64_t gups_index(const struct gups *g, uint64_t i) {
  const uint64_t mask = (1ull << g->bits) - 1;
  uint64_t x = (i * 0x9E3779B97F4A7C15ULL) & mask; /* odd multiplier: a bijection mod 2^bits */
  x ^= x >> (g->bits / 2);                         /* xorshift: also a bijection */
  return (x * 0xD6E8FEB86659FD93ULL) & mask;
}

static uint64_t gups_value(uint64_t i) { return mix64(i ^ 0x6A09E667F3BCC909ULL); }

static void *gups_setup(double scale, uint64_t seed) {
  (void)seed;
  struct gups *g = amu_xmalloc(sizeof *g);
  g->bits = 21; /* 16 MiB of 8-byte words */
  g->updates = (uint64_t)(131072 * scale);
  if (g->updates < 1024)
    g->updates = 1024;
  if (g->updates > (1ull << g->bits))
    g->updates = 1ull << g->bits;
  g->table = amu_far_xalloc(sizeof(uint64_t) << g->bits);
  return g;
}

static void gups_reset(void *k) {
  struct gups *g = k;
  for (uint64_t j = 0; j < (1ull << g->bits); ++j)
    g->table[j] = j;
}

static void gups_teardown(void *k) {
  struct gups *g = k;
  memcoro_far_free(g->table);
  free(g);
}

static uint64_t gups_requests(const void *k) { return ((const struct gups *)k)->updates; }

static uint64_t gups_checksum(const void *k) {
  const struct gups *g = k;
  uint64_t sum = 0;
  for (uint64_t j = 0; j < (1ull << g->bits); ++j)
    sum += g->table[j] * (2 * j + 1);
  return sum;
}

static bool gups_phase(void *k, uint32_t s, void *handler);

static bool gups_launch(void *k, uint32_t s) {
  struct gups *g = k;
  if (g->next == g->updates)
    return false;
  uint64_t i = g->next++;
  g->iter[s][0] = i;
  AMU_CHECK(memcoro_amu_aload_r(g->amu, s, &g->buf[s][0], &g->table[gups_index(g, i)], 8,
                                AMU_PHASE(gups_phase)));
  return true;
}

static bool gups_resume(void *k, uint32_t s) {
  struct gups *g = k;
  uint64_t i = g->iter[s][0];
  g->table[gups_index(g, i)] = g->buf[s][0] ^ gups_value(i);
  return false;
}

static bool gups_phase(void *k, uint32_t s, void *handler) {
  (void)handler;
  return gups_resume(k, s);
}

static bool gups_launch_set(void *k, uint32_t s) {
  struct gups *g = k;
  if (g->next == g->updates)
    return false;
  unsigned c = g->updates - g->next < GUPS_SET ? (unsigned)(g->updates - g->next) : GUPS_SET;
  g->count[s] = c;
  AMU_CHECK(memcoro_amu_aset(g->amu, s, c));
  for (unsigned j = 0; j < c; ++j) {
    uint64_t i = g->next++;
    g->iter[s][j] = i;
    AMU_CHECK(memcoro_amu_aload(g->amu, s, &g->buf[s][j], &g->table[gups_index(g, i)], 8));
  }
  return true;
}

static bool gups_resume_set(void *k, uint32_t s) {
  struct gups *g = k;
  for (unsigned j = 0; j < g->count[s]; ++j) {
    uint64_t i = g->iter[s][j];
    g->table[gups_index(g, i)] = g->buf[s][j] ^ gups_value(i);
  }
  return false;
}

static void gups_run(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t n) {
  struct gups *g = k;
  g->amu = amu;
  g->next = 0;
  switch (v) {
  case AMU_SERIAL:
    for (uint64_t i = 0; i < g->updates; ++i) {
      uint64_t *p = &g->table[gups_index(g, i)], x;
      memcoro_far_load(amu, &x, p, 8);
      *p = x ^ gups_value(i);
    }
    break;
  case AMU_STATIC:
  case AMU_DYNAMIC:
    amu_schedule(g, amu, v, n, gups_launch, gups_resume);
    break;
  case AMU_DYNAMIC_ASET:
    amu_schedule(g, amu, AMU_DYNAMIC, n, gups_launch_set, gups_resume_set);
    break;
  case AMU_BAFIN:
    amu_schedule_bafin(g, amu, n, gups_launch);
    break;
  }
}

const struct amu_kernel amu_kernel_gups = {
    .name = "gups",
    .aset_width = GUPS_SET,
    .setup = gups_setup,
    .teardown = gups_teardown,
    .reset = gups_reset,
    .requests = gups_requests,
    .run = gups_run,
    .checksum = gups_checksum,
};
