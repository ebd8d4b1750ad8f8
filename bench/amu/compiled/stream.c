/* SPDX-License-Identifier: Apache-2.0 */
/* stream: STREAM's copy, scale, add and triad over three far arrays of
 * 2^15 doubles at scale 1. Sequential: on real memory the case where
 * interleaving gains least (bandwidth, hardware prefetch); the emulated far
 * memory charges every access its latency and models no prefetcher, which
 * favours the coroutines here (docs/amu.md). */
#include "suite.h"

#include <string.h>

#define SCALAR 3.0
static double *a, *b, *c, *ea, *eb, *ec;
static uint64_t n;

__attribute__((noinline)) void stream_loop(double __remote *x, double __remote *y, double __remote *z,
                                           uint64_t len) {
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < len; ++i)
    z[i] = x[i];
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < len; ++i)
    y[i] = SCALAR * z[i];
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < len; ++i)
    z[i] = x[i] + y[i];
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < len; ++i)
    x[i] = y[i] + SCALAR * z[i];
}

static void fill(double *x, double *y, double *z) {
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = 1.0 + (double)(i % 1000) / 8;
    y[i] = 2.0;
    z[i] = 0.5 * (double)(i % 7);
  }
}
static void setup(double scale) {
  n = (uint64_t)(32768 * scale);
  a = suite_far_alloc(8 * n);
  b = suite_far_alloc(8 * n);
  c = suite_far_alloc(8 * n);
  ea = suite_alloc(8 * n);
  eb = suite_alloc(8 * n);
  ec = suite_alloc(8 * n);
  fill(ea, eb, ec);
  for (uint64_t i = 0; i < n; ++i)
    ec[i] = ea[i];
  for (uint64_t i = 0; i < n; ++i)
    eb[i] = SCALAR * ec[i];
  for (uint64_t i = 0; i < n; ++i)
    ec[i] = ea[i] + eb[i];
  for (uint64_t i = 0; i < n; ++i)
    ea[i] = eb[i] + SCALAR * ec[i];
}
static void reset(void) { fill(a, b, c); }
static uint64_t run(void) {
  stream_loop((double __remote *)a, (double __remote *)b, (double __remote *)c, n);
  return 0;
}
static uint64_t digest(uint64_t result) {
  (void)result;
  uint64_t h = 0, w[3];
  for (uint64_t i = 0; i < n; ++i) {
    memcpy(&w[0], &a[i], 8);
    memcpy(&w[1], &b[i], 8);
    memcpy(&w[2], &c[i], 8);
    h = mix64(h ^ w[0] ^ mix64(w[1] ^ mix64(w[2])));
  }
  return h;
}
static const char *check(uint64_t sum) {
  (void)sum;
  return memcmp(a, ea, 8 * n) || memcmp(b, eb, 8 * n) || memcmp(c, ec, 8 * n) ? "an array differs" : NULL;
}
const struct suite_kernel suite_stream = {"stream", setup, reset, run, digest, check};
