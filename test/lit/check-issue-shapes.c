// The two loops quoted at the top of issue 11, which interleave to a wrong answer with no remark: -fmemcoro-check reports each, with the accesses and iterations that ran out of order.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DFLOW -Rpass=memcoro %s -o %t.1 2>&1 | FileCheck %s --check-prefix=FLOW-REMARK
// RUN: not %t.1 2>&1 | FileCheck %s --check-prefix=FLOW
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -Rpass=memcoro %s -o %t.2 2>&1 | FileCheck %s --check-prefix=OUTPUT-REMARK
// RUN: not %t.2 2>&1 | FileCheck %s --check-prefix=OUTPUT
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
  struct node *next;
  uint32_t v;
} node;

int main(void) {
  enum { M = 16 };
#ifdef FLOW
  uint32_t *a = calloc(64, sizeof *a);
  uint32_t x[M], y[M];
  for (size_t i = 0; i < M; i++) {
    x[i] = i;            // iteration i stores a[i]...
    y[i] = (i + 63) % 64; // ...which iteration i + 1 loads
  }
  size_t m = M;
  // FLOW-REMARK: remark: loop turned into 16 interleaved coroutines: 2 suspension points, pipeline dispatch
#pragma memcoro parallel(16)
  for (size_t i = 0; i < m; i++) a[x[i]] = a[y[i]] + 1;
  uint64_t h = 0;
  for (int i = 0; i < 64; i++)
    h = h * 31 + a[i];
  printf("%llu\n", (unsigned long long)h);
#else
  // Iteration i walks a chain of 5 nodes (even i) or 1 node (odd i); every
  // chain sums to 5, so every iteration stores out[5] and, serially, the
  // last one wins.
  node *pool = calloc(5 * M, sizeof *pool);
  uint32_t start[M], *out = calloc(64, sizeof *out);
  for (size_t i = 0; i < M; i++) {
    start[i] = 5 * i;
    size_t len = i % 2 ? 1 : 5;
    for (size_t j = 0; j < len; j++) {
      pool[5 * i + j].v = 5 / len;
      pool[5 * i + j].next = j + 1 < len ? &pool[5 * i + j + 1] : NULL;
    }
  }
  size_t m = M;
  // OUTPUT-REMARK: remark: loop turned into 8 interleaved coroutines: 2 suspension points, ring dispatch
#pragma memcoro parallel(8)
  for (size_t i = 0; i < m; i++) {
    node *p = &pool[start[i]]; uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
    out[k % 64] = (uint32_t)i;
  }
  printf("%u\n", out[5]);
#endif
  return 0;
}
// FLOW: memcoro-check: loop at {{.*}}check-issue-shapes.c:[[@LINE-31]] (parallel(16), pipeline dispatch): read-after-write dependence between iterations ran out of serial order
// FLOW-NEXT: check-issue-shapes.c:[[@LINE-32]]:42: store in iteration 0
// FLOW-NEXT: check-issue-shapes.c:[[@LINE-33]]:44: load in iteration 1 ran before it
// OUTPUT: memcoro-check: loop at {{.*}}check-issue-shapes.c:[[@LINE-12]] (parallel(8), ring dispatch): write-after-write dependence between iterations ran out of serial order
// OUTPUT-NEXT: check-issue-shapes.c:[[@LINE-10]]:17: store in iteration 0
// OUTPUT-NEXT: check-issue-shapes.c:[[@LINE-11]]:17: store in iteration 11 ran before it
