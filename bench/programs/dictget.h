// dictget.h: the dictionary interface that dictget.c (the MGET batch) and
// dictget_dict.c (the dictionary, in its own translation unit as Redis's
// dict.c is) share: chained entries with a union value, two tables so that
// a resize rehashes incrementally, a type with the hash and key-compare
// callbacks, and length-prefixed string keys (a small sds).
#ifndef MEMCORO_PROGRAMS_DICTGET_H
#define MEMCORO_PROGRAMS_DICTGET_H
#include <stddef.h>
#include <stdint.h>

typedef char *sds;

struct __attribute__((__packed__)) sdshdr8 {
  uint8_t len;
  uint8_t alloc;
  unsigned char flags;
  char buf[];
};

static inline size_t sdslen(const sds s) { return ((const struct sdshdr8 *)(s - sizeof(struct sdshdr8)))->len; }
sds sdsnewlen(const void *init, size_t initlen);

typedef struct dictEntry {
  void *key;
  union {
    void *val;
    uint64_t u64;
    int64_t s64;
    double d;
  } v;
  struct dictEntry *next;
} dictEntry;

typedef struct dict dict;

typedef struct dictType {
  uint64_t (*hashFunction)(const void *key);
  int (*keyCompare)(dict *d, const void *key1, const void *key2);
} dictType;

struct dict {
  dictType *type;
  dictEntry **ht_table[2];
  unsigned long ht_used[2];
  long rehashidx; // -1 when not rehashing
  int16_t pauserehash;
  signed char ht_size_exp[2];
};

#define DICTHT_SIZE(exp) ((exp) == -1 ? 0 : (unsigned long)1 << (exp))
#define DICTHT_SIZE_MASK(exp) ((exp) == -1 ? 0 : (DICTHT_SIZE(exp)) - 1)
#define dictIsRehashing(d) ((d)->rehashidx != -1)
#define dictPauseRehashing(d) ((d)->pauserehash++)
#define dictResumeRehashing(d) ((d)->pauserehash--)
#define dictSize(d) ((d)->ht_used[0] + (d)->ht_used[1])

uint64_t dictGenHashFunction(const void *key, size_t len);
dict *dictCreate(dictType *type);
int dictExpand(dict *d, unsigned long size);
int dictRehash(dict *d, int n);
int dictAdd(dict *d, void *key, uint64_t val);
dictEntry *dictFind(dict *d, const void *key);

#endif
