// bucket_probe: a no-partitioning hash join's probe over 32-byte buckets of two tuples each, chained
// when full; the bucket's count, its tuples and its next pointer share one suspension.
#include "common.h"
typedef struct { uint32_t key, payload; } tuple_t;
typedef struct bucket_t {
  volatile char latch;
  uint32_t count;
  tuple_t tuples[2];
  struct bucket_t *next;
} bucket_t;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 1 << 10, BUILD = 3000 };
  bucket_t *buckets = diff_alloc(sizeof *buckets * BUCKETS);
  bucket_t *overflow = diff_alloc(sizeof *overflow * BUILD);
  int used = 0;
  for (int i = 0; i < BUILD; ++i) {
    uint32_t key = diff_rand() % 5000;
    bucket_t *b = &buckets[key & (BUCKETS - 1)];
    while (b->count == 2 && b->next)
      b = b->next;
    if (b->count == 2)
      b = b->next = &overflow[used++];
    b->tuples[b->count++] = (tuple_t){key, (uint32_t)i};
  }
  tuple_t *rel = diff_alloc(sizeof *rel * (n + 1));
  for (int i = 0; i < n; ++i) rel[i].key = diff_rand() % 5000;
  int64_t matches = 0;
  uint32_t payloads = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    const bucket_t *b = buckets + (rel[i].key & (BUCKETS - 1));
    do {
      for (uint32_t j = 0; j < b->count; j++)
        if (rel[i].key == b->tuples[j].key) {
          matches++;
          payloads ^= b->tuples[j].payload;
        }
      b = b->next;
    } while (b);
  }
  printf("%lld %x\n", (long long)matches, payloads);
  return 0;
}
