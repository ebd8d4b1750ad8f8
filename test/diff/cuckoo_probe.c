// cuckoo_probe: lookups in a cuckoo hash table (two candidate buckets, the second read only when the first does not hold the key), the value read through the index of the bucket that matched; half the keys are present, in either bucket.
#include "common.h"

typedef struct {
  uint64_t key, val;
} slot_t;

static inline uint64_t h1(uint64_t k) { return (k ^ (k >> 33)) * 0xff51afd7ed558ccdull; }
static inline uint64_t h2(uint64_t k) { return (k ^ (k >> 29)) * 0xc4ceb9fe1a85ec53ull; }

static void probe(const slot_t *t, uint64_t mask, const uint64_t *keys, uint64_t *out, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    uint64_t k = keys[i];
    uint64_t a = h1(k) & mask, b = h2(k) & mask;
    uint64_t j = t[a].key == k ? a : b;
    out[i] = t[j].key == k ? t[j].val : 0;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  const uint64_t buckets = 1024, mask = buckets - 1;
  slot_t *t = diff_alloc(buckets * sizeof(slot_t));
  // Keys in their first bucket when it is free, else in their second.
  uint64_t present[512];
  int np = 0;
  for (int r = 0; r < 512; r++) {
    uint64_t k = diff_rand() | 1, a = h1(k) & mask, b = h2(k) & mask;
    slot_t *s = !t[a].key ? &t[a] : !t[b].key ? &t[b] : 0;
    if (s) {
      s->key = k;
      s->val = diff_rand();
      present[np++] = k;
    }
  }
  uint64_t *keys = diff_alloc((n + 1) * sizeof(uint64_t));
  for (int i = 0; i < n; i++)
    keys[i] = i % 2 ? present[diff_rand() % np] : diff_rand() | 1;
  uint64_t *out = diff_alloc((n + 1) * sizeof(uint64_t));
  probe(t, mask, keys, out, n);
  printf("%016llx\n", (unsigned long long)diff_hash_u64(out, n));
  return 0;
}
