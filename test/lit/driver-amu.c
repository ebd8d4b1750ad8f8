// Tests memcoro-cc's -fmemcoro-amu and -fmemcoro-scheduler: the options'
// errors, and a program whose transformed loop runs on a thread without an
// AMU, which stops with the message that names memcoro_amu_set_current.
// RUN: not %memcoro-cc -fmemcoro-amu -fmemcoro-scheduler=fifo -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: memcoro-cc: error: -fmemcoro-scheduler= takes static, dynamic or bafin, not 'fifo'
// RUN: not %memcoro-cc -fmemcoro-scheduler=bafin -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEEDS
// NEEDS: memcoro-cc: error: -fmemcoro-scheduler=bafin needs -fmemcoro-amu
// RUN: %memcoro-cc -O2 -fmemcoro-amu -fmemcoro-scheduler=dynamic %s -o %t && not %t 2>&1 | FileCheck %s --check-prefix=NOAMU
// RUN: %memcoro-cc -O2 -fno-memcoro -fmemcoro-amu %s -o %t.serial && not %t.serial 2>&1 | FileCheck %s --check-prefix=NOAMU
// NOAMU: memcoro: this thread has no AMU: code compiled with -fmemcoro-amu accesses __remote memory through the thread's AMU; call memcoro_amu_set_current() with one from memcoro_amu_create() first
// NOAMU-NOT: sum
#include <memcoro/memcoro.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { T = 4096 };
  uint64_t __remote *t = (uint64_t __remote *)calloc(T, sizeof(uint64_t));
  uint64_t s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < T; ++i)
    s += t[(i * 7u) % T];
  printf("sum %llu\n", (unsigned long long)s);
  return 0;
}
