// Tests that a marked loop inlined into several functions says, in each
// copy's outcome remark, which function that copy is in (all copies share the
// loop's source place).
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
static inline long gather(const long *t, const int *ix, int n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
long first(const long *t, const int *ix, int n) { return gather(t, ix, n); }
long second(const long *t, const int *ix, int n) { return gather(t, ix, n) * 2; }
// CHECK: remark: loop turned into 8 interleaved coroutines: {{.*}} [in 'first', where 'gather' is inlined]
// CHECK: remark: loop turned into 8 interleaved coroutines: {{.*}} [in 'second', where 'gather' is inlined]

static inline double fsum(const double *t, const int *ix, int n) {
  double s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
double third(const double *t, const int *ix, int n) { return fsum(t, ix, n); }
// CHECK: remark: marked loop not interleaved, kept in serial order with prefetches ahead: floating-point reduction {{.*}} [in 'third', where 'fsum' is inlined]

// A loop in the function it was written in says nothing more.
long own(const long *t, const int *ix, int n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
// CHECK: remark: loop turned into 8 interleaved coroutines: 1 suspension point, pipeline dispatch, 0 bytes of context per slot [-Rpass=memcoro]
