/* SPDX-License-Identifier: Apache-2.0 */
/* lbm: one D3Q19 lattice-Boltzmann step (BGK collision, periodic box,
 * obstacle cells bounce back) on a 16x16x24 box of far cells, 20 doubles per
 * cell as in 519.lbm. Each cell pulls its 19 distributions from its
 * neighbours (19 far lines) and writes its own (3 far lines), so no two
 * cells write one value and the order of cells does not matter. parallel(16):
 * each suspended cell holds about 20 AMU requests, and 16 cells fit the AMU's
 * 512-entry request table. */
#include "suite.h"

#include <string.h>

#ifndef LBM_PAR
#define LBM_PAR 16
#endif
enum { NX = 16, NY = 16, NZ = 24, CELLS = NX * NY * NZ, Q = 19, STRIDE = 20 };
#define OMEGA 1.95

/* The 19 velocities: every (dx, dy, dz) in {-1, 0, 1}^3 with at most two
 * non-zero components, their opposites and weights; made by setup. */
static int ex[Q], ey[Q], ez[Q], opposite[Q];
static double weight[Q];
static double *src, *dst, *expected;
static uint8_t *obstacle;
static uint64_t ncells; /* the first cells of the box, all at scale 1 */

static uint64_t cell_at(int x, int y, int z) {
  x = (x + NX) % NX;
  y = (y + NY) % NY;
  z = (z + NZ) % NZ;
  return ((uint64_t)z * NY + (uint64_t)y) * NX + (uint64_t)x;
}

/* One cell: the same operations in the same order for the loop and the
 * reference. */
#define LBM_CELL(SRC, DST, c)                                                                                   \
  do {                                                                                                         \
    int x = (int)((c) % NX), y = (int)((c) / NX % NY), z = (int)((c) / (NX * NY));                             \
    double f[Q];                                                                                               \
    for (int q = 0; q < Q; ++q)                                                                                \
      f[q] = SRC[cell_at(x - ex[q], y - ey[q], z - ez[q]) * STRIDE + q];                                       \
    if (obstacle[c]) {                                                                                         \
      for (int q = 0; q < Q; ++q)                                                                              \
        DST[(c) * STRIDE + opposite[q]] = f[q];                                                                \
    } else {                                                                                                   \
      double rho = 0, ux = 0, uy = 0, uz = 0;                                                                  \
      for (int q = 0; q < Q; ++q) {                                                                            \
        rho += f[q];                                                                                           \
        ux += ex[q] * f[q];                                                                                    \
        uy += ey[q] * f[q];                                                                                    \
        uz += ez[q] * f[q];                                                                                    \
      }                                                                                                        \
      ux /= rho;                                                                                               \
      uy /= rho;                                                                                               \
      uz /= rho;                                                                                               \
      double u2 = 1.5 * (ux * ux + uy * uy + uz * uz);                                                         \
      for (int q = 0; q < Q; ++q) {                                                                            \
        double eu = ex[q] * ux + ey[q] * uy + ez[q] * uz;                                                      \
        double feq = weight[q] * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - u2);                                  \
        DST[(c) * STRIDE + q] = f[q] + OMEGA * (feq - f[q]);                                                   \
      }                                                                                                        \
    }                                                                                                          \
  } while (0)

__attribute__((noinline)) void lbm_loop(const double __remote *from, double __remote *to, uint64_t ncells) {
#pragma memcoro parallel(LBM_PAR)
  for (uint64_t c = 0; c < ncells; ++c)
    LBM_CELL(from, to, c);
}

static void setup(double scale) {
  ncells = scale >= 1 ? CELLS : (uint64_t)(CELLS * scale);
  int q = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int len = dx * dx + dy * dy + dz * dz;
        if (len == 3)
          continue;
        ex[q] = dx, ey[q] = dy, ez[q] = dz;
        weight[q] = len == 0 ? 1.0 / 3 : len == 1 ? 1.0 / 18 : 1.0 / 36;
        ++q;
      }
  for (int i = 0; i < Q; ++i)
    for (int j = 0; j < Q; ++j)
      if (ex[j] == -ex[i] && ey[j] == -ey[i] && ez[j] == -ez[i])
        opposite[i] = j;
  src = suite_far_alloc(8ull * CELLS * STRIDE);
  dst = suite_far_alloc(8ull * CELLS * STRIDE);
  expected = suite_alloc(8ull * CELLS * STRIDE);
  obstacle = suite_alloc(CELLS);
  uint64_t st = 5;
  for (uint64_t c = 0; c < CELLS; ++c) {
    obstacle[c] = splitmix64(&st) % 10 == 0;
    for (int k = 0; k < STRIDE; ++k)
      src[c * STRIDE + k] = (k < Q ? weight[k] : 0) * (1.0 + (double)(splitmix64(&st) % 1000) / 10000);
  }
  for (uint64_t c = 0; c < CELLS; ++c)
    LBM_CELL(src, expected, c);
}
static void reset(void) { memset(dst, 0, 8 * ncells * STRIDE); }
static uint64_t run(void) {
  lbm_loop((const double __remote *)src, (double __remote *)dst, ncells);
  return 0;
}
static uint64_t digest(uint64_t result) {
  (void)result;
  uint64_t h = 0, w;
  for (uint64_t k = 0; k < ncells * STRIDE; ++k) {
    memcpy(&w, &dst[k], 8);
    h = mix64(h ^ w);
  }
  return h;
}
static const char *check(uint64_t sum) {
  (void)sum;
  return memcmp(dst, expected, 8 * ncells * STRIDE) ? "a distribution differs from the reference step" : NULL;
}
const struct suite_kernel suite_lbm = {"lbm", setup, reset, run, digest, check};
