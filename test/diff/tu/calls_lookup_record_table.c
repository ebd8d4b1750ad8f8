// The other translation unit of calls_lookup_record.c: a chained table of
// items found by key bytes, as memcached's assoc.c, and a hash over the key
// bytes (a stream over the caller's buffer: no resumable clone).
#include <stdint.h>
#include <string.h>

struct item {
  struct item *h_next;
  int nbytes;
  uint8_t clsid, nkey;
  char data[24];
};

static struct item *table[1 << 10];

uint32_t key_hash(const char *key, size_t nkey) {
  uint32_t h = 0;
  for (size_t i = 0; i < nkey; i++) {
    h += (unsigned char)key[i];
    h += h << 10;
    h ^= h >> 6;
  }
  return h;
}

struct item *find_item(const char *key, size_t nkey, uint32_t hv) {
  for (struct item *it = table[hv & ((1 << 10) - 1)]; it; it = it->h_next)
    if (it->nkey == nkey && memcmp(key, it->data, nkey) == 0)
      return it;
  return NULL;
}

void insert_item(struct item *it, uint32_t hv) {
  it->h_next = table[hv & ((1 << 10) - 1)];
  table[hv & ((1 << 10) - 1)] = it;
}
