// hashbuild: the build phase of the no-partitioning hash join (NPO; its data
// structures in npo.h, shared with hashjoin.c), written
// the way its multi-threaded build is written: each tuple of R takes its
// bucket's latch (a test-and-set spin lock), appends itself to the bucket or
// to its overflow bucket, and takes a new overflow bucket from a buffer that
// is extended with malloc when it runs out, then releases the latch. R's keys
// are 1..|R| shuffled; the program checks itself by probing the table with
// every key of R and with keys outside it: each key of R is found exactly
// once with its own payload, and no other key is found.
// One pragma line marks the build loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "npo.h"

#define OVERFLOW_BUF_SIZE 1024
typedef struct bucket_buffer_t {
  struct bucket_buffer_t *next;
  uint32_t count;
  bucket_t buf[OVERFLOW_BUF_SIZE];
} bucket_buffer_t;

static inline int tas(volatile char *addr) {
  char oldval;
  __asm__ __volatile__("xchgb %0,%1" : "=q"(oldval), "=m"(*addr) : "0"((unsigned char)0xff), "m"(*addr) : "memory");
  return oldval;
}

static inline void lock(volatile char *l) {
  while (tas(l))
    __asm__ __volatile__("pause");
}

static inline void unlock(volatile char *l) { *l = 0; }

static inline void get_new_bucket(bucket_t **result, bucket_buffer_t **buf) {
  if ((*buf)->count < OVERFLOW_BUF_SIZE) {
    *result = (*buf)->buf + (*buf)->count;
    (*buf)->count++;
  } else {
    bucket_buffer_t *new_buf = (bucket_buffer_t *)malloc(sizeof(bucket_buffer_t));
    new_buf->count = 1;
    new_buf->next = *buf;
    *buf = new_buf;
    *result = new_buf->buf;
  }
}

static void build_hashtable_mt(hashtable_t *ht, relation_t *rel, bucket_buffer_t **overflowbuf) {
  const uint32_t hashmask = ht->hash_mask;
  const uint32_t skipbits = ht->skip_bits;
#pragma memcoro
  for (uint64_t i = 0; i < rel->num_tuples; i++) {
    tuple_t *dest;
    bucket_t *curr, *nxt;
    int32_t idx = HASH(rel->tuples[i].key, hashmask, skipbits);
    curr = ht->buckets + idx;
    lock(&curr->latch);
    nxt = curr->next;
    if (curr->count == BUCKET_SIZE) {
      if (!nxt || nxt->count == BUCKET_SIZE) {
        bucket_t *b;
        get_new_bucket(&b, overflowbuf);
        curr->next = b;
        b->next = nxt;
        b->count = 1;
        dest = b->tuples;
      } else {
        dest = nxt->tuples + nxt->count;
        nxt->count++;
      }
    } else {
      dest = curr->tuples + curr->count;
      curr->count++;
    }
    *dest = rel->tuples[i];
    unlock(&curr->latch);
  }
}

static uint32_t probe(const hashtable_t *ht, uint32_t key, uint32_t *payload) {
  uint32_t matches = 0;
  for (const bucket_t *b = ht->buckets + HASH(key, ht->hash_mask, ht->skip_bits); b; b = b->next)
    for (uint32_t j = 0; j < b->count; j++)
      if (b->tuples[j].key == key) {
        matches++;
        *payload = b->tuples[j].payload;
      }
  return matches;
}

int main(int argc, char **argv) {
  uint64_t nr = argc > 1 ? strtoull(argv[1], 0, 10) : (1u << 23);
  relation_t R = primary_keys(nr);
  // Half as many buckets as tuples of two: most buckets overflow once.
  uint32_t nbuckets = 1;
  while (nbuckets < nr / BUCKET_SIZE / 2) nbuckets <<= 1;
  hashtable_t ht = {calloc(nbuckets, sizeof(bucket_t)), nbuckets, nbuckets - 1, 0};
  bucket_buffer_t *overflow = calloc(1, sizeof(bucket_buffer_t));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  build_hashtable_mt(&ht, &R, &overflow);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  int ok = 1;
  for (uint64_t k = 1; k <= nr + 1000 && ok; k++) {
    uint32_t payload = 0, m = probe(&ht, (uint32_t)k, &payload);
    ok = k <= nr ? m == 1 && payload == (uint32_t)((k - 1) * 7 + 3) : m == 0;
  }
  for (uint32_t b = 0; b < nbuckets && ok; b++) ok = ht.buckets[b].latch == 0;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu tuples in %u buckets\n", (unsigned long long)nr, nbuckets);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
