// Tests that on the ring an ordered region behind a lock (an inline-asm
// test-and-set latch, a compare-and-swap spin lock) takes its turn before the
// lock, and says so (issue 17, item 11; test/diff/ordered_under_lock.c runs it).
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -mllvm -memcoro-dispatch=ring -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
struct bucket { volatile char latch; int lock; uint64_t h; };

static inline void latch_take(volatile char *l) {
  char old;
  do
    __asm__ __volatile__("xchgb %0,%1" : "=q"(old), "=m"(*l) : "0"((unsigned char)0xff), "m"(*l) : "memory");
  while (old);
}

void latched(struct bucket *b, const uint64_t *table, const uint32_t *idx, uint32_t *log, int n) {
  uint32_t logged = 0;
#pragma memcoro parallel(8) remote(table)
  for (int i = 0; i < n; ++i) {
    uint64_t v = table[idx[i]];
    struct bucket *bk = &b[v % 16];
    latch_take(&bk->latch);
#pragma memcoro ordered
    { bk->h = bk->h * 31 + v; log[logged++] = (uint32_t)i; }
    bk->latch = 0;
  }
}
// CHECK: split-ordered-under-lock.c:22:17: remark: ordered region runs in iteration order (ring dispatch: a lock may be held here, so an iteration waits for its turn before it takes the lock)

void cas_locked(struct bucket *b, const uint64_t *table, const uint32_t *idx, uint64_t *h, int n) {
#pragma memcoro parallel(8) remote(table)
  for (int i = 0; i < n; ++i) {
    uint64_t v = table[idx[i]];
    struct bucket *bk = &b[v % 16];
    while (!__sync_bool_compare_and_swap(&bk->lock, 0, 1))
      ;
#pragma memcoro ordered
    { h[v % 16] = h[v % 16] * 31 + v; }
    __sync_lock_release(&bk->lock);
  }
}
// CHECK: split-ordered-under-lock.c:36:17: remark: ordered region runs in iteration order (ring dispatch: a lock may be held here, so an iteration waits for its turn before it takes the lock)
