// Tests split/BranchMinMax.cpp: under -fopenmp, `if (v > mx) mx = v` stores
// the reduction's private copy on the taken path only; the maximum is
// computed with an intrinsic and the test left deciding only the mirror, so
// the loop is a max reduction. An argmax (`arg = i` behind the same test)
// is decided by which iteration wins among equal values: it stays serial.
// RUN: %memcoro-cc -O2 -fopenmp -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fopenmp -fno-memcoro-cost-model -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <stddef.h>

long largest(size_t n, const unsigned *q, const long *t) {
  long mx = -1;
#pragma omp parallel for reduction(max : mx)
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    long v = t[q[i]];
    if (v > mx)
      mx = v;
  }
  return mx;
}
// CHECK: split-branch-minmax.c:[[@LINE-9]]:1: remark: loop turned into {{[0-9]+}} interleaved coroutines
// IR-LABEL: define internal void @largest.omp_outlined
// IR: call i64 @llvm.smax.i64

long argmax(size_t n, const unsigned *q, const long *t, long *at) {
  long best = -1, arg = -1;
#pragma omp parallel for reduction(max : best)
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    long v = t[q[i]];
    if (v > best) {
      best = v;
      arg = (long)i;
    }
  }
  *at = arg;
  return best;
}
// CHECK: split-branch-minmax.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial

// Doubles: the clause permits keeping either of two equal zeros.
double largest_double(size_t n, const unsigned *q, const double *t) {
  double mx = 0;
#pragma omp parallel for reduction(max : mx)
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    double v = t[q[i]];
    if (v > mx)
      mx = v;
  }
  return mx;
}
// CHECK: split-branch-minmax.c:[[@LINE-9]]:1: remark: loop turned into {{[0-9]+}} interleaved coroutines

// Without the clause, which zero is kept depends on the order.
double largest_double_unpermitted(size_t n, const unsigned *q, const double *t) {
  double mx = 0;
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    double v = t[q[i]];
    if (v > mx)
      mx = v;
  }
  return mx;
}
// CHECK: split-branch-minmax.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: a value is carried

// A test that takes a NaN (`!(v <= mx)`) makes every later test fail in the
// serial loop; maxnum ignores it. Even the clause's permission leaves it
// serial.
double largest_taking_nan(size_t n, const unsigned *q, const double *t) {
  double mx = 0;
#pragma omp parallel for reduction(max : mx)
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    double v = t[q[i]];
    if (!(v <= mx))
      mx = v;
  }
  return mx;
}
// CHECK: split-branch-minmax.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: a value is carried
