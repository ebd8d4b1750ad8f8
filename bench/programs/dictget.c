// dictget: a Redis-style MGET, written the way Redis's server writes it: the
// command's keys arrive as string objects, each is looked up with
// lookupKeyRead, which calls dictFind (in another translation unit,
// dictget_dict.c, as Redis's dict.c is) on the database's dictionary, here
// caught in the middle of an incremental rehash (both tables searched, the
// rehash step paused as a safe iterator pauses it), and each value, a string
// object with its sds embedded, is added to the client's reply as a bulk
// string ("$<len>\r\n<bytes>\r\n") or a null bulk ("$-1\r\n") when the key is
// absent; a full reply buffer is written out to the connection. Keys are
// compared through the dictionary type's callbacks. Verified byte for byte
// against the reply built directly from the key numbers, without the
// dictionary. One pragma line marks the MGET loop; nothing else is edited.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dictget.h"

#define OBJ_STRING 0
#define OBJ_ENCODING_EMBSTR 8
#define PROTO_REPLY_CHUNK_BYTES (16 * 1024)

typedef struct redisObject {
  unsigned type : 4;
  unsigned encoding : 4;
  unsigned lru : 24;
  int refcount;
  void *ptr;
} robj;

typedef struct redisDb {
  dict *dict;
  int id;
} redisDb;

typedef struct client {
  redisDb *db;
  int argc;
  robj **argv;
  size_t bufpos;
  char buf[PROTO_REPLY_CHUNK_BYTES];
  char *conn; // what was written to the connection
  size_t connlen;
} client;

static uint64_t dictSdsHash(const void *key) { return dictGenHashFunction(key, sdslen((sds)key)); }

static int dictSdsKeyCompare(dict *d, const void *key1, const void *key2) {
  (void)d;
  size_t l1 = sdslen((sds)key1), l2 = sdslen((sds)key2);
  if (l1 != l2)
    return 0;
  return memcmp(key1, key2, l1) == 0;
}

static dictType dbDictType = {dictSdsHash, dictSdsKeyCompare};

// An embedded string object: the header, then the sds in the same allocation.
static robj *createEmbeddedStringObject(const char *ptr, size_t len) {
  robj *o = malloc(sizeof(robj) + sizeof(struct sdshdr8) + len + 1);
  struct sdshdr8 *sh = (void *)(o + 1);
  o->type = OBJ_STRING;
  o->encoding = OBJ_ENCODING_EMBSTR;
  o->lru = 0;
  o->refcount = 1;
  o->ptr = sh + 1;
  sh->len = (uint8_t)len;
  sh->alloc = (uint8_t)len;
  sh->flags = 1;
  memcpy(sh->buf, ptr, len);
  sh->buf[len] = '\0';
  return o;
}

static robj *lookupKeyRead(redisDb *db, robj *key) {
  dictEntry *de = dictFind(db->dict, key->ptr);
  return de ? de->v.val : NULL;
}

static void connWrite(client *c) {
  memcpy(c->conn + c->connlen, c->buf, c->bufpos);
  c->connlen += c->bufpos;
  c->bufpos = 0;
}

static void _addReplyToBuffer(client *c, const char *s, size_t len) {
  if (len > sizeof(c->buf) - c->bufpos)
    connWrite(c);
  memcpy(c->buf + c->bufpos, s, len);
  c->bufpos += len;
}

static void addReplyNull(client *c) { _addReplyToBuffer(c, "$-1\r\n", 5); }

static void addReplyBulk(client *c, robj *obj) {
  char hdr[32];
  size_t len = sdslen(obj->ptr);
  int n = 0;
  hdr[n++] = '$';
  char digits[20];
  int nd = 0;
  do {
    digits[nd++] = '0' + len % 10;
    len /= 10;
  } while (len);
  while (nd)
    hdr[n++] = digits[--nd];
  hdr[n++] = '\r';
  hdr[n++] = '\n';
  _addReplyToBuffer(c, hdr, n);
  _addReplyToBuffer(c, obj->ptr, sdslen(obj->ptr));
  _addReplyToBuffer(c, "\r\n", 2);
}

