// The other translation unit of calls_other_tu.c: a key hash, a record
// helper that writes through its pointer, and a probe of a chained table
// (each built with memcoro and -fno-memcoro like the program itself).
#include <stdint.h>

struct entry {
  int64_t key, value;
  struct entry *next;
};

uint64_t hash_key(int64_t key) { return (uint64_t)key * 0x9E3779B97F4A7C15ull >> 17; }

void record(int64_t *slot, int64_t value) { *slot = value * 2 + 1; }

int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key) {
  for (const struct entry *e = heads[hash_key(key) & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}
