// memcoro-cc links the runtime by itself: a program that calls memcoro_remote_alloc builds in one command (and in compile-then-link steps) and runs.
// RUN: %memcoro-cc -O2 -Wall -Werror %s -o %t && %t | %FileCheck %s
// RUN: %memcoro-cc -c -Werror %s -o %t.o
// RUN: %memcoro-cc -Werror %t.o -o %t.2 && %t.2 | %FileCheck %s
// RUN: %memcoro-cxx -x c++ -O2 -Werror %s -o %t.3 && %t.3 | %FileCheck %s

#include <memcoro/memcoro.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
  size_t n = 1 << 20;
  long *a = (long *)memcoro_remote_alloc(n * sizeof(long));
  if (!a)
    return 1;
  long zeros = 0;
  for (size_t i = 0; i < n; i++)
    zeros += a[i] == 0;
  long s = 0;
#pragma memcoro parallel(16) remote(a)
  for (size_t i = 0; i < n; i++)
    s += (long)i - a[i];
  printf("zeroed %d aligned %d sum %ld\n", zeros == (long)n,
         (uintptr_t)a % (2u << 20) == 0, s);
  memcoro_remote_free(a);
  return 0;
}
// CHECK: zeroed 1 aligned 1 sum 549755289600
