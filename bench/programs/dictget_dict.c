// dictget_dict: the dictionary of dictget, in its own translation unit as
// Redis's dict.c is: power-of-two tables of chain heads, new entries at the
// head of their chain, a resize that allocates the second table and moves
// buckets to it a few at a time (each operation does a step of it unless
// rehashing is paused), and a find that looks in both tables while a rehash
// is under way. Built with memcoro like the rest of the program.
#include <stdlib.h>
#include <string.h>

#include "dictget.h"

sds sdsnewlen(const void *init, size_t initlen) {
  struct sdshdr8 *sh = malloc(sizeof(struct sdshdr8) + initlen + 1);
  sh->len = (uint8_t)initlen;
  sh->alloc = (uint8_t)initlen;
  sh->flags = 1; // SDS_TYPE_8
  memcpy(sh->buf, init, initlen);
  sh->buf[initlen] = '\0';
  return sh->buf;
}

// FNV-1a over the bytes, then a final avalanche (Redis uses SipHash here).
uint64_t dictGenHashFunction(const void *key, size_t len) {
  const unsigned char *p = key;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

#define dictHashKey(d, key) ((d)->type->hashFunction(key))
#define dictCompareKeys(d, key1, key2) \
  (((d)->type->keyCompare) ? (d)->type->keyCompare((d), key1, key2) : (key1) == (key2))

static void _dictReset(dict *d, int htidx) {
  d->ht_table[htidx] = NULL;
  d->ht_size_exp[htidx] = -1;
  d->ht_used[htidx] = 0;
}

dict *dictCreate(dictType *type) {
  dict *d = malloc(sizeof(*d));
  _dictReset(d, 0);
  _dictReset(d, 1);
  d->type = type;
  d->rehashidx = -1;
  d->pauserehash = 0;
  return d;
}

static signed char _dictNextExp(unsigned long size) {
  signed char e = 2;
  while (((unsigned long)1 << e) < size)
    e++;
  return e;
}

int dictExpand(dict *d, unsigned long size) {
  if (dictIsRehashing(d) || d->ht_used[0] > size)
    return 1;
  signed char new_exp = _dictNextExp(size);
  dictEntry **new_ht_table = calloc(DICTHT_SIZE(new_exp), sizeof(dictEntry *));
  if (d->ht_table[0] == NULL) {
    d->ht_size_exp[0] = new_exp;
    d->ht_table[0] = new_ht_table;
    return 0;
  }
  d->ht_size_exp[1] = new_exp;
  d->ht_used[1] = 0;
  d->ht_table[1] = new_ht_table;
  d->rehashidx = 0;
  return 0;
}

// Moves n non-empty buckets (visiting at most 10 n empty ones) from the first
// table to the second; returns 1 while buckets are left to move.
int dictRehash(dict *d, int n) {
  int empty_visits = n * 10;
  if (!dictIsRehashing(d))
    return 0;
  while (n-- && d->ht_used[0] != 0) {
    while (d->ht_table[0][d->rehashidx] == NULL) {
      d->rehashidx++;
      if (--empty_visits == 0)
        return 1;
    }
    dictEntry *de = d->ht_table[0][d->rehashidx];
    while (de) {
      dictEntry *nextde = de->next;
      uint64_t h = dictHashKey(d, de->key) & DICTHT_SIZE_MASK(d->ht_size_exp[1]);
      de->next = d->ht_table[1][h];
      d->ht_table[1][h] = de;
      d->ht_used[0]--;
      d->ht_used[1]++;
      de = nextde;
    }
    d->ht_table[0][d->rehashidx] = NULL;
    d->rehashidx++;
  }
  if (d->ht_used[0] == 0) {
    free(d->ht_table[0]);
    d->ht_table[0] = d->ht_table[1];
    d->ht_used[0] = d->ht_used[1];
    d->ht_size_exp[0] = d->ht_size_exp[1];
    _dictReset(d, 1);
    d->rehashidx = -1;
    return 0;
  }
  return 1;
}

static void _dictRehashStep(dict *d) {
  if (d->pauserehash == 0)
    dictRehash(d, 1);
}

int dictAdd(dict *d, void *key, uint64_t val) {
  if (dictIsRehashing(d))
    _dictRehashStep(d);
  if (!dictIsRehashing(d) && d->ht_used[0] >= DICTHT_SIZE(d->ht_size_exp[0]))
    dictExpand(d, d->ht_used[0] + 1);
  uint64_t h = dictHashKey(d, key);
  for (int table = 0; table <= 1; table++) {
    for (dictEntry *he = d->ht_table[table][h & DICTHT_SIZE_MASK(d->ht_size_exp[table])]; he; he = he->next)
      if (key == he->key || dictCompareKeys(d, key, he->key))
        return 1;
    if (!dictIsRehashing(d))
      break;
  }
  int htidx = dictIsRehashing(d) ? 1 : 0;
  dictEntry *entry = malloc(sizeof(*entry));
  uint64_t idx = h & DICTHT_SIZE_MASK(d->ht_size_exp[htidx]);
  entry->next = d->ht_table[htidx][idx];
  d->ht_table[htidx][idx] = entry;
  d->ht_used[htidx]++;
  entry->key = key;
  entry->v.u64 = val;
  return 0;
}

dictEntry *dictFind(dict *d, const void *key) {
  dictEntry *he;
  uint64_t h, idx, table;

  if (dictSize(d) == 0)
    return NULL;
  if (dictIsRehashing(d))
    _dictRehashStep(d);
  h = dictHashKey(d, key);
  for (table = 0; table <= 1; table++) {
    idx = h & DICTHT_SIZE_MASK(d->ht_size_exp[table]);
    he = d->ht_table[table][idx];
    while (he) {
      if (key == he->key || dictCompareKeys(d, key, he->key))
        return he;
      he = he->next;
    }
    if (!dictIsRehashing(d))
      return NULL;
  }
  return NULL;
}
