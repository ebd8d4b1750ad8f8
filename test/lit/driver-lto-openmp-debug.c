// An OpenMP region built with -g is an always-inline body (.omp_outlined._debug__)
// under a wrapper; the serial copy memcoro outlines from it kept the
// always-inline attribute beside its own noinline, and the link-time
// verifier refused the module ("Attributes 'noinline and alwaysinline' are
// incompatible"). Full and thin LTO link and run; so does the plain build.
// RUN: %memcoro-cc -O2 -fopenmp -g -flto %s -o %t.full && %t.full | %FileCheck %s
// RUN: %memcoro-cc -O2 -fopenmp -g -flto=thin %s -o %t.thin && %t.thin | %FileCheck %s
// RUN: %memcoro-cc -O2 -fopenmp -g -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
// CHECK: sum 8386560
// IR: define internal {{.*}}memcoro.serial{{.*}} #[[ATTRS:[0-9]+]]
// IR: attributes #[[ATTRS]] = { noinline norecurse

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  unsigned *t = malloc(sizeof(unsigned) * n), *ix = malloc(sizeof(unsigned) * n);
  for (int i = 0; i < n; i++) {
    t[i] = i;
    ix[i] = (i * 40503u) & (n - 1);
  }
  unsigned long s = 0;
#pragma omp parallel for reduction(+ : s)
#pragma memcoro
  for (int i = 0; i < n; i++)
    s += t[t[ix[i]] & (n - 1)];
  printf("sum %lu\n", s);
  return 0;
}
