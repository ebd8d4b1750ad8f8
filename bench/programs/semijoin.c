// semijoin: a join with a Bloom-style bitmap filter pushed down to the probe
// side, written the way query engines write a filtered hash join probe: the
// build side (a dimension table, selected by a predicate) sets one bit per
// key in a bitmap over the whole key domain (`bitmap[k >> 6] |= 1 << (k & 63)`)
// and is inserted into a bucket-chained hash table; each probe row (a fact
// table's foreign key) first tests its key's bit, and only a survivor probes
// the hash table, its matches appended to an output array of row pairs
// through the output's count. The program checks itself against a
// straightforward join: for every probe row, in order, the build rows of the
// same key (a binary search over the build side sorted by key), so the output
// must be exactly that list. One pragma line marks the probe loop.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  uint32_t key;
  uint32_t row;
} build_row_t;

typedef struct {
  uint32_t probe_row;
  uint32_t build_row;
} match_t;

typedef struct {
  uint32_t *heads;   // first entry of each bucket, or UINT32_MAX
  uint32_t *next;    // next entry of the same bucket
  build_row_t *rows; // entries
  uint32_t mask;
} hash_table_t;

static inline uint32_t hash32(uint32_t k) {
  k ^= k >> 16;
  k *= 0x85ebca6b;
  k ^= k >> 13;
  k *= 0xc2b2ae35;
  k ^= k >> 16;
  return k;
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static size_t probe(const uint64_t *bitmap, const hash_table_t *ht, const uint32_t *fact_keys, size_t nfact,
                    match_t *out) {
  size_t nout = 0;
#pragma memcoro
  for (size_t i = 0; i < nfact; i++) {
    uint32_t k = fact_keys[i];
    if (!((bitmap[k >> 6] >> (k & 63)) & 1))
      continue;
    for (uint32_t e = ht->heads[hash32(k) & ht->mask]; e != UINT32_MAX; e = ht->next[e]) {
      if (ht->rows[e].key == k) {
        out[nout].probe_row = (uint32_t)i;
        out[nout].build_row = ht->rows[e].row;
        nout++;
      }
    }
  }
  return nout;
}

static int cmp_build(const void *a, const void *b) {
  const build_row_t *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key ? 1 : x->row < y->row ? -1 : x->row > y->row;
}

int main(int argc, char **argv) {
  uint32_t domain_bits = argc > 1 ? (uint32_t)atoi(argv[1]) : 30;
  size_t nbuild = argc > 2 ? strtoull(argv[2], 0, 10) : 2u << 20;
  size_t nfact = argc > 3 ? strtoull(argv[3], 0, 10) : 8u << 20;
  uint64_t domain = 1ull << domain_bits;
  uint64_t *bitmap = calloc(domain / 64 + 1, sizeof(uint64_t));

  // The dimension table's selected rows: random keys (a few repeat).
  uint64_t s = 0x853c49e6748fea9bull;
  uint32_t nbuckets = 1;
  while (nbuckets < nbuild)
    nbuckets <<= 1;
  hash_table_t ht = {malloc(nbuckets * sizeof(uint32_t)), malloc(nbuild * sizeof(uint32_t)),
                     malloc(nbuild * sizeof(build_row_t)), nbuckets - 1};
  for (uint32_t b = 0; b < nbuckets; b++)
    ht.heads[b] = UINT32_MAX;
  for (size_t r = 0; r < nbuild; r++) {
    uint32_t k = (uint32_t)(next_rand(&s) & (domain - 1));
    bitmap[k >> 6] |= 1ull << (k & 63);
    ht.rows[r].key = k;
    ht.rows[r].row = (uint32_t)r;
    uint32_t b = hash32(k) & ht.mask;
    ht.next[r] = ht.heads[b];
    ht.heads[b] = (uint32_t)r;
  }
  // The fact table's keys: a quarter hit a selected key, the rest the domain.
  uint32_t *fact_keys = malloc(nfact * sizeof(uint32_t));
  for (size_t i = 0; i < nfact; i++) {
    uint64_t x = next_rand(&s);
    fact_keys[i] = x % 4 == 0 ? ht.rows[(x >> 8) % nbuild].key : (uint32_t)((x >> 16) & (domain - 1));
  }
  match_t *out = malloc((nfact + nbuild) * sizeof(match_t));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  size_t nout = probe(bitmap, &ht, fact_keys, nfact, out);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // Verification: the straightforward join, in probe order; within a probe
  // row the chain gives its build rows newest first.
  build_row_t *sorted = malloc(nbuild * sizeof(build_row_t));
  for (size_t r = 0; r < nbuild; r++)
    sorted[r] = ht.rows[r];
  qsort(sorted, nbuild, sizeof(build_row_t), cmp_build);
  size_t pos = 0;
  int ok = 1;
  uint64_t checksum = 0;
  for (size_t i = 0; i < nfact && ok; i++) {
    uint32_t k = fact_keys[i];
    size_t lo = 0, hi = nbuild;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (sorted[mid].key < k)
        lo = mid + 1;
      else
        hi = mid;
    }
    size_t end = lo;
    while (end < nbuild && sorted[end].key == k)
      end++;
    for (size_t j = end; j > lo; j--, pos++) {
      if (pos >= nout || out[pos].probe_row != i || out[pos].build_row != sorted[j - 1].row) {
        ok = 0;
        break;
      }
      checksum = checksum * 31 + out[pos].build_row;
    }
  }
  ok = ok && pos == nout;
  printf("kernel_seconds %.6f\n", seconds);
  printf("2^%u key domain, %zu build rows, %zu probe rows: %zu matches, checksum %016llx\n", domain_bits, nbuild,
         nfact, nout, (unsigned long long)checksum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(sorted);
  free(out);
  free(fact_keys);
  free(ht.heads);
  free(ht.next);
  free(ht.rows);
  free(bitmap);
  return ok ? 0 : 1;
}
