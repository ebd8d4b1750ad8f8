// Tests that the value of the element an open-addressing or cuckoo probe
// found, `t[i].val` with i a choice of the indices whose keys the iteration
// compared (`i = t[h1].key == k ? h1 : h2`), needs no suspension: each
// element's key was read earlier in the iteration, in the same 16-byte
// granule. The second bucket, read only when the first misses, keeps its own
// suspension, and the loop stays on the ring rather than prefetching both
// buckets ahead for every iteration (split/OverlappedGathers.cpp).
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

typedef struct {
  uint64_t key, val;
} slot_t;

static inline uint64_t h1(uint64_t k) { return (k ^ (k >> 33)) * 0xff51afd7ed558ccdull; }
static inline uint64_t h2(uint64_t k) { return (k ^ (k >> 29)) * 0xc4ceb9fe1a85ec53ull; }

void cuckoo(const slot_t *t, uint64_t mask, const uint64_t *keys, uint64_t *out, int n) {
#pragma memcoro
  for (int i = 0; i < n; i++) {
    uint64_t k = keys[i];
    const slot_t *a = &t[h1(k) & mask], *b = &t[h2(k) & mask];
    out[i] = a->key == k ? a->val : b->key == k ? b->val : 0;
  }
}
// CHECK: split-index-choice.c:[[#@LINE-3]]:17: remark: suspension point: load prefetched
// CHECK: split-index-choice.c:[[#@LINE-4]]:40: remark: suspension point: load prefetched
// CHECK: remark: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): 2 suspension points, ring dispatch

// An element in another granule than the key read (a 64-byte record's
// payload at byte 48) may lie on a line the key's prefetch did not bring: it
// keeps its suspension (the two keys share one).
typedef struct {
  uint64_t key, pad[5], val, more;
} wide_t;

void cuckoo_wide(const wide_t *t, uint64_t mask, const uint64_t *keys, uint64_t *out, int n) {
#pragma memcoro
  for (int i = 0; i < n; i++) {
    uint64_t k = keys[i];
    uint64_t x = h1(k) & mask, y = h2(k) & mask;
    uint64_t j = t[x].key == k ? x : y;
    out[i] = t[y].key == k || j == x ? t[j].val : 0;
  }
}
// CHECK: split-index-choice.c:[[#@LINE-3]]:45: remark: suspension point: load prefetched
// CHECK: remark: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): 2 suspension points
