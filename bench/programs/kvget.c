// kvget: a memcached-style multi-key GET, written the way memcached's worker
// writes it: the request's keys arrive as tokens, each key is hashed, looked
// up with assoc_find (in another translation unit, kvget_assoc.c, as in
// memcached), and a hit is counted in the thread's stats and its item queued
// for the response. The table holds items in slab chunks, linked into
// chains in random order; half of the requested keys are absent. Verified
// against the keys themselves: a key is found exactly when it was stored,
// and the item found holds that key and its value.
// One pragma line marks the GET loop; nothing else is edited.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kvget.h"

#define KEY_MAX_LENGTH 250
#define CHUNK_SIZE 96

typedef struct token_s {
  char *value;
  size_t length;
} token_t;

struct slab_stats {
  uint64_t get_hits;
};

struct thread_stats {
  uint64_t get_cmds;
  uint64_t get_misses;
  uint64_t bytes_read;
  struct slab_stats slab_stats[64];
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int make_key(char *buf, uint64_t id) { return sprintf(buf, "key:%llu", (unsigned long long)id); }
static int make_value(char *buf, uint64_t id) {
  return sprintf(buf, "value-%016llx\r\n", (unsigned long long)(id * 0x9E3779B97F4A7C15ull));
}

// One GET command's keys: each hit's item goes to the response, in order.
static void process_get_command(token_t *tokens, size_t ntokens, item **resp, struct thread_stats *stats) {
#pragma memcoro
  for (size_t i = 0; i < ntokens; i++) {
    char *key = tokens[i].value;
    size_t nkey = tokens[i].length;
    uint32_t hv = hash(key, nkey);
    item *it = assoc_find(key, nkey, hv);
    stats->get_cmds++;
    if (it) {
      stats->slab_stats[it->slabs_clsid].get_hits++;
      stats->bytes_read += it->nbytes;
      resp[i] = it;
    } else {
      stats->get_misses++;
      resp[i] = NULL;
    }
  }
}

int main(int argc, char **argv) {
  uint64_t nitems = argc > 1 ? strtoull(argv[1], 0, 10) : 4194304;
  uint64_t nrequests = argc > 2 ? strtoull(argv[2], 0, 10) : 20000;
  size_t keys_per_get = argc > 3 ? strtoull(argv[3], 0, 10) : 100;

  // Items in slab chunks, inserted in random order so that chains jump.
  int hashpower = 16;
  while (((uint64_t)1 << hashpower) < nitems)
    hashpower++;
  assoc_init(hashpower);
  char *slab = malloc(nitems * CHUNK_SIZE);
  uint64_t *order = malloc(nitems * sizeof(*order));
  for (uint64_t i = 0; i < nitems; i++)
    order[i] = i;
  for (uint64_t i = nitems - 1; i > 0; i--) {
    uint64_t j = next_rand() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (uint64_t c = 0; c < nitems; c++) {
    uint64_t id = order[c];
    item *it = (item *)(slab + c * CHUNK_SIZE);
    memset(it, 0, sizeof(*it));
    it->nkey = (uint8_t)make_key(ITEM_key(it), id);
    it->nbytes = make_value(ITEM_data(it), id);
    it->slabs_clsid = 5;
    assoc_insert(it, hash(ITEM_key(it), it->nkey));
  }
  free(order);

  // The requests: keys drawn from twice the stored range, half of them misses.
  uint64_t nkeys = nrequests * keys_per_get;
  char *keybuf = malloc(nkeys * 24);
  token_t *tokens = malloc(nkeys * sizeof(*tokens));
  uint64_t *ids = malloc(nkeys * sizeof(*ids));
  for (uint64_t k = 0; k < nkeys; k++) {
    ids[k] = next_rand() % (2 * nitems);
    tokens[k].value = keybuf + k * 24;
    tokens[k].length = make_key(tokens[k].value, ids[k]);
  }
  item **resp = malloc(nkeys * sizeof(*resp));
  struct thread_stats stats;
  memset(&stats, 0, sizeof(stats));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t r = 0; r < nrequests; r++)
    process_get_command(&tokens[r * keys_per_get], keys_per_get, &resp[r * keys_per_get], &stats);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  int ok = stats.get_cmds == nkeys;
  uint64_t hits = 0, bytes = 0;
  char expect[64];
  for (uint64_t k = 0; k < nkeys && ok; k++) {
    item *it = resp[k];
    if (ids[k] >= nitems) {
      ok = it == NULL;
      continue;
    }
    int nvalue = make_value(expect, ids[k]);
    ok = it && it->nkey == tokens[k].length && memcmp(ITEM_key(it), tokens[k].value, it->nkey) == 0 &&
         it->nbytes == nvalue && memcmp(ITEM_data(it), expect, nvalue) == 0;
    hits++;
    bytes += nvalue;
  }
  ok = ok && stats.slab_stats[5].get_hits == hits && stats.get_misses == nkeys - hits && stats.bytes_read == bytes;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu items, %llu keys requested, %llu hits\n", (unsigned long long)nitems, (unsigned long long)nkeys,
         (unsigned long long)hits);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
