// Shared by lookup.c and lookup_tu.c: a chained hash table's entry and hash.
#include <stdint.h>

struct entry {
  uint64_t key;
  int64_t value;
  struct entry *next;
};

static inline uint64_t hash_of(uint64_t key) { return key * 0x9E3779B97F4A7C15ull >> 13; }

int64_t probe_elsewhere(struct entry *const *heads, uint64_t mask, uint64_t key);
