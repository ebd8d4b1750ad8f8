// Tests split/FloatUpdates.cpp: a floating-point update of an element other
// iterations may update too runs in iteration order, unless reassociation is
// allowed (-ffast-math) or the element is the iteration's own; so do a
// floating-point minimum or maximum (NaN, signed zeros) and an argmin (the
// index of the first of equal values), integer or not.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -ffast-math -fno-memcoro-cost-model -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST
#include <stddef.h>

struct node {
  int key;
  float w;
  struct node *next;
};

// Chains of different lengths end out of iteration order on the ring.
void chains(size_t n, const int *idx, struct node *const *heads, float *acc) {
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    for (const struct node *p = heads[idx[i]]; p; p = p->next)
      acc[p->key] += p->w;
}
// CHECK: split-float-update.c:[[@LINE-2]]:{{[0-9]+}}: remark: floating-point update runs in iteration order, from this read of the element to the iteration's end: other iterations may update the same element, and the rounding of a sum, or a minimum's NaN and signed zeros, make the result depend on the order (unless -ffast-math, or an OpenMP reduction clause, allows reassociation) (ring dispatch: an iteration that reaches it before its turn waits)
// CHECK: split-float-update.c:[[@LINE-5]]:3: remark: loop turned into 32 interleaved coroutines {{.*}}ring dispatch{{.*}}1 run in iteration order
// FAST-NOT: floating-point update runs in iteration order
// FAST: split-float-update.c:[[@LINE-7]]:3: remark: loop turned into 32 interleaved coroutines

// A contracted x * y + acc is an update of acc (llvm.fmuladd), and a
// product into it is one too.
void products(size_t n, const int *idx, const double *x, const double *y, double *acc, double *scale) {
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    acc[idx[i]] += x[i] * y[i];
    scale[idx[i]] *= x[i];
  }
}
// CHECK-DAG: split-float-update.c:[[@LINE-4]]:{{[0-9]+}}: remark: floating-point update runs in iteration order{{.*}}(pipeline dispatch runs each phase in iteration order)
// CHECK-DAG: split-float-update.c:[[@LINE-4]]:{{[0-9]+}}: remark: floating-point update runs in iteration order{{.*}}(pipeline dispatch runs each phase in iteration order)

// The iteration's own element: no other iteration updates it.
void own(size_t n, const int *idx, const double *t, double *acc) {
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    acc[i] += t[idx[i]];
}
// CHECK-NOT: split-float-update.c:[[@LINE-2]]:{{[0-9]+}}: remark: floating-point update
// CHECK: split-float-update.c:[[@LINE-4]]:3: remark: loop turned into

// The iteration's own row (PyTorch's EmbeddingBag): the inner loop reaches
// ddim elements, and each iteration's row starts ddim elements further.
void bags(size_t nbags, size_t ddim, const long *offsets, const long *indices, const float *weight, float *output) {
#pragma memcoro
  for (size_t b = 0; b < nbags; b++) {
    float *out = output + b * ddim;
    for (long k = offsets[b]; k < offsets[b + 1]; k++)
      for (size_t d = 0; d < ddim; d++)
        out[d] += weight[indices[k] * ddim + d];
  }
}
// CHECK-NOT: split-float-update.c:[[@LINE-3]]:{{[0-9]+}}: remark: floating-point update
// CHECK: split-float-update.c:[[@LINE-8]]:3: remark: loop turned into

// A row one element shorter than its reach overlaps the next one's.
void overlapping(size_t nbags, size_t ddim, const long *offsets, const long *indices, const float *weight,
                 float *output) {
#pragma memcoro
  for (size_t b = 0; b < nbags; b++) {
    float *out = output + b * (ddim - 1);
    for (long k = offsets[b]; k < offsets[b + 1]; k++)
      for (size_t d = 0; d < ddim; d++)
        out[d] += weight[indices[k] * ddim + d];
  }
}
// CHECK: split-float-update.c:[[@LINE-3]]:{{[0-9]+}}: remark: floating-point update runs in iteration order

// A GROUP BY's minimum and maximum of doubles: `v < m` keeps m when v is NaN,
// and -0.0 == +0.0.
void group_minmax(size_t n, const int *grp, const double *v, double *mn, double *mx) {
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    if (v[i] < mn[grp[i]])
      mn[grp[i]] = v[i];
    mx[grp[i]] = mx[grp[i]] > v[i] ? mx[grp[i]] : v[i];
  }
}
// CHECK-DAG: split-float-update.c:[[@LINE-5]]:{{[0-9]+}}: remark: floating-point update runs in iteration order
// CHECK-DAG: split-float-update.c:[[@LINE-4]]:{{[0-9]+}}: remark: floating-point update runs in iteration order
// FAST-NOT: floating-point update runs in iteration order

// An integer argmin: the minimum alone commutes, its index does not.
void argmin(size_t n, const int *grp, const long *v, long *mn, int *arg) {
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    if (v[i] < mn[grp[i]]) {
      mn[grp[i]] = v[i];
      arg[grp[i]] = (int)i;
    }
}
// CHECK: split-float-update.c:[[@LINE-5]]:{{[0-9]+}}: remark: minimum or maximum that also writes other memory (an argmin's index) runs in iteration order, from this read of the element to the iteration's end: among equal values the first iteration in serial order wins
// FAST: split-float-update.c:[[@LINE-6]]:{{[0-9]+}}: remark: minimum or maximum that also writes other memory
