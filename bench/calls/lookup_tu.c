// The other translation unit of lookup.c: the same chained-hash probe as
// lookup.c's own, compiled apart, so that the loop in lookup.c sees only a
// declaration.
#include "lookup.h"

int64_t probe_elsewhere(struct entry *const *heads, uint64_t mask, uint64_t key) {
  for (const struct entry *e = heads[hash_of(key) & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}
