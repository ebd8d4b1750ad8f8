// -fmemcoro-check reports an output dependence (write after write) that interleaving inverted: an earlier iteration stores over what a later one stored, which the serial loop keeps; under pipeline and ring dispatch, with the later iteration's store outside and inside an inner loop.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -Rpass=memcoro %s -o %t.1 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not %t.1 2>&1 | FileCheck %s --check-prefixes=CHECK,OUTER
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -mllvm -memcoro-dispatch=ring -Rpass=memcoro %s -o %t.2 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not %t.2 2>&1 | FileCheck %s --check-prefixes=CHECK,OUTER
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DINNER -Rpass=memcoro %s -o %t.3 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not %t.3 2>&1 | FileCheck %s --check-prefixes=CHECK,INNER
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DINNER -mllvm -memcoro-dispatch=ring -Rpass=memcoro %s -o %t.4 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not %t.4 2>&1 | FileCheck %s --check-prefixes=CHECK,INNER
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { M = 8 };
  long *a = calloc(64 * 3, sizeof *a), *t = calloc(64, sizeof *t);
  int y[M], idx[M], len[M];
  for (int i = 0; i < M; i++) {
    y[i] = i + 1; // iteration i stores a[i + 1] after iteration i + 1 did
    idx[i] = (i * 5) % 64;
    len[i] = 1 + i % 3;
    t[i] = i;
  }
  // PIPELINE: remark: loop turned into 4 interleaved coroutines: 1 suspension point, pipeline dispatch
  // RING: remark: loop turned into 4 interleaved coroutines: 1 suspension point, ring dispatch
#pragma memcoro parallel(4) remote(t)
  for (int i = 0; i < M; i++) {
#ifdef INNER
    for (int j = 0; j < len[i]; j++)
      a[i + 64 * j] = i + j;
#else
    a[i] = i;
#endif
    a[y[i]] = t[idx[i]];
  }
  long h = 0;
  for (int i = 0; i < 64 * 3; i++)
    h = h * 31 + a[i];
  printf("%ld\n", h);
  return 0;
}
// CHECK: memcoro-check: loop at {{.*}}check-waw.c:[[@LINE-15]] (parallel(4), {{ring|pipeline}} dispatch): write-after-write dependence between iterations ran out of serial order
// CHECK-NEXT: check-waw.c:[[@LINE-9]]:13: store in iteration 0
// OUTER-NEXT: check-waw.c:[[@LINE-12]]:10: store in iteration 1 ran before it
// INNER-NEXT: check-waw.c:[[@LINE-15]]:21: store in iteration 1 ran before it
// CHECK-NOT: memcoro-check: loop
// CHECK: memcoro-check: 1 pair of accesses ran out of serial order: {{.*}}; exiting with status 66
