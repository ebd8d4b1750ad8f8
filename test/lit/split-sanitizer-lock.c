// Under -fsanitize=undefined the check of a bucket's lock word comes before the lock, and jump threading copies the lock (an inline-asm test-and-set spin loop) onto the check's two paths: no copy dominates the other. The suspension for the bucket moves to where the paths part, before either copy takes the lock, and the build loop interleaves as without the sanitizer (split/CallsInPlace.cpp; issue 17, item 8: hashbuild).
// RUN: %memcoro-cc -O3 -fsanitize=undefined -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

struct bucket {
  volatile char latch;
  uint32_t count;
  uint64_t items[2];
  struct bucket *next;
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

void build(struct bucket *table, uint32_t mask, const uint64_t *keys, uint64_t n) {
#pragma memcoro
  for (uint64_t i = 0; i < n; i++) {
    struct bucket *b = table + (int32_t)(keys[i] & mask);
    lock(&b->latch);
    if (b->count < 2)
      b->items[b->count++] = keys[i];
    unlock(&b->latch);
  }
}
// CHECK-NOT: while the lock
// CHECK: split-sanitizer-lock.c:[[@LINE-9]]:3: remark: loop turned into
