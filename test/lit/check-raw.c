// -fmemcoro-check reports a flow dependence (read after write) that interleaving inverted: a later iteration loads what an earlier one has not stored yet; under pipeline and ring dispatch, with the load outside and inside an inner loop.
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
  int x[M], y[M], idx[M], len[M];
  for (int i = 0; i < M; i++) {
    x[i] = i + 1; // iteration i stores a[i + 1], which iteration i + 1 loads
    y[i] = i;
    idx[i] = (i * 5) % 64;
    len[i] = 1 + i % 3;
    t[i] = i;
  }
  // PIPELINE: remark: loop turned into 4 interleaved coroutines: 1 suspension point, pipeline dispatch
  // RING: remark: loop turned into 4 interleaved coroutines: 1 suspension point, ring dispatch
#pragma memcoro parallel(4) remote(t)
  for (int i = 0; i < M; i++) {
#ifdef INNER
    long s = 0;
    for (int j = 0; j < len[i]; j++)
      s += a[y[i] + 64 * j];
#else
    long s = a[y[i]];
#endif
    a[x[i]] = t[idx[i]] + s;
  }
  long h = 0;
  for (int i = 0; i < 64 * 3; i++)
    h = h * 31 + a[i];
  printf("%ld\n", h);
  return 0;
}
// CHECK: memcoro-check: loop at {{.*}}check-raw.c:[[@LINE-16]] (parallel(4), {{ring|pipeline}} dispatch): read-after-write dependence between iterations ran out of serial order
// CHECK-NEXT: check-raw.c:[[@LINE-9]]:13: store in iteration 0
// OUTER-NEXT: check-raw.c:[[@LINE-12]]:14: load in iteration 1 ran before it
// INNER-NEXT: check-raw.c:[[@LINE-15]]:12: load in iteration 1 ran before it
// CHECK-NOT: memcoro-check: loop
// CHECK: memcoro-check: 1 pair of accesses ran out of serial order: {{.*}}; exiting with status 66
