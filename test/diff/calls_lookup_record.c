// calls_lookup_record: a memcached-style GET, the lookup in another translation unit returning the item it found, which the loop then reads (issue 17, item 7b).
// also: tu/calls_lookup_record_table.c
#include "common.h"

struct item {
  struct item *h_next;
  int nbytes;
  uint8_t clsid, nkey;
  char data[24];
};
uint32_t key_hash(const char *key, size_t nkey);
struct item *find_item(const char *key, size_t nkey, uint32_t hv);
void insert_item(struct item *it, uint32_t hv);

struct stats {
  uint64_t cmds, misses, bytes;
  uint64_t hits[8];
};

// The loop has far accesses of its own (the item's fields, the stats
// slot they index): the lookup is resumed as a nested coroutine too.
__attribute__((noinline)) void get_batch(char *const *keys, const size_t *nkeys, int n, struct item **resp,
                                         struct stats *st) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    uint32_t hv = key_hash(keys[i], nkeys[i]);
    struct item *it = find_item(keys[i], nkeys[i], hv);
    st->cmds++;
    if (it) {
      st->hits[it->clsid]++;
      st->bytes += it->nbytes;
      resp[i] = it;
    } else {
      st->misses++;
      resp[i] = NULL;
    }
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { ITEMS = 1 << 11 };
  struct item *pool = diff_alloc(sizeof *pool * ITEMS);
  for (int k = 0; k < ITEMS; ++k) {
    struct item *it = &pool[(k * 1021) % ITEMS];
    it->nkey = (uint8_t)snprintf(it->data, sizeof it->data, "k%d", k * 3);
    it->nbytes = (int)(diff_rand() % 100);
    it->clsid = (uint8_t)(diff_rand() % 8);
    insert_item(it, key_hash(it->data, it->nkey));
  }
  char **keys = diff_alloc(sizeof *keys * (n + 1));
  size_t *nkeys = diff_alloc(sizeof *nkeys * (n + 1));
  for (int i = 0; i < n; ++i) {
    keys[i] = diff_alloc(16);
    nkeys[i] = (size_t)snprintf(keys[i], 16, "k%d", (int)(diff_rand() % (4 * ITEMS)));
  }
  struct item **resp = diff_alloc(sizeof *resp * (n + 1));
  struct stats st = {0};
  get_batch(keys, nkeys, n, resp, &st);
  uint64_t h = 0;
  for (int i = 0; i < n; ++i)
    h = h * 31 + (resp[i] ? (uint64_t)(resp[i] - pool) + 1 : 0);
  printf("%llx %llu %llu %llu", (unsigned long long)h, (unsigned long long)st.cmds, (unsigned long long)st.misses,
         (unsigned long long)st.bytes);
  for (int c = 0; c < 8; ++c)
    printf(" %llu", (unsigned long long)st.hits[c]);
  printf("\n");
  return 0;
}
