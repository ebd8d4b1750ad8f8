/* SPDX-License-Identifier: Apache-2.0 */
/* Hash probe (the probe side of a hash join) into a two-choice hash table
 * in far memory: a key lives in bucket h1(key) or h2(key), 4 keys and 4
 * values per 64-byte bucket. Serial and dynamic look in h1 first and in h2
 * only on a miss there; the aset version loads both buckets at once (they
 * are independent) and suspends once, trading bandwidth for switches. */
#include "harness.h"

enum { WAYS = 4 };

struct bucket {
  uint64_t key[WAYS]; /* 0: empty */
  uint64_t value[WAYS];
};
_Static_assert(sizeof(struct bucket) == 64, "one bucket per cache line");

struct hashprobe {
  struct bucket *buckets; /* far */
  uint64_t mask;
  uint64_t *probes; /* local */
  uint64_t count, next, sum;
  struct memcoro_amu *amu;
  struct {
    uint64_t key;
    bool second; /* the bucket in flight is h2's */
    struct bucket b[2];
  } slot[AMU_MAX_PARALLEL];
};

static uint64_t h1(const struct hashprobe *h, uint64_t key) { return mix64(key) & h->mask; }
static uint64_t h2(const struct hashprobe *h, uint64_t key) {
  return mix64(key ^ 0xC2B2AE3D27D4EB4FULL) & h->mask;
}

static unsigned occupancy(const struct bucket *b) {
  unsigned n = 0;
  while (n < WAYS && b->key[n])
    ++n;
  return n;
}

/* Found value + 1, or 0. */
static uint64_t search(const struct bucket *b, uint64_t key) {
  for (unsigned j = 0; j < WAYS; ++j)
    if (b->key[j] == key)
      return b->value[j] + 1;
  return 0;
}

static void *hashprobe_setup(double scale, uint64_t seed) {
  struct hashprobe *h = amu_xmalloc(sizeof *h);
  const uint64_t nbuckets = 1ull << 18; /* 16 MiB */
  h->mask = nbuckets - 1;
  h->buckets = amu_far_xalloc(nbuckets * sizeof(struct bucket));
  /* Half full; insert into the emptier bucket, ties to h1, so that about a
   * third of the hits need the second bucket. */
  const uint64_t inserted = nbuckets * WAYS / 2;
  uint64_t *keys = amu_xmalloc(inserted * sizeof(uint64_t)), st = seed;
  for (uint64_t i = 0; i < inserted; ++i) {
    uint64_t key = splitmix64(&st) | 1; /* odd: never 0, and probes for misses use even keys */
    struct bucket *a = &h->buckets[h1(h, key)], *b = &h->buckets[h2(h, key)];
    unsigned na = occupancy(a), nb = occupancy(b);
    struct bucket *to = nb < na ? b : a;
    unsigned at = nb < na ? nb : na;
    if (at == WAYS) {
      /* Rare at half load: drop the key, it simply becomes a miss. */
      keys[i] = key;
      continue;
    }
    to->key[at] = key;
    to->value[at] = mix64(key);
    keys[i] = key;
  }
  h->count = (uint64_t)(65536 * scale);
  if (h->count < 64)
    h->count = 64;
  h->probes = amu_xmalloc(h->count * sizeof(uint64_t));
  for (uint64_t i = 0; i < h->count; ++i) {
    uint64_t r = splitmix64(&st);
    h->probes[i] = (r & 1) ? keys[r % inserted] : (r & ~1ull) | 2;
  }
  free(keys);
  return h;
}

static void hashprobe_teardown(void *k) {
  struct hashprobe *h = k;
  memcoro_far_free(h->buckets);
  free(h->probes);
  free(h);
}

static void hashprobe_reset(void *k) { (void)k; }

static uint64_t hashprobe_requests(const void *k) {
  const struct hashprobe *h = k;
  uint64_t n = 0;
  for (uint64_t i = 0; i < h->count; ++i)
    n += search(&h->buckets[h1(h, h->probes[i])], h->probes[i]) ? 1 : 2;
  return n;
}

static uint64_t hashprobe_checksum(const void *k) { return ((const struct hashprobe *)k)->sum; }

