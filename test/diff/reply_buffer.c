// reply_buffer: Redis's MGET as written, a client whose reply buffer position sits beside the database and the argument vector the lookup reads first; the replies are appended in iteration order, the flush in place (issue 17, item 11).
#include "common.h"

#include <string.h>

struct entry {
  uint64_t key;
  const char *value;
  struct entry *next;
};

typedef struct {
  struct entry **buckets;
  uint64_t mask;
} db_t;

#define REPLY_BYTES 48

typedef struct {
  db_t *db;
  int argc;
  uint64_t *argv;
  size_t bufpos;
  char buf[REPLY_BYTES];
  char *conn;
  size_t connlen;
} client;

static void conn_write(client *c) {
  memcpy(c->conn + c->connlen, c->buf, c->bufpos);
  c->connlen += c->bufpos;
  c->bufpos = 0;
}

static void add_reply(client *c, const char *s, size_t len) {
  if (len > sizeof(c->buf) - c->bufpos)
    conn_write(c);
  memcpy(c->buf + c->bufpos, s, len);
  c->bufpos += len;
}

static const char *lookup(db_t *db, uint64_t key) {
  for (struct entry *e = db->buckets[(key * 0x9E3779B97F4A7C15ull) & db->mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return NULL;
}

static void add_reply_bulk(client *c, const char *value) {
  char hdr[8];
  size_t len = strlen(value);
  int n = 0;
  hdr[n++] = '$';
  hdr[n++] = (char)('0' + len);
  hdr[n++] = '\r';
  hdr[n++] = '\n';
  add_reply(c, hdr, n);
  add_reply(c, value, len);
  add_reply(c, "\r\n", 2);
}

__attribute__((noinline)) static void mget(client *c) {
#pragma memcoro parallel(N)
  for (int j = 1; j < c->argc; j++) {
    const char *o = lookup(c->db, c->argv[j]);
    if (o == NULL)
      add_reply(c, "$-1\r\n", 5);
    else
      add_reply_bulk(c, o);
  }
}

int main(int argc, char **argv) {
  int trips = diff_trips(argc, argv);
  enum { KEYS = 64, BUCKETS = 16 };
  static const char *values[] = {"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg"};
  db_t db = {diff_alloc(BUCKETS * sizeof(struct entry *)), BUCKETS - 1};
  struct entry *entries = diff_alloc(KEYS * sizeof(struct entry));
  for (int k = 0; k < KEYS; k++) {
    uint64_t h = ((uint64_t)k * 0x9E3779B97F4A7C15ull) & db.mask;
    entries[k] = (struct entry){(uint64_t)k, values[k % 7], db.buckets[h]};
    db.buckets[h] = &entries[k];
  }
  client *c = diff_alloc(sizeof(client));
  c->db = &db;
  c->argc = trips + 1;
  c->argv = diff_alloc((trips + 1) * sizeof(uint64_t));
  for (int j = 1; j <= trips; j++)
    c->argv[j] = diff_rand() % (2 * KEYS); // half of them absent
  c->conn = diff_alloc(16 * (size_t)(trips + 1) + REPLY_BYTES);
  mget(c);
  conn_write(c);
  fwrite(c->conn, 1, c->connlen, stdout);
  printf("\n%zu bytes\n", c->connlen);
  return 0;
}
