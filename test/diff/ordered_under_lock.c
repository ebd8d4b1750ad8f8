// ordered_under_lock: an ordered region taken with a bucket's lock held, the lock an inline-asm test-and-set spin latch (NPO's) in one loop and a compare-and-swap spin lock (GAP's compare_and_swap) in the other, after a walk of 0 to 3 far hops so that iterations overtake each other: an iteration takes its turn before the lock, so it never waits for the turn holding a lock an older iteration needs (issue 17, item 11).
#include "common.h"

enum { BUCKETS = 16 };
struct bucket {
  volatile char latch;
  int lock;
  uint64_t h;
  uint32_t count;
};

static inline void latch_take(volatile char *l) {
  char old;
  do
    __asm__ __volatile__("xchgb %0,%1" : "=q"(old), "=m"(*l) : "0"((unsigned char)0xff), "m"(*l) : "memory");
  while (old);
}
static inline void latch_release(volatile char *l) { *l = 0; }

static inline int compare_and_swap(int *x, int old_val, int new_val) {
  return __sync_bool_compare_and_swap(x, old_val, new_val);
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16 };
  uint64_t *table = diff_alloc(sizeof *table * TABLE);
  for (int i = 0; i < TABLE; ++i) table[i] = diff_rand();
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  struct bucket *b = diff_alloc(sizeof *b * BUCKETS);
  uint32_t *log = diff_alloc(sizeof *log * (n + 1));
  uint32_t logged = 0;
#pragma memcoro parallel(N) remote(table)
  for (int i = 0; i < n; ++i) {
    uint64_t v = table[idx[i]];
    for (unsigned hop = v & 3; hop; --hop)
      v = table[v % TABLE];
    struct bucket *bk = &b[v % BUCKETS];
    latch_take(&bk->latch);
#pragma memcoro ordered
    {
      bk->h = bk->h * 31 + (v >> 40);
      log[logged++] = (uint32_t)i;
    }
    latch_release(&bk->latch);
  }
  uint64_t *h2 = diff_alloc(sizeof *h2 * BUCKETS);
#pragma memcoro parallel(N) remote(table)
  for (int i = 0; i < n; ++i) {
    uint64_t v = table[idx[i] ^ 1];
    for (unsigned hop = v & 3; hop; --hop)
      v = table[v % TABLE];
    struct bucket *bk = &b[v % BUCKETS];
    while (!compare_and_swap(&bk->lock, 0, 1))
      ;
#pragma memcoro ordered
    {
      h2[v % BUCKETS] = h2[v % BUCKETS] * 31 + (v >> 40);
      bk->count++;
    }
    __sync_lock_release(&bk->lock);
  }
  uint64_t hs[BUCKETS];
  uint32_t counts[BUCKETS];
  for (int k = 0; k < BUCKETS; ++k) hs[k] = b[k].h, counts[k] = b[k].count;
  printf("%u %llx %llx %llx %llx\n", logged, (unsigned long long)diff_hash_i32((int32_t *)log, logged),
         (unsigned long long)diff_hash_u64(hs, BUCKETS), (unsigned long long)diff_hash_u64(h2, BUCKETS),
         (unsigned long long)diff_hash_i32((int32_t *)counts, BUCKETS));
  return 0;
}