static bool hashprobe_phase_first(void *k, uint32_t s, void *handler);
static bool hashprobe_phase_second(void *k, uint32_t s, void *handler);

static bool hashprobe_launch(void *k, uint32_t s) {
  struct hashprobe *h = k;
  if (h->next == h->count)
    return false;
  uint64_t key = h->slot[s].key = h->probes[h->next++];
  h->slot[s].second = false;
  AMU_CHECK(memcoro_amu_aload_r(h->amu, s, &h->slot[s].b[0], &h->buckets[h1(h, key)], 64,
                                AMU_PHASE(hashprobe_phase_first)));
  return true;
}

static bool hashprobe_phase_second(void *k, uint32_t s, void *handler) {
  struct hashprobe *h = k;
  (void)s;
  typeof(h->slot[0]) *slot = handler;
  h->sum += search(&slot->b[0], slot->key);
  return false;
}

static bool hashprobe_phase_first(void *k, uint32_t s, void *handler) {
  struct hashprobe *h = k;
  typeof(h->slot[0]) *slot = handler;
  uint64_t found = search(&slot->b[0], slot->key);
  if (found) {
    h->sum += found;
    return false;
  }
  slot->second = true;
  AMU_CHECK(memcoro_amu_aload_r(h->amu, s, &slot->b[0], &h->buckets[h2(h, slot->key)], 64,
                                AMU_PHASE(hashprobe_phase_second)));
  return true;
}

/* getfin finds the phase from the slot's own state. */
static bool hashprobe_resume(void *k, uint32_t s) {
  struct hashprobe *h = k;
  return h->slot[s].second ? hashprobe_phase_second(k, s, &h->slot[s])
                           : hashprobe_phase_first(k, s, &h->slot[s]);
}

static bool hashprobe_launch_set(void *k, uint32_t s) {
  struct hashprobe *h = k;
  if (h->next == h->count)
    return false;
  uint64_t key = h->slot[s].key = h->probes[h->next++];
  AMU_CHECK(memcoro_amu_aset(h->amu, s, 2));
  AMU_CHECK(memcoro_amu_aload(h->amu, s, &h->slot[s].b[0], &h->buckets[h1(h, key)], 64));
  AMU_CHECK(memcoro_amu_aload(h->amu, s, &h->slot[s].b[1], &h->buckets[h2(h, key)], 64));
  return true;
}

static bool hashprobe_resume_set(void *k, uint32_t s) {
  struct hashprobe *h = k;
  uint64_t key = h->slot[s].key, found = search(&h->slot[s].b[0], key);
  h->sum += found ? found : search(&h->slot[s].b[1], key);
  return false;
}

static void hashprobe_run(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t n) {
  struct hashprobe *h = k;
  h->amu = amu;
  h->next = 0;
  h->sum = 0;
  switch (v) {
  case AMU_SERIAL:
    for (uint64_t i = 0; i < h->count; ++i) {
      uint64_t key = h->probes[i], found;
      struct bucket b;
      memcoro_far_load(amu, &b, &h->buckets[h1(h, key)], 64);
      found = search(&b, key);
      if (!found) {
        memcoro_far_load(amu, &b, &h->buckets[h2(h, key)], 64);
        found = search(&b, key);
      }
      h->sum += found;
    }
    break;
  case AMU_STATIC:
  case AMU_DYNAMIC:
    amu_schedule(h, amu, v, n, hashprobe_launch, hashprobe_resume);
    break;
  case AMU_DYNAMIC_ASET:
    amu_schedule(h, amu, AMU_DYNAMIC, n, hashprobe_launch_set, hashprobe_resume_set);
    break;
  case AMU_BAFIN:
    memcoro_amu_aconfig(amu, h->slot, sizeof h->slot[0]);
    amu_schedule_bafin(h, amu, n, hashprobe_launch);
    break;
  }
}

const struct amu_kernel amu_kernel_hashprobe = {
    .name = "hashprobe",
    .aset_width = 2,
    .setup = hashprobe_setup,
    .teardown = hashprobe_teardown,
    .reset = hashprobe_reset,
    .requests = hashprobe_requests,
    .run = hashprobe_run,
    .checksum = hashprobe_checksum,
};
