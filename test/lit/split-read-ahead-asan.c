// A loop kept in serial order reads its index array ahead to prefetch; with
// no trip count (here an OpenMP chunk's bound, in memory the atomic may
// write once the sanitizers have moved the stack) the read goes past the
// array's end within its page (no fault: it is tested to stay in the page),
// which AddressSanitizer reported as a heap-buffer-overflow the program does
// not make. Reads ahead carry !nosanitize: the program runs clean under ASan
// and gives the serial answer.
// RUN: %memcoro-cc -O2 -fsanitize=address,undefined -fopenmp -Rpass=memcoro %s -o %t 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env OMP_NUM_THREADS=1 %t | %FileCheck %s
// RUN: %memcoro-cc -O2 -fsanitize=address,undefined -fopenmp -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
// REMARK: remark: loop turned into a prefetching loop in serial order: prefetching {{.*}} iterations ahead
// CHECK: histogram d76d021b7b82700
// IR: .ahead = load i32, ptr %memcoro.ahead.ptr, align 1, !nosanitize

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { TABLE = 1 << 16, BINS = 1 << 10, KEYS = 10000 };
static uint32_t *t, *idx;

int main(void) {
  t = malloc(sizeof *t * TABLE);
  idx = malloc(sizeof *idx * KEYS);
  uint32_t *h = calloc(BINS, sizeof *h);
  for (uint32_t i = 0; i < TABLE; i++)
    t[i] = i * 2654435761u;
  for (uint32_t i = 0; i < KEYS; i++)
    idx[i] = (i * 40503u) % TABLE;
#pragma omp parallel for
#pragma memcoro
  for (long i = 0; i < KEYS; i++) {
    uint32_t v = t[t[idx[i]] % TABLE];
#pragma omp atomic
    h[v % BINS] += 1;
  }
  uint64_t s = 0;
  for (int i = 0; i < BINS; i++)
    s = s * 31 + h[i];
  printf("histogram %llx\n", (unsigned long long)s);
  free(t);
  free(idx);
  free(h);
  return 0;
}
