// Tests when one prefetch stands for two fields of a record read at one
// suspension: only when both lie in one granule of the alignment the record
// is known to start at (at most 16 bytes). A 32-byte record of an array
// starts 16-byte aligned with the array: a and b share a granule, one
// prefetch. A 24-byte record starts only 8-byte aligned (one in eight starts
// 8 bytes before a line's end): a and b each get a prefetch.
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt -passes='memcoro-mark,function(sroa,early-cse,simplifycfg,instcombine,loop-mssa(loop-rotate),loop-simplify,lcssa,print<memcoro-plan>)' -disable-output %t.ll 2>&1 | FileCheck %s
#include <stdint.h>

struct rec32 { uint64_t a, b, c, d; };
struct rec24 { uint64_t a, b, c; };

// CHECK-LABEL: memcoro-plan: loop {{.*}} in function 'sum32': interleaved
// CHECK: suspension 1:
// CHECK-NEXT: shared by:
// CHECK-NEXT: prefetch
// CHECK-NEXT: dispatch:
uint64_t sum32(const struct rec32 *r, const uint32_t *idx, long n) {
  uint64_t s = 0;
#pragma memcoro parallel(8) remote(r)
  for (long i = 0; i < n; ++i)
    s += r[idx[i]].a ^ r[idx[i]].b;
  return s;
}

// CHECK-LABEL: memcoro-plan: loop {{.*}} in function 'sum24': interleaved
// CHECK: suspension 1:
// CHECK-NEXT: shared by:
// CHECK-NEXT: prefetch
// CHECK-NEXT: prefetch
// CHECK-NEXT: dispatch:
uint64_t sum24(const struct rec24 *r, const uint32_t *idx, long n) {
  uint64_t s = 0;
#pragma memcoro parallel(8) remote(r)
  for (long i = 0; i < n; ++i) {
    const struct rec24 *e = &r[idx[i]];
    s += e->a * e->b;
  }
  return s;
}
