// calls_rare_path: hash-table builds that lock each bucket (inline asm, a pthread mutex) and call calloc when it overflows (issue 17, item 8).
// check: conflicts (iterations that hash to one bucket share it, as in any parallel build; -fmemcoro-check reports them)
#include <pthread.h>
#include "common.h"

enum { CAP = 3 };
struct bucket {
  int64_t latch, count, keys[CAP];
  struct bucket *next;
};
struct mutex_bucket {
  pthread_mutex_t mutex; // all zero: PTHREAD_MUTEX_INITIALIZER
  int64_t count, keys[CAP];
  struct mutex_bucket *next;
};

static inline void lock(int64_t *l) {
  int64_t one = 1;
  do
    __asm__ volatile("xchgq %0, %1" : "+r"(one), "+m"(*l) : : "memory");
  while (one);
}
static inline void unlock(int64_t *l) { __asm__ volatile("movq $0, %0" : "=m"(*l) : : "memory"); }

static uint64_t bucket_index(int64_t key, uint64_t mask) {
  return ((uint64_t)key * 0x9E3779B97F4A7C15ull >> 20) & mask;
}

// Bucket contents depend on the order of the inserts: print what does not.
#define DIGEST(b, buckets)                                                        \
  ({                                                                              \
    uint64_t h = 0, total = 0;                                                    \
    for (uint64_t k = 0; k < (buckets); ++k) {                                    \
      uint64_t x = 0;                                                             \
      for (__typeof__(&(b)[0]) t = &(b)[k]; t; t = t->next)                       \
        for (int64_t j = 0; j < t->count; ++j, ++total)                           \
          x += (uint64_t)t->keys[j] * 0x2545F4914F6CDD1Dull;                      \
      h = (h ^ x) * 1099511628211ull;                                             \
    }                                                                             \
    h ^ total;                                                                    \
  })

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 1 << 8 };
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  struct bucket *spin = diff_alloc(sizeof *spin * BUCKETS);
  struct mutex_bucket *mutexed = diff_alloc(sizeof *mutexed * BUCKETS);
  for (int i = 0; i < n; ++i) keys[i] = (int64_t)(diff_rand() % 100000);

  // Iterations that hash to one bucket share it, as threads would: each
  // takes the bucket's lock (the iteration yields before it, never while
  // holding it), and calls calloc on the rare overflow.
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    struct bucket *t = &spin[bucket_index(keys[i], BUCKETS - 1)];
    lock(&t->latch);
    struct bucket *dest = t;
    if (t->count == CAP) {
      if (!t->next || t->next->count == CAP) {
        struct bucket *o = calloc(1, sizeof *o);
        o->next = t->next;
        t->next = o;
      }
      dest = t->next;
    }
    dest->keys[dest->count++] = keys[i];
    unlock(&t->latch);
  }

#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    struct mutex_bucket *t = &mutexed[bucket_index(keys[i], BUCKETS - 1)];
    pthread_mutex_lock(&t->mutex);
    struct mutex_bucket *dest = t;
    if (t->count == CAP) {
      if (!t->next || t->next->count == CAP) {
        struct mutex_bucket *o = calloc(1, sizeof *o);
        o->next = t->next;
        t->next = o;
      }
      dest = t->next;
    }
    dest->keys[dest->count++] = keys[i];
    pthread_mutex_unlock(&t->mutex);
  }
  printf("%llx %llx\n", (unsigned long long)DIGEST(spin, BUCKETS), (unsigned long long)DIGEST(mutexed, BUCKETS));
  return 0;
}
