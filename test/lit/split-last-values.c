// Tests split/LastValues.cpp: a value of the last iteration read after the
// loop (OpenMP's lastprivate) goes through a slot of the frame, stored after
// an ordered marker at the iteration's end, so that the last store is the
// last iteration's; the loop interleaves instead of staying serial ("a value
// computed in the loop is used after it"). Not a reduction's result, which
// legality takes as it is, nor a loop with an early exit.
// RUN: %memcoro-cc -O2 -g -fno-memcoro-adapt -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-memcoro-cost-model -fno-discard-value-names -S -emit-llvm %s -o - | %FileCheck %s

unsigned last_gathered(const unsigned *t, const unsigned *ix, int n, unsigned long *sum) {
  unsigned lp = 0;
  unsigned long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    lp = t[t[ix[i]] & 4095];
    s += lp;
  }
  *sum = s;
  return lp;
}
// REMARK: split-last-values.c:[[@LINE-7]]:3: remark: the last iteration's 'lp', read after the loop, is stored at each iteration's end in iteration order, so that the last store is the serial loop's
// REMARK: split-last-values.c:[[@LINE-8]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}, 1 run in iteration order
// CHECK-LABEL: define {{.*}} @last_gathered(
// The slot, promoted again once the loop is a state machine, carries the
// value stored last out of the scheduler.
// CHECK:       %.memcoro.last.{{[0-9]+}} = phi i32
// CHECK:       %lp.0.lcssa = phi i32 [ 0, %entry ], [ %.memcoro.last.{{[0-9]+}}, %memcoro.drain ]
// CHECK:       ret i32

unsigned long only_sum(const unsigned *t, const unsigned *ix, int n) {
  unsigned long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[t[ix[i]] & 4095];
  return s;
}
// CHECK-LABEL: define {{.*}} @only_sum(
// CHECK-NOT:   memcoro.last
// CHECK:       ret i64

// With an early exit, the value of the last iteration leaving at the latch
// is not taken this way (the winner's values are EarlyExits.cpp's).
long found_or_last(const long *a, const int *idx, int n, long key) {
  long v = -1;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    v = a[idx[i]];
    if (v == key)
      break;
  }
  return v;
}
// REMARK: split-last-values.c:[[@LINE-6]]:9: remark: marked loop left serial: a value computed in the loop ('v') is used after it and is not a reduction: the last iteration's values pass out of a loop that leaves at its end alone
