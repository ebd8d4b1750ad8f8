// Tests that missed remarks name what they are about: the variable carried
// from one iteration to the next (when debug info says its name), and every
// flag a floating-point reduction needs.
// RUN: %memcoro-cc -O2 -g -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODEBUG

double fsum(const double *a, const int *idx, int n) {
  double s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}
// CHECK: remark: marked loop not interleaved, kept in serial order with prefetches ahead: floating-point reduction ('s') whose result depends on the order of the additions; allow reassociation (-ffast-math, or -fassociative-math -fno-signed-zeros, or a reduction(+: s) clause on the pragma) to interleave it

long delta(const long *a, const int *idx, int n) {
  long prev = 0, out = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    long v = a[idx[i]];
    out ^= v - prev;
    prev = v;
  }
  return out;
}
// CHECK: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a value ('prev') is carried from one iteration to the next
// NODEBUG: remark: marked loop not interleaved, kept in serial order with prefetches ahead: floating-point reduction whose result
// NODEBUG: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a value is carried from one iteration to the next
