// -fmemcoro-check does not report what the contract allows iterations to share: atomic updates and commutative read-modify-writes that no suspension splits (if (u < p[v]) p[v] = u, h[k] ^= x), applied in any order; it does report a plain access of another iteration to the same bytes.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -mllvm -memcoro-dispatch=ring %s -o %t.1
// RUN: %t.1 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -mllvm -memcoro-dispatch=ring -DPLAIN %s -o %t.2
// RUN: not %t.2 2>&1 | FileCheck %s --check-prefix=PLAIN
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { M = 64, V = 8 };
  int32_t *p = malloc(V * sizeof *p);
  uint64_t *h = calloc(V, sizeof *h), *count = calloc(V, sizeof *count), *out = calloc(M, sizeof *out);
  uint32_t *idx = malloc(M * sizeof *idx), *len = malloc(M * sizeof *len);
  for (int v = 0; v < V; v++)
    p[v] = INT32_MAX;
  for (int i = 0; i < M; i++) {
    idx[i] = (i * 5) % V;
    len[i] = 1 + (i * 7) % 5;
  }
#pragma memcoro parallel(8) remote(p, h, count)
  for (int i = 0; i < M; i++) {
    for (uint32_t j = 0; j < len[i]; j++) {
      uint32_t v = (idx[i] + j) % V;
      if (i < p[v])
        p[v] = i;
      h[v] ^= (uint64_t)i << j;
      __atomic_fetch_add(&count[v], 1, __ATOMIC_RELAXED);
    }
#ifdef PLAIN
    out[i] = h[idx[i]];
#endif
  }
  uint64_t sum = 0;
  for (int v = 0; v < V; v++)
    sum = sum * 31 + (uint64_t)p[v] + h[v] + count[v];
  for (int i = 0; i < M; i++)
    sum = sum * 31 + out[i];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
// CLEAN-NOT: memcoro-check
// CLEAN: {{^[0-9]+$}}
// CLEAN-NOT: memcoro-check
// PLAIN: memcoro-check: loop at {{.*}}check-updates.c:[[@LINE-23]] (parallel(8), ring dispatch): {{(read-after-write|write-after-read)}} dependence between iterations ran out of serial order
// PLAIN: check-updates.c:[[@LINE-15]]:14: load in iteration {{[0-9]+}}
// PLAIN-NEXT: check-updates.c:[[@LINE-20]]:12: store of an update in iteration {{[0-9]+}} ran before it
// PLAIN-NOT: atomic
