/* SPDX-License-Identifier: Apache-2.0 */
/* memcoro-split miscompile found by the lbm verifier (docs/bench.md): a gather
 * of 19 neighbours into a local array, then a scatter of it; parallel(3)
 * against the serial loop. Prints the number of wrong values, exits 1 if any.
 *   build/bin/memcoro-cc -O3 bench/repro/gather_scatter.c -o /tmp/r && /tmp/r
 * (with -fno-memcoro: 0 wrong values). */
#include <stdio.h>
#include <stdlib.h>
#include <memcoro/memcoro.h>
enum { Q = 19, S = 20 };
static const int EX[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int EY[Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int OPP[Q] = {0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17};
static const int EZ[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
static size_t nb(int n, int x, int y, int z, int dx, int dy, int dz) {
  x += dx; y += dy; z += dz;
  x = x < 0 ? x + n : x >= n ? x - n : x;
  y = y < 0 ? y + n : y >= n ? y - n : y;
  z = z < 0 ? z + n : z >= n ? z - n : z;
  return ((size_t)z * n + y) * n + x;
}
__attribute__((noinline)) void step(int n, const double *src, double *dst) {
  const size_t cells = (size_t)n * n * n;
#pragma memcoro parallel(3) remote(src, dst)
  for (size_t c = 0; c < cells; ++c) {
    const int x = (int)(c % n), y = (int)(c / n % n), z = (int)(c / n / n);
    double f[Q];
    for (int q = 0; q < Q; ++q)
      f[q] = src[nb(n, x, y, z, -EX[q], -EY[q], -EZ[q]) * S + q];
    for (int q = 0; q < Q; ++q)
      dst[c * S + OPP[q]] = f[q];
  }
}
int main(void) {
  const int n = 6;
  const size_t len = (size_t)n * n * n * S;
  double *src = malloc(len * sizeof *src), *dst = calloc(len, sizeof *dst);
  for (size_t i = 0; i < len; ++i) src[i] = (double)i;
  step(n, src, dst);
  size_t bad = 0;
  for (size_t c = 0; c < (size_t)n * n * n; ++c)
    for (int q = 0; q < Q; ++q) {
      const double want = src[nb(n, (int)(c % n), (int)(c / n % n), (int)(c / n / n), -EX[q], -EY[q], -EZ[q]) * S + q];
      if (dst[c * S + OPP[q]] != want && bad++ < 3)
        printf("cell %zu q %d: %g, want %g\n", c, q, dst[c * S + OPP[q]], want);
    }
  printf("%zu wrong values\n", bad);
  return bad != 0;
}
