// -fmemcoro-check agrees with legality on two shapes it used to report:
// a plain read whose value a compare-and-swap of the same word expects (GAP's
// Bitmap::set_bit_atomic, retried until the exchange finds what the read
// saw), and a keep-the-smaller update whose stored value is computed from
// other values (`nd = du + w[e]; if (nd < nw[v]) nw[v] = nd`).
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -mllvm -memcoro-dispatch=ring %s -o %t
// RUN: %t 2>&1 | FileCheck %s
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void set_bit_atomic(uint64_t *words, size_t pos) {
  uint64_t old_val, new_val;
  do {
    old_val = words[pos / 64];
    new_val = old_val | ((uint64_t)1 << (pos & 63));
  } while (!__sync_bool_compare_and_swap(&words[pos / 64], old_val, new_val));
}

int main(void) {
  enum { N = 256, V = 128 };
  int *q = malloc(N * sizeof *q), *w = malloc(N * sizeof *w), *nw = malloc(V * sizeof *nw);
  uint64_t *bits = calloc(V / 64, sizeof *bits);
  for (int i = 0; i < N; i++) {
    q[i] = (i * 37) % V;
    w[i] = (i * 11) % 17;
  }
  for (int v = 0; v < V; v++)
    nw[v] = 1 << 30;
#pragma memcoro parallel(8) remote(bits)
  for (int i = 0; i < N; i++)
    set_bit_atomic(bits, (size_t)q[i]);
#pragma memcoro parallel(8) remote(nw)
  for (int u = 0; u < N; u++)
    for (int e = u; e < u + 4 && e < N; e++) {
      int nd = u + w[e];
      int v = q[e];
      if (nd < nw[v])
        nw[v] = nd;
    }
  uint64_t sum = bits[0] ^ bits[1];
  for (int v = 0; v < V; v++)
    sum = sum * 31 + (uint64_t)nw[v];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
// CHECK-NOT: memcoro-check
// CHECK: {{^[0-9]+$}}
// CHECK-NOT: memcoro-check
