// bump_allocator: a chained hash build as NPO's latched build writes it: each bucket taken with a test-and-set latch (inline asm, released by a volatile store), overflow buckets from a bump allocator (a block pointer the build's caller owns, so it lives in a register once inlined; a new block from malloc when one is full, on the rare path): the allocations run in iteration order, the turn taken before the latch, so every overflow bucket lands where the serial build puts it (issue 17, items 6 and 8). Keys go to distinct buckets, a quarter of them full.
#include "common.h"

enum { CAP = 2, BLOCK = 4 };
struct bucket {
  volatile char latch;
  uint32_t count;
  uint32_t keys[CAP];
  struct bucket *next;
};
struct block {
  struct block *next;
  uint32_t count;
  struct bucket buf[BLOCK];
};

static inline int tas(volatile char *addr) {
  char old;
  __asm__ __volatile__("xchgb %0,%1" : "=q"(old), "=m"(*addr) : "0"((unsigned char)0xff), "m"(*addr) : "memory");
  return old;
}
static inline void lock(volatile char *l) {
  while (tas(l))
    __asm__ __volatile__("pause");
}
static inline void unlock(volatile char *l) { *l = 0; }

static inline struct bucket *get_new_bucket(struct block **buf) {
  if ((*buf)->count < BLOCK)
    return (*buf)->buf + (*buf)->count++;
  struct block *fresh = (struct block *)malloc(sizeof(struct block));
  fresh->count = 1;
  fresh->next = *buf;
  *buf = fresh;
  return fresh->buf;
}

static void build(struct bucket *table, uint32_t mask, const uint32_t *keys, int n, struct block **overflow) {
#pragma memcoro parallel(N) remote(table)
  for (int i = 0; i < n; i++) {
    struct bucket *curr = table + ((keys[i] * 2654435761u) & mask);
    lock(&curr->latch);
    struct bucket *nxt = curr->next;
    if (curr->count == CAP) {
      if (!nxt || nxt->count == CAP) {
        struct bucket *b = get_new_bucket(overflow);
        curr->next = b;
        b->next = nxt;
        b->count = 1;
        b->keys[0] = keys[i];
      } else {
        nxt->keys[nxt->count++] = keys[i];
      }
    } else {
      curr->keys[curr->count++] = keys[i];
    }
    unlock(&curr->latch);
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 1 << 11 };
  if (n > BUCKETS)
    n = BUCKETS;
  // i -> i * odd is one-to-one modulo 2^11: one key per bucket.
  uint32_t *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int i = 0; i < n; ++i) keys[i] = (uint32_t)i;
  struct bucket *table = diff_alloc(sizeof *table * BUCKETS);
  for (int t = 0; t < BUCKETS; ++t)
    if (diff_rand() % 4 == 0)
      table[t] = (struct bucket){0, CAP, {(uint32_t)t, (uint32_t)~t}, 0};
  struct block *first = diff_alloc(sizeof *first);
  struct block *overflow = first;
  build(table, BUCKETS - 1, keys, n, &overflow);
  // Where each key landed: its bucket chain, and for overflow buckets their
  // place in the allocator's blocks.
  uint64_t h = 1469598103934665603ull, blocks = 0;
  for (struct block *b = overflow; b; b = b->next, ++blocks)
    for (uint32_t j = 0; j < b->count; ++j)
      for (uint32_t k = 0; k < b->buf[j].count; ++k) h = (h ^ (b->buf[j].keys[k] + 7919u * j)) * 1099511628211ull;
  for (int t = 0; t < BUCKETS; ++t)
    for (struct bucket *c = &table[t]; c; c = c->next)
      for (uint32_t k = 0; k < c->count; ++k) h = (h ^ c->keys[k]) * 1099511628211ull;
  printf("%llu %llx\n", (unsigned long long)blocks, (unsigned long long)h);
  return 0;
}
