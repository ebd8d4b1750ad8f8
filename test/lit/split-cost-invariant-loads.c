// Tests the cost model's invariant addresses through loads (split/SplitCost.cpp):
// a nested callee whose argument is invariant at its call site reads its
// object's header through a loaded pointer; the header is the same lines in
// every iteration, in the cache after the first: no suspension there, only at
// the slot. A header reached from each iteration's own object keeps its
// suspension (nothing says every object points at the same header).
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stddef.h>
#include <stdint.h>

struct slot { uint64_t key, value; };
struct index { uint64_t mask; struct slot *slots; };
struct table { const char *name; struct index *index; };

__attribute__((noinline)) uint64_t lookup(const struct table *t, uint64_t key) {
  const struct slot *s = &t->index->slots[(key * 0x9E3779B97F4A7C15ull >> 17) & t->index->mask];
  return s->key == key ? s->value : 0;
}
// CHECK-DAG: split-cost-invariant-loads.c:[[@LINE-3]]:{{[0-9]+}}: remark: no suspension at this load: the same address in every iteration, which stays in the cache

void batch(const struct table *t, const uint64_t *keys, uint64_t *out, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    out[i] = lookup(t, keys[i]);
}
// CHECK-DAG: split-cost-invariant-loads.c:[[@LINE-3]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point

struct txn { const struct table *t; uint64_t sum; };

void own_tables(struct txn *txns, const uint64_t *keys, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    txns[i].sum += lookup(txns[i].t, keys[i]);
}
// CHECK-DAG: split-cost-invariant-loads.c:[[@LINE-3]]:3: remark: loop turned into 16 interleaved coroutines: {{[2-9]}} suspension points
