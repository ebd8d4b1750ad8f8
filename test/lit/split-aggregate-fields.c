// Tests split/CursorAppend.cpp: a GROUP BY's aggregate, `count++` beside the
// sum, minimum and maximum of the same slot, is a set of commutative updates,
// not an append through a cursor (the other fields of a cursor's record only
// move where the turn starts, once the place itself is a cursor); the loop
// interleaves with nothing run in iteration order.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="iteration order"
#include <stdint.h>
#include <stddef.h>

struct agg {
  uint64_t count;
  int64_t sum, min, max;
};

void aggregate(size_t n, const uint32_t *slot_of, const int64_t *v, struct agg *slots) {
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    struct agg *a = &slots[slot_of[i]];
    a->count++;
    a->sum += v[i];
    a->min = a->min < v[i] ? a->min : v[i];
    a->max = a->max > v[i] ? a->max : v[i];
  }
}
// CHECK: split-aggregate-fields.c:[[@LINE-8]]:3: remark: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): 1 suspension point, pipeline dispatch, 0 bytes of context per slot
