// Tests that an iteration suspends once per cache line, across blocks and
// inner loops: a 32-byte hash bucket's count (chain loop), its tuples[j]
// (inner loop, a variable index into a fixed-size array field) and its next
// pointer share one suspension; and a bound re-read after a store that may
// alias it (offsets[u + 1] in the edge loop) does not suspend again.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

typedef struct { uint32_t key, payload; } tuple_t;
typedef struct bucket_t {
  volatile char latch;
  uint32_t count;
  tuple_t tuples[2];
  struct bucket_t *next;
} bucket_t;

int64_t probe(const bucket_t *buckets, uint32_t mask, const tuple_t *rel, uint64_t n) {
  int64_t matches = 0;
#pragma memcoro parallel(16)
  for (uint64_t i = 0; i < n; i++) {
    const bucket_t *b = buckets + (rel[i].key & mask);
    do {
      for (uint32_t j = 0; j < b->count; j++)
        if (rel[i].key == b->tuples[j].key)
          matches++;
      b = b->next;
    } while (b);
  }
  return matches;
}
// CHECK: remark: suspension point: load prefetched
// CHECK-NOT: remark: suspension point
// CHECK: remark: loop turned into 16 interleaved coroutines: 1 suspension point, ring dispatch

void expand(const int64_t *offsets, const uint32_t *adj, int64_t *parent, const uint32_t *frontier,
            uint64_t n, int64_t *seen) {
#pragma memcoro parallel(16) remote(offsets, adj, parent)
  for (uint64_t i = 0; i < n; i++) {
    uint32_t u = frontier[i];
    for (int64_t e = offsets[u]; e < offsets[u + 1]; e++)
      if (parent[adj[e]] < 0)
        seen[adj[e]] = u;
  }
}
// Where offsets[u] and offsets[u + 1] are fetched, where adj[e] is, and where
// parent[adj[e]] is: the re-read of offsets[u + 1] after each store to seen[]
// needs none of its own.
// CHECK: remark: suspension point
// CHECK: remark: suspension point
// CHECK: remark: suspension point
// CHECK-NOT: remark: suspension point
// CHECK: remark: loop turned into 16 interleaved coroutines: 3 suspension points
