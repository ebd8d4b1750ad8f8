// -fmemcoro-check forgets the bytes of a freed block: malloc hands an iteration's freed buffer to the next iteration that allocates, and an iteration that finished early (one pass of its inner loop) frees it before an earlier one (three passes) allocates it, which was reported as a dependence between iterations that share nothing; free and realloc. A real conflict on a live heap block, beside the recycled ones, is still reported.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check %s -o %t.1 && %t.1 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DREALLOC %s -o %t.2 && %t.2 2>&1 | FileCheck %s --check-prefix=CLEAN
// Buffers of 512 KiB, more 8-byte granules than the shadow table has entries (mmap gives them back at one address):
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DLONGS=65536 %s -o %t.3 && %t.3 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DCONFLICT %s -o %t.4
// RUN: not %t.4 2>&1 | FileCheck %s --check-prefix=CONFLICT
#include <stdio.h>
#include <stdlib.h>

#ifndef LONGS
#define LONGS 4
#endif

int main(void) {
  enum { M = 32, B = LONGS };
  long *t = calloc(64, sizeof *t);
  int idx[M], len[M], y[M];
  for (int i = 0; i < M; i++) {
    idx[i] = (i * 5) % 64;
    len[i] = 3 - i % 3;
    y[i] = i % 2 ? i - 1 : i; // iterations 2k and 2k + 1 store out[2k]
    t[i] = i;
  }
  long *out = calloc(M, sizeof *out);
#pragma memcoro parallel(4) remote(t)
  for (int i = 0; i < M; i++) {
    long s = 0;
    for (int j = 0; j < len[i]; j++)
      s += t[idx[(i + j) % M]];
    long *buf = malloc(B * sizeof *buf);
#ifdef REALLOC
    // Two buffers grown side by side: neither grows in place, and the next
    // iteration's malloc gets an old block realloc freed.
    long *other = malloc(B * sizeof *other);
    for (int k = 0; k < B; k++)
      other[k] = s - k;
    buf[0] = s;
    for (int k = 1; k < B; k++)
      buf[k] = buf[k - 1] + k;
    buf = realloc(buf, 2 * B * sizeof *buf);
    other = realloc(other, 2 * B * sizeof *other);
    for (int k = B; k < 2 * B; k++)
      buf[k] = buf[k - 1] + other[k - B];
    free(other);
#else
    buf[0] = s;
    for (int k = 1; k < B; k++)
      buf[k] = buf[k - 1] + k;
#endif
#ifdef CONFLICT
    out[y[i]] = buf[len[i]];
#else
    out[i] = buf[len[i]];
#endif
    free(buf);
  }
  long h = 0;
  for (int i = 0; i < M; i++)
    h = h * 31 + out[i];
  printf("sum %ld\n", h);
  return 0;
}
// CLEAN-NOT: memcoro-check
// CLEAN: sum
// CONFLICT: memcoro-check: loop at {{.*}}check-freed.c:[[@LINE-39]] (parallel(4), {{ring|pipeline}} dispatch): write-after-write dependence between iterations ran out of serial order
// CONFLICT-NEXT: check-freed.c:[[@LINE-15]]:15: store in iteration {{[0-9]*[02468]}}
// CONFLICT-NEXT: check-freed.c:[[@LINE-16]]:15: store in iteration {{[0-9]*[13579]}} ran before it
// CONFLICT-NOT: memcoro-check: loop
// CONFLICT: memcoro-check: 1 pair of accesses ran out of serial order: {{.*}}; exiting with status 66
