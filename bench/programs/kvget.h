// kvget.h: the item and the hash-table interface that kvget.c (the GET batch)
// and kvget_assoc.c (the table, in its own translation unit as memcached's
// assoc.c is) share: an item header with its hash-chain link, key and value
// stored after it, and the hash memcached offers besides murmur3.
#ifndef MEMCORO_PROGRAMS_KVGET_H
#define MEMCORO_PROGRAMS_KVGET_H
#include <stddef.h>
#include <stdint.h>

typedef unsigned int rel_time_t;

typedef struct _stritem {
  struct _stritem *next;   // LRU links, unused by GET
  struct _stritem *prev;
  struct _stritem *h_next; // hash chain
  rel_time_t time;
  rel_time_t exptime;
  int nbytes;              // value length, its "\r\n" included
  unsigned short refcount;
  uint16_t it_flags;
  uint8_t slabs_clsid;
  uint8_t nkey;
  char data[];             // key, a NUL, then the value
} item;

#define ITEM_key(item) ((char *)(item)->data)
#define ITEM_data(item) ((char *)(item)->data + (item)->nkey + 1)

uint32_t hash(const void *key, size_t length);
void assoc_init(int hashpower_init);
int assoc_insert(item *it, uint32_t hv);
item *assoc_find(const char *key, const size_t nkey, const uint32_t hv);

#endif
