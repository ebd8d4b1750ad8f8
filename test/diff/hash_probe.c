// hash_probe: chained hash table probe counting and summing matches (hash join probe side).
#include "common.h"
struct entry { uint64_t key; uint64_t payload; struct entry *next; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 1 << 12, ENTRIES = 10000 };
  struct entry **buckets = diff_alloc(sizeof *buckets * BUCKETS);
  struct entry *entries = diff_alloc(sizeof *entries * ENTRIES);
  for (int i = 0; i < ENTRIES; ++i) {
    entries[i].key = diff_rand() % 20000;
    entries[i].payload = diff_rand();
    uint64_t b = (entries[i].key * 0x9E3779B97F4A7C15ull) >> 52;
    entries[i].next = buckets[b];
    buckets[b] = &entries[i];
  }
  uint64_t *probe = diff_alloc(sizeof *probe * (n + 1));
  for (int i = 0; i < n; ++i) probe[i] = diff_rand() % 20000;
  uint64_t matches = 0, checksum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint64_t k = probe[i];
    for (struct entry *e = buckets[(k * 0x9E3779B97F4A7C15ull) >> 52]; e; e = e->next)
      if (e->key == k) {
        ++matches;
        checksum ^= e->payload;
      }
  }
  printf("%llu %llx\n", (unsigned long long)matches, (unsigned long long)checksum);
  return 0;
}
