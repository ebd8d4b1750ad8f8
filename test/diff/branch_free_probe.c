// branch_free_probe: hash probes whose match test is made branch-free (split/SpeculativeSelect.cpp): hits and
// misses, empty, short and long chains; and one whose payload lies past the fields read anyway (left a branch).
#include "common.h"
#define NIL 0xffffffffu
typedef struct { uint64_t key, payload; uint32_t next, pad[3]; } entry_t;
typedef struct { uint64_t key; uint32_t next, pad; uint64_t payload; } tail_entry_t;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 1 << 10, ENTRIES = 1500 };
  uint32_t *heads = diff_alloc(sizeof *heads * BUCKETS), *tails = diff_alloc(sizeof *tails * BUCKETS);
  // Exactly ENTRIES entries: the last one ends where the allocation does.
  entry_t *entries = diff_alloc(sizeof *entries * ENTRIES);
  tail_entry_t *tail_entries = diff_alloc(sizeof *tail_entries * ENTRIES);
  for (int b = 0; b < BUCKETS; ++b)
    heads[b] = tails[b] = NIL;
  // Keys cluster in the low buckets (long chains) and leave most buckets empty.
  for (uint32_t i = 0; i < ENTRIES; ++i) {
    uint64_t key = diff_rand() % 3000;
    uint32_t b = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 54) & (BUCKETS / 4 - 1);
    entries[i] = (entry_t){key, diff_rand(), heads[b], {0, 0, 0}};
    heads[b] = i;
    tail_entries[i] = (tail_entry_t){key, tails[b], 0, diff_rand()};
    tails[b] = i;
  }
  uint64_t *probe = diff_alloc(sizeof *probe * (n + 1));
  for (int i = 0; i < n; ++i)
    probe[i] = diff_rand() % 6000; // about half miss
  uint64_t matches = 0, sum = 0, tail_sum = 0;
#pragma memcoro parallel(N) remote(entries, tail_entries)
  for (int i = 0; i < n; ++i) {
    uint64_t k = probe[i];
    uint32_t b = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 54) & (BUCKETS / 4 - 1);
    for (uint32_t e = heads[b]; e != NIL; e = entries[e].next)
      if (entries[e].key == k) {
        ++matches;
        sum += entries[e].payload * 3;
      }
    for (uint32_t e = tails[b]; e != NIL; e = tail_entries[e].next)
      if (tail_entries[e].key == k)
        tail_sum ^= tail_entries[e].payload;
  }
  printf("%llu %llx %llx\n", (unsigned long long)matches, (unsigned long long)sum, (unsigned long long)tail_sum);
  return 0;
}
