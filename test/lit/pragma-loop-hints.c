// Loop hints between the pragma and its loop (`#pragma unroll`, `#pragma
// clang loop`, `#pragma nounroll`) were "'#pragma memcoro' must be followed
// by a 'for' or 'while' loop": they are handed back before the loop, as an
// OpenMP directive there is, and the loop is marked. So is an OpenMP `simd`
// or `taskloop` directive before the pragma.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %memcoro-cc -O2 -fopenmp -Rpass=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <stdint.h>

void unrolled(int64_t *out, const int64_t *t, const uint32_t *ix, int n) {
#pragma memcoro parallel(8)
#pragma unroll 4
  for (int i = 0; i < n; i++)
    out[i] = t[ix[i]];
}
// CHECK: pragma-loop-hints.c:[[@LINE-3]]:3: remark: loop

void hinted(int64_t *out, const int64_t *t, const uint32_t *ix, int n) {
#pragma memcoro parallel(8)
#pragma clang loop vectorize(disable)
#pragma nounroll
  for (int i = 0; i < n; i++)
    out[i] = t[ix[i]] + 1;
}
// CHECK: pragma-loop-hints.c:[[@LINE-3]]:3: remark: loop

double simd_sum(const double *t, const uint32_t *ix, int n) {
  double s = 0;
#pragma omp parallel for simd reduction(+ : s)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
// CHECK: pragma-loop-hints.c:{{[0-9]+}}:{{[0-9]+}}: remark: loop {{turned into|adapts}}
