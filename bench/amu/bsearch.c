/* SPDX-License-Identifier: Apache-2.0 */
/* Binary search over a sorted far array: for each key, the index of the
 * last element <= key (or -1). Every probe depends on the previous one, so
 * a lookup is a chain of ~log2(n) suspensions; no two requests of one
 * lookup are independent, hence no aset version. */
#include "harness.h"

struct bsearch {
  uint64_t *array; /* far, sorted */
  uint64_t n;
  uint64_t *keys;  /* local */
  uint64_t lookups, next, sum;
  struct memcoro_amu *amu;
  struct {
    uint64_t key, base, len, probe;
    bool last; /* the probe in flight is the final A[base] check */
  } slot[AMU_MAX_PARALLEL];
};

static void *bsearch_setup(double scale, uint64_t seed) {
  struct bsearch *b = amu_xmalloc(sizeof *b);
  b->n = 1ull << 21; /* 16 MiB */
  b->array = amu_far_xalloc(b->n * sizeof(uint64_t));
  uint64_t v = 0, st = seed;
  for (uint64_t j = 0; j < b->n; ++j)
    b->array[j] = v += 1 + splitmix64(&st) % 16;
  b->lookups = (uint64_t)(6000 * scale);
  if (b->lookups < 64)
    b->lookups = 64;
  b->keys = amu_xmalloc(b->lookups * sizeof(uint64_t));
  for (uint64_t i = 0; i < b->lookups; ++i)
    b->keys[i] = splitmix64(&st) % (v + 16);
  return b;
}

static void bsearch_teardown(void *k) {
  struct bsearch *b = k;
  memcoro_far_free(b->array);
  free(b->keys);
  free(b);
}

static void bsearch_reset(void *k) { (void)k; }

static uint64_t bsearch_requests(const void *k) {
  const struct bsearch *b = k;
  unsigned depth = 0;
  for (uint64_t len = b->n; len > 1; len -= len / 2)
    ++depth;
  return b->lookups * (depth + 1);
}

static uint64_t bsearch_checksum(const void *k) { return ((const struct bsearch *)k)->sum; }

static uint64_t bsearch_answer(uint64_t base, uint64_t found, uint64_t key) {
  return found <= key ? base + 1 : 0; /* index + 1, 0 for "none" */
}

static uint64_t bsearch_serial_one(struct bsearch *b, struct memcoro_amu *amu, uint64_t key) {
  uint64_t base = 0, len = b->n, x;
  while (len > 1) {
    uint64_t half = len / 2;
    memcoro_far_load(amu, &x, &b->array[base + half], 8);
    if (x <= key)
      base += half;
    len -= half;
  }
  memcoro_far_load(amu, &x, &b->array[base], 8);
  return bsearch_answer(base, x, key);
}

static bool bsearch_phase_probe(void *k, uint32_t s, void *handler);
static bool bsearch_phase_last(void *k, uint32_t s, void *handler);

/* Issues the next probe of slot s. */
static void bsearch_issue(struct bsearch *b, uint32_t s) {
  uint64_t at = b->slot[s].base;
  void *phase = AMU_PHASE(bsearch_phase_probe);
  if (b->slot[s].len > 1) {
    at += b->slot[s].len / 2;
  } else {
    b->slot[s].last = true;
    phase = AMU_PHASE(bsearch_phase_last);
  }
  AMU_CHECK(memcoro_amu_aload_r(b->amu, s, &b->slot[s].probe, &b->array[at], 8, phase));
}

static bool bsearch_launch(void *k, uint32_t s) {
  struct bsearch *b = k;
  if (b->next == b->lookups)
    return false;
  b->slot[s].key = b->keys[b->next++];
  b->slot[s].base = 0;
  b->slot[s].len = b->n;
  b->slot[s].last = false;
  bsearch_issue(b, s);
  return true;
}

static bool bsearch_phase_last(void *k, uint32_t s, void *handler) {
  struct bsearch *b = k;
  (void)s;
  const typeof(b->slot[0]) *slot = handler;
  b->sum += bsearch_answer(slot->base, slot->probe, slot->key) * (slot->key | 1);
  return false;
}

static bool bsearch_phase_probe(void *k, uint32_t s, void *handler) {
  struct bsearch *b = k;
  typeof(b->slot[0]) *slot = handler;
  uint64_t half = slot->len / 2;
  if (slot->probe <= slot->key)
    slot->base += half;
  slot->len -= half;
  bsearch_issue(b, s);
  return true;
}

/* getfin finds the phase from the slot's own state. */
static bool bsearch_resume(void *k, uint32_t s) {
  struct bsearch *b = k;
  return b->slot[s].last ? bsearch_phase_last(k, s, &b->slot[s])
                         : bsearch_phase_probe(k, s, &b->slot[s]);
}

static void bsearch_run(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t n) {
  struct bsearch *b = k;
  b->amu = amu;
  b->next = 0;
  b->sum = 0;
  if (v == AMU_SERIAL) {
    for (uint64_t i = 0; i < b->lookups; ++i)
      b->sum += bsearch_serial_one(b, amu, b->keys[i]) * (b->keys[i] | 1);
    return;
  }
  if (v == AMU_BAFIN) {
    memcoro_amu_aconfig(amu, b->slot, sizeof b->slot[0]);
    amu_schedule_bafin(b, amu, n, bsearch_launch);
  } else {
    amu_schedule(b, amu, v, n, bsearch_launch, bsearch_resume);
  }
}

const struct amu_kernel amu_kernel_bsearch = {
    .name = "bsearch",
    .aset_width = 0,
    .setup = bsearch_setup,
    .teardown = bsearch_teardown,
    .reset = bsearch_reset,
    .requests = bsearch_requests,
    .run = bsearch_run,
    .checksum = bsearch_checksum,
};
