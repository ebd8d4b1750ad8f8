// SPDX-License-Identifier: Apache-2.0
// triad: STREAM's a[i] = b[i] + q * c[i], every array named in remote().
// One op = one element. Argument: total bytes of the three arrays.
#include "costmodel.h"

#ifndef COSTMODEL_MAIN
void KERNEL(triad)(double *a, const double *b, const double *c, double q, size_t n) {
#pragma memcoro parallel(16) remote(a, b, c)
  for (size_t i = 0; i < n; ++i)
    a[i] = b[i] + q * c[i];
}

#else
void triad_serial(double *, const double *, const double *, double, size_t);
void triad_memcoro(double *, const double *, const double *, double, size_t);
void triad_insist(double *, const double *, const double *, double, size_t);
static double *A, *B, *C;
static size_t n, reps;

static void run(int variant) {
  void (*const fn[])(double *, const double *, const double *, double, size_t) = {triad_serial, triad_memcoro,
                                                                                triad_insist};
  for (size_t r = 0; r < reps; ++r)
    fn[variant](A, B, C, 3.0, n);
}

static uint64_t result(int variant) {
  (void)variant;
  uint64_t h = 0;
  for (size_t i = 0; i < n; i += 97) {
    uint64_t bits;
    memcpy(&bits, &A[i], sizeof bits);
    h = h * 31 + bits;
  }
  return h;
}

int main(int argc, char **argv) {
  size_t bytes = cm_bytes(argc, argv, 1 << 20);
  n = bytes / 3 / sizeof(double);
  A = cm_alloc(n * sizeof *A), B = cm_alloc(n * sizeof *B), C = cm_alloc(n * sizeof *C);
  uint64_t s = 1;
  for (size_t i = 0; i < n; ++i)
    B[i] = (double)(splitmix64(&s) % 1000), C[i] = (double)(splitmix64(&s) % 1000);
  char what[64];
  snprintf(what, sizeof what, "triad remote(a,b,c) %s", argv[1] ? argv[1] : "1M");
  // Small arrays: repeat the loop so that a run lasts long enough to time.
  reps = bytes < (256u << 20) ? (256u << 20) / bytes : 1;
  return cm_measure(what, (double)n * reps, cm_trials(argc, argv), run, result);
}
#endif