static void mgetCommand(client *c) {
#pragma memcoro
  for (int j = 1; j < c->argc; j++) {
    robj *o = lookupKeyRead(c->db, c->argv[j]);
    if (o == NULL) {
      addReplyNull(c);
    } else {
      if (o->type != OBJ_STRING) {
        addReplyNull(c);
      } else {
        addReplyBulk(c, o);
      }
    }
  }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int make_key(char *buf, uint64_t id) { return sprintf(buf, "user:%llu", (unsigned long long)id); }
static int make_value(char *buf, uint64_t id) {
  return sprintf(buf, "v%llx", (unsigned long long)(id * 0x9E3779B97F4A7C15ull >> (id % 40)));
}

int main(int argc, char **argv) {
  uint64_t nkeys = argc > 1 ? strtoull(argv[1], 0, 10) : 1048576;
  uint64_t ncommands = argc > 2 ? strtoull(argv[2], 0, 10) : 8000;
  int keys_per_mget = argc > 3 ? atoi(argv[3]) : 100;

  // Keys in random order into a dictionary sized for them, then grown: the
  // second table allocated and a third of the buckets moved.
  redisDb db = {dictCreate(&dbDictType), 0};
  dictExpand(db.dict, nkeys);
  uint64_t *order = malloc(nkeys * sizeof(*order));
  for (uint64_t i = 0; i < nkeys; i++)
    order[i] = i;
  for (uint64_t i = nkeys - 1; i > 0; i--) {
    uint64_t k = next_rand() % (i + 1), t = order[i];
    order[i] = order[k];
    order[k] = t;
  }
  char buf[64];
  for (uint64_t i = 0; i < nkeys; i++) {
    int n = make_key(buf, order[i]);
    sds key = sdsnewlen(buf, n);
    n = make_value(buf, order[i]);
    dictAdd(db.dict, key, 0);
    dictFind(db.dict, key)->v.val = createEmbeddedStringObject(buf, n);
  }
  free(order);
  dictExpand(db.dict, 2 * DICTHT_SIZE(db.dict->ht_size_exp[0]));
  dictRehash(db.dict, (int)(DICTHT_SIZE(db.dict->ht_size_exp[0]) / 3));
  int rehashing = dictIsRehashing(db.dict);

  // The commands: keys drawn from twice the stored range, half of them absent.
  uint64_t nargs = ncommands * keys_per_mget;
  uint64_t *ids = malloc(nargs * sizeof(*ids));
  robj **args = malloc(nargs * sizeof(*args));
  robj **argvs = malloc(ncommands * (keys_per_mget + 1) * sizeof(*argvs));
  robj *mget = createEmbeddedStringObject("MGET", 4);
  for (uint64_t k = 0; k < nargs; k++) {
    ids[k] = next_rand() % (2 * nkeys);
    int n = make_key(buf, ids[k]);
    args[k] = malloc(sizeof(robj));
    args[k]->type = OBJ_STRING;
    args[k]->ptr = sdsnewlen(buf, n);
  }
  client *c = calloc(1, sizeof(client));
  c->db = &db;
  c->conn = malloc(nargs * 64 + 1);

  dictPauseRehashing(db.dict);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t r = 0; r < ncommands; r++) {
    robj **cargv = argvs + r * (keys_per_mget + 1);
    cargv[0] = mget;
    memcpy(cargv + 1, args + r * keys_per_mget, keys_per_mget * sizeof(robj *));
    c->argv = cargv;
    c->argc = keys_per_mget + 1;
    mgetCommand(c);
  }
  connWrite(c);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  dictResumeRehashing(db.dict);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // The expected reply, from the key numbers alone.
  char *expect = malloc(nargs * 64 + 1);
  size_t elen = 0;
  uint64_t hits = 0;
  for (uint64_t k = 0; k < nargs; k++) {
    if (ids[k] >= nkeys) {
      memcpy(expect + elen, "$-1\r\n", 5);
      elen += 5;
      continue;
    }
    int n = make_value(buf, ids[k]);
    elen += sprintf(expect + elen, "$%d\r\n%s\r\n", n, buf);
    hits++;
  }
  int ok = rehashing && c->connlen == elen && memcmp(c->conn, expect, elen) == 0;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu keys, %llu keys requested, %llu hits, %zu reply bytes\n", (unsigned long long)nkeys,
         (unsigned long long)nargs, (unsigned long long)hits, c->connlen);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
