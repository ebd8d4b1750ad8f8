// kvget_assoc: the hash table of kvget, in its own translation unit as
// memcached's assoc.c is: a power-of-two array of chain heads, items linked
// through h_next, found by comparing the length and then the key bytes.
// Built with memcoro like the rest of the program, so that the GET loop of
// kvget.c can resume assoc_find as a nested coroutine.
#include <stdlib.h>
#include <string.h>

#include "kvget.h"

#define hashsize(n) ((uint64_t)1 << (n))
#define hashmask(n) (hashsize(n) - 1)

static item **primary_hashtable;
static unsigned int hashpower;
static uint64_t hash_items;

// Bob Jenkins' one-at-a-time hash.
uint32_t hash(const void *key, size_t length) {
  const unsigned char *p = key;
  uint32_t h = 0;
  for (size_t i = 0; i < length; i++) {
    h += p[i];
    h += h << 10;
    h ^= h >> 6;
  }
  h += h << 3;
  h ^= h >> 11;
  h += h << 15;
  return h;
}

void assoc_init(int hashpower_init) {
  hashpower = hashpower_init;
  primary_hashtable = calloc(hashsize(hashpower), sizeof(void *));
}

item *assoc_find(const char *key, const size_t nkey, const uint32_t hv) {
  item *it = primary_hashtable[hv & hashmask(hashpower)];
  item *ret = NULL;
  while (it) {
    if ((nkey == it->nkey) && (memcmp(key, ITEM_key(it), nkey) == 0)) {
      ret = it;
      break;
    }
    it = it->h_next;
  }
  return ret;
}

int assoc_insert(item *it, uint32_t hv) {
  it->h_next = primary_hashtable[hv & hashmask(hashpower)];
  primary_hashtable[hv & hashmask(hashpower)] = it;
  hash_items++;
  return 1;
}
