// hashjoin: the no-partitioning hash join (NPO) of the main-memory join
// literature, written the way those codes write it: a bucket-chained table
// of 32-byte buckets (a latch, a count, two tuples, an overflow pointer),
// built serially from R, then probed with every tuple of S. R's keys are
// 1..|R| shuffled and S's keys are drawn from them (a primary-key/foreign-key
// join), so the program checks itself: every probe tuple matches exactly
// once, and the payload checksum equals the one computed from S directly.
// One pragma line marks the probe loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "npo.h"

static void build_hashtable(hashtable_t *ht, const relation_t *rel, bucket_t *overflow) {
  uint32_t used = 0;
  for (uint64_t i = 0; i < rel->num_tuples; i++) {
    uint32_t idx = HASH(rel->tuples[i].key, ht->hash_mask, ht->skip_bits);
    bucket_t *curr = ht->buckets + idx, *nxt = curr->next;
    if (curr->count == BUCKET_SIZE) {
      if (!nxt || nxt->count == BUCKET_SIZE) {
        bucket_t *b = &overflow[used++];
        curr->next = b;
        b->next = nxt;
        b->count = 1;
        b->tuples[0] = rel->tuples[i];
      } else {
        nxt->tuples[nxt->count++] = rel->tuples[i];
      }
    } else {
      curr->tuples[curr->count++] = rel->tuples[i];
    }
  }
}

static int64_t probe_hashtable(const hashtable_t *ht, const relation_t *rel, uint64_t *checksum) {
  int64_t matches = 0;
  uint64_t sum = 0;
  const uint32_t hashmask = ht->hash_mask;
  const uint32_t skipbits = ht->skip_bits;
#pragma memcoro
  for (uint64_t i = 0; i < rel->num_tuples; i++) {
    uint64_t idx = HASH(rel->tuples[i].key, hashmask, skipbits);
    const bucket_t *b = ht->buckets + idx;
    do {
      for (uint32_t j = 0; j < b->count; j++) {
        if (rel->tuples[i].key == b->tuples[j].key) {
          matches++;
          sum += b->tuples[j].payload;
        }
      }
      b = b->next;
    } while (b);
  }
  *checksum = sum;
  return matches;
}

int main(int argc, char **argv) {
  uint64_t nr = argc > 1 ? strtoull(argv[1], 0, 10) : (1u << 24);
  uint64_t ns = 4 * nr;
  relation_t R = primary_keys(nr), S = {malloc(sizeof(tuple_t) * ns), ns};
  uint64_t expected = 0;
  for (uint64_t i = 0; i < ns; i++) {
    uint32_t key = (uint32_t)(next_rand() % nr) + 1;
    S.tuples[i] = (tuple_t){key, 0};
    expected += (uint64_t)((key - 1) * 7 + 3) & 0xffffffffu;
  }
  uint32_t nbuckets = 1;
  while (nbuckets < nr / BUCKET_SIZE) nbuckets <<= 1;
  hashtable_t ht = {calloc(nbuckets, sizeof(bucket_t)), nbuckets, nbuckets - 1, 0};
  bucket_t *overflow = calloc(nr, sizeof(bucket_t));
  build_hashtable(&ht, &R, overflow);

  struct timespec t0, t1;
  uint64_t checksum;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int64_t matches = probe_hashtable(&ht, &S, &checksum);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  int ok = matches == (int64_t)ns && checksum == expected;
  printf("kernel_seconds %.6f\n", seconds);
  printf("matches %lld of %llu, checksum %s\n", (long long)matches, (unsigned long long)ns,
         checksum == expected ? "ok" : "wrong");
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
