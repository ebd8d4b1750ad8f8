// Link-time optimisation: clang -flto=thin compiles with ThinLTO's pre-link
// pipeline, which has no vectorizer-start point for memcoro-split, and the
// linker later optimises without memcoro's plugin; memcoro-split runs at the
// pre-link pipeline's end instead (LateSplit.cpp). The loop must be turned
// into coroutines, not reported as removed, in one command and in
// compile-then-link steps, under -flto and -flto=thin; the program runs.
// RUN: %memcoro-cc -O2 -flto=thin -Rpass=memcoro -Rpass-missed=memcoro %s -o %t.thin 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %t.thin | %FileCheck %s
// RUN: nm %t.thin | %FileCheck %s --check-prefix=SYMBOLS
// RUN: %memcoro-cc -O2 -flto=thin -c -Rpass=memcoro -Rpass-missed=memcoro %s -o %t.o 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -flto=thin %t.o -o %t.thin2 && %t.thin2 | %FileCheck %s
// RUN: nm %t.thin2 | %FileCheck %s --check-prefix=SYMBOLS
// RUN: %memcoro-cc -O2 -flto -Rpass=memcoro -Rpass-missed=memcoro %s -o %t.full 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %t.full | %FileCheck %s
// RUN: nm %t.full | %FileCheck %s --check-prefix=SYMBOLS
// REMARK-NOT: not transformed
// REMARK: driver-lto.c:[[@LINE+11]]:{{[0-9]+}}: remark: loop turned into 16 interleaved coroutines
// REMARK-NOT: not transformed
// SYMBOLS: __memcoro_adapt_begin
// CHECK: sum 523776

#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long gather(const long *t, const unsigned *idx, unsigned long n) {
  long s = 0;
#pragma memcoro parallel(16)
  for (unsigned long i = 0; i < n; i++)
    s += t[idx[i]];
  return s;
}

int main(void) {
  enum { N = 1024 };
  long *t = malloc(N * sizeof(long));
  unsigned *idx = malloc(N * sizeof(unsigned));
  for (unsigned i = 0; i < N; i++) {
    t[i] = i;
    idx[i] = (i * 7) % N;
  }
  printf("sum %ld\n", gather(t, idx, N));
  return 0;
}
