// memcoro-cc -fmemcoro-scavenge[=NS]: the bound reaches memcoro-split (100 ns by default, the last flag wins, -fno-memcoro-scavenge turns it off), bad bounds are errors, and a program built with it lends the stalls of its parallel(1) loop to its scavenger, which finishes, and keeps its answer.
// RUN: %memcoro-cc -### -fmemcoro-scavenge -c %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %memcoro-cc -### -fmemcoro-scavenge=120 -c %s 2>&1 | FileCheck %s --check-prefix=GIVEN
// RUN: %memcoro-cc -### -fmemcoro-scavenge=120 -fno-memcoro-scavenge -c %s 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not %memcoro-cc -fmemcoro-scavenge=0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %memcoro-cc -fmemcoro-scavenge=fast -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %memcoro-cc -O2 -fmemcoro-scavenge=100 %s -o %t && %t | FileCheck %s --check-prefix=SCAV
// RUN: %memcoro-cc -O2 %s -o %t.plain && %t.plain | FileCheck %s --check-prefix=PLAIN

// DEFAULT: "-mllvm" "-memcoro-scavenge=100"
// GIVEN: "-mllvm" "-memcoro-scavenge=120"
// OFF-NOT: memcoro-scavenge
// BAD: error: -fmemcoro-scavenge= takes nanoseconds from 1 to 1000000000
// SCAV: sum 4499998500000 stalls 1 scavenger ran 1 finished 1
// PLAIN: sum 4499998500000 stalls 0 scavenger ran 0 finished 1

#include <memcoro/scavenger.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long progress;
static void count(void *arg) {
  for (long i = 0; i < 1000; ++i) {
    progress = i + 1;
    memcoro_scavenger_yield();
  }
  *(int *)arg = 1;
}

int main(void) {
  enum { M = 3000000 };
  long *v = malloc(M * sizeof *v);
  unsigned *idx = malloc(M * sizeof *idx);
  for (long i = 0; i < M; ++i) {
    v[i] = i;
    idx[i] = (unsigned)((i * 2654435761u) % M);
  }
  int finished = 0;
  memcoro_scavenger_add(count, &finished);
  long sum = 0;
#pragma memcoro parallel(1)
  for (long i = 0; i < M; ++i)
    sum += v[idx[i]];
  long ran = progress;
  memcoro_scavenger_stats st;
  memcoro_scavenger_get_stats(&st);
  memcoro_scavenger_drain();
  printf("sum %ld stalls %d scavenger ran %d finished %d\n", sum, st.stalls > 0, ran > 0, finished);
  return 0;
}
