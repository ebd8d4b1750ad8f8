// memcoro-cc -fmemcoro-check: the pass option and line tables reach clang (the last of -fmemcoro-check / -fno-memcoro-check wins), the runtime comes with the link, a clean loop runs quietly with status 0, a report makes the exit status 66, and MEMCORO_CHECK_ABORT=1 aborts at the first report.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -### -fmemcoro-check -c %s 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: %memcoro-cc -### -fmemcoro-check -fno-memcoro-check -c %s 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check %s -o %t && %t 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -DCONFLICT %s -o %t.c
// RUN: not %t.c 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: env MEMCORO_CHECK_ABORT=1 not --crash %t.c 2>&1 | FileCheck %s --check-prefix=ABORT

// FLAGS: "-debug-info-kind=line-tables-only"
// FLAGS-SAME: "-mllvm" "-memcoro-check"
// OFF-NOT: memcoro-check

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { M = 32 };
  long *a = calloc(M + 1, sizeof *a);
  int *x = malloc(M * sizeof *x), *y = malloc(M * sizeof *y);
  for (int i = 0; i < M; i++) {
    x[i] = i + 1;
#ifdef CONFLICT
    y[i] = i; // iteration i + 1 loads what iteration i stores
#else
    y[i] = i + 1;
#endif
  }
#pragma memcoro parallel(4)
  for (int i = 0; i < M; i++)
    a[x[i]] = a[y[i]] + i;
  long s = 0;
  for (int i = 0; i <= M; i++)
    s = s * 31 + a[i];
  printf("sum %ld\n", s);
  return 0;
}
// CLEAN-NOT: memcoro-check
// CLEAN: sum
// REPORT: memcoro-check: loop at
// REPORT: exiting with status 66
// ABORT: memcoro-check: loop at
// ABORT-NEXT: store in iteration 0
// ABORT-NEXT: load in iteration 1 ran before it
// ABORT-NEXT: memcoro-check: MEMCORO_CHECK_ABORT is set: aborting at the first report
