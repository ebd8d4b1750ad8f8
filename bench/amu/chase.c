/* SPDX-License-Identifier: Apache-2.0 */
/* Pointer chase: many independent chains through one random cycle of
 * 64-byte far nodes; each walk sums the payloads along its chain. A step's
 * address is the previous step's data, so there is nothing to coalesce:
 * no aset version. */
#include "harness.h"

struct node {
  uint64_t next;
  uint64_t value;
  uint64_t pad[6];
};
_Static_assert(sizeof(struct node) == 64, "one node per cache line");

struct chase {
  struct node *nodes; /* far */
  uint64_t count, chains, steps, next_chain, sum;
  struct memcoro_amu *amu;
  struct {
    uint64_t chain, left, acc;
    struct node step; /* next + value arrive here */
  } slot[AMU_MAX_PARALLEL];
};

static uint64_t chase_start(const struct chase *c, uint64_t chain) {
  return mix64(chain * 0x51ED270B27ull) % c->count;
}

static void *chase_setup(double scale, uint64_t seed) {
  struct chase *c = amu_xmalloc(sizeof *c);
  c->count = 1ull << 18; /* 16 MiB */
  c->nodes = amu_far_xalloc(c->count * sizeof(struct node));
  /* Sattolo's algorithm: a single cycle through every node. */
  uint64_t *order = amu_xmalloc(c->count * sizeof(uint64_t)), st = seed;
  for (uint64_t j = 0; j < c->count; ++j)
    order[j] = j;
  for (uint64_t j = c->count - 1; j > 0; --j) {
    uint64_t r = splitmix64(&st) % j, t = order[j];
    order[j] = order[r];
    order[r] = t;
  }
  for (uint64_t j = 0; j < c->count; ++j) {
    c->nodes[order[j]].next = order[(j + 1) % c->count];
    c->nodes[order[j]].value = splitmix64(&st);
  }
  free(order);
  c->chains = 1024;
  c->steps = (uint64_t)(128 * scale);
  if (c->steps < 4)
    c->steps = 4;
  return c;
}

static void chase_teardown(void *k) {
  struct chase *c = k;
  memcoro_far_free(c->nodes);
  free(c);
}

static void chase_reset(void *k) { (void)k; }

static uint64_t chase_requests(const void *k) {
  const struct chase *c = k;
  return c->chains * c->steps;
}

static uint64_t chase_checksum(const void *k) { return ((const struct chase *)k)->sum; }

static uint64_t chase_fold(uint64_t chain, uint64_t acc) { return mix64(acc + chain); }

static bool chase_phase(void *k, uint32_t s, void *handler);

static bool chase_launch(void *k, uint32_t s) {
  struct chase *c = k;
  if (c->next_chain == c->chains)
    return false;
  uint64_t chain = c->next_chain++;
  c->slot[s].chain = chain;
  c->slot[s].left = c->steps;
  c->slot[s].acc = 0;
  AMU_CHECK(memcoro_amu_aload_r(c->amu, s, &c->slot[s].step, &c->nodes[chase_start(c, chain)], 16,
                                AMU_PHASE(chase_phase)));
  return true;
}

static bool chase_phase(void *k, uint32_t s, void *handler) {
  struct chase *c = k;
  typeof(c->slot[0]) *slot = handler;
  slot->acc += slot->step.value;
  if (--slot->left == 0) {
    c->sum += chase_fold(slot->chain, slot->acc);
    return false;
  }
  AMU_CHECK(memcoro_amu_aload_r(c->amu, s, &slot->step, &c->nodes[slot->step.next], 16,
                                AMU_PHASE(chase_phase)));
  return true;
}

static bool chase_resume(void *k, uint32_t s) {
  struct chase *c = k;
  return chase_phase(k, s, &c->slot[s]);
}

static void chase_run(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t n) {
  struct chase *c = k;
  c->amu = amu;
  c->next_chain = 0;
  c->sum = 0;
  if (v == AMU_SERIAL) {
    for (uint64_t chain = 0; chain < c->chains; ++chain) {
      uint64_t at = chase_start(c, chain), acc = 0;
      struct node step;
      for (uint64_t j = 0; j < c->steps; ++j) {
        memcoro_far_load(amu, &step, &c->nodes[at], 16);
        acc += step.value;
        at = step.next;
      }
      c->sum += chase_fold(chain, acc);
    }
    return;
  }
  if (v == AMU_BAFIN) {
    memcoro_amu_aconfig(amu, c->slot, sizeof c->slot[0]);
    amu_schedule_bafin(c, amu, n, chase_launch);
  } else {
    amu_schedule(c, amu, v, n, chase_launch, chase_resume);
  }
}

const struct amu_kernel amu_kernel_chase = {
    .name = "chase",
    .aset_width = 0,
    .setup = chase_setup,
    .teardown = chase_teardown,
    .reset = chase_reset,
    .requests = chase_requests,
    .run = chase_run,
    .checksum = chase_checksum,
};
