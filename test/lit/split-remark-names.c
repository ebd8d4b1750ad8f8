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

// The value is assigned in a helper of the user's, inlined: the remark is at
// the helper's statement, not at the call (nor at the loop).
struct cursor {
  long pos;
};
static inline void advance(struct cursor *c, long by) {
  c->pos = c->pos * 3 + by;
}
long walk(const long *a, const int *idx, int n) {
  struct cursor c = {0};
  long out = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    out += a[c.pos & 1023];
    advance(&c, idx[i]);
  }
  return out + c.pos;
}
// CHECK: split-remark-names.c:[[@LINE-12]]:{{[0-9]+}}: remark: marked loop left serial: a value ('c') is carried from one iteration to the next

// NODEBUG: remark: marked loop not interleaved, kept in serial order with prefetches ahead: floating-point reduction whose result
// NODEBUG: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a value is carried from one iteration to the next
