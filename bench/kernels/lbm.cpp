// SPDX-License-Identifier: Apache-2.0
// lbm: a 519.lbm-like D3Q19 lattice-Boltzmann step (BGK collision, periodic
// box, obstacle cells bounce back) from srcGrid to dstGrid, 20 doubles per
// cell as in lbm. Unlike lbm, which pushes into the neighbours, each cell
// pulls from them: then no two cells write the same value and the result does
// not depend on the order of cells. One op = one cell updated.
#include "../harness.h"

namespace lbm {

constexpr int kQ = 19, kStride = 20; // distributions, doubles per cell
constexpr int kEx[kQ] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
constexpr int kEy[kQ] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
constexpr int kEz[kQ] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
constexpr int kOpposite[kQ] = {0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17};
constexpr double kW0 = 1.0 / 3, kW1 = 1.0 / 18, kW2 = 1.0 / 36;
constexpr double kOmega = 1.95; // lbm's relaxation

struct Grid {
  int nx, ny, nz;
  size_t cells() const { return (size_t)nx * ny * nz; }
};

// Index of the cell at offset (dx, dy, dz) from (x, y, z), wrapping around.
inline size_t neighbour(Grid g, int x, int y, int z, int dx, int dy, int dz) {
  x += dx;
  y += dy;
  z += dz;
  x = x < 0 ? x + g.nx : x >= g.nx ? x - g.nx : x;
  y = y < 0 ? y + g.ny : y >= g.ny ? y - g.ny : y;
  z = z < 0 ? z + g.nz : z >= g.nz ? z - g.nz : z;
  return ((size_t)z * g.ny + y) * g.nx + x;
}

// One cell's update, shared by every variant so that all of them do the same
// floating-point operations in the same order. Always inlined: 519.lbm writes
// it as the loop body itself (macros), and memcoro can only interleave a loop
// whose body it sees (a call that may touch memory keeps the loop serial).
[[gnu::always_inline]] inline void update_cell(Grid g, const double *src, double *dst, const uint8_t *obstacle, size_t c) {
  const int x = (int)(c % g.nx), y = (int)(c / g.nx % g.ny), z = (int)(c / g.nx / g.ny);
  double f[kQ];
  for (int q = 0; q < kQ; ++q)
    f[q] = src[neighbour(g, x, y, z, -kEx[q], -kEy[q], -kEz[q]) * kStride + q];
  double *out = &dst[c * kStride];
  if (obstacle[c]) {
    for (int q = 0; q < kQ; ++q)
      out[kOpposite[q]] = f[q];
    return;
  }
  double rho = 0, ux = 0, uy = 0, uz = 0;
  for (int q = 0; q < kQ; ++q) {
    rho += f[q];
    ux += kEx[q] * f[q];
    uy += kEy[q] * f[q];
    uz += kEz[q] * f[q];
  }
  ux /= rho;
  uy /= rho;
  uz /= rho;
  const double u2 = 1.5 * (ux * ux + uy * uy + uz * uz);
  for (int q = 0; q < kQ; ++q) {
    const double w = q == 0 ? kW0 : q < 7 ? kW1 : kW2;
    const double eu = kEx[q] * ux + kEy[q] * uy + kEz[q] * uz;
    const double feq = w * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - u2);
    out[q] = f[q] + kOmega * (feq - f[q]);
  }
}

using SerialFn = void (*)(Grid g, const double *src, double *dst, const uint8_t *obstacle);

} // namespace lbm
using namespace lbm;

namespace {

// The loop as a user writes it.
void lbm_serial(Grid g, const double *src, double *dst, const uint8_t *obstacle) {
  const size_t ncells = g.cells();
#pragma memcoro MEMCORO_PARALLEL remote(src, dst)
  for (size_t c = 0; c < ncells; ++c)
    update_cell(g, src, dst, obstacle, c);
}
BENCH_REGISTER_SERIAL(SerialFn, lbm_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// Starts the misses of cell c: its neighbours lie in the 9 rows (y-1..y+1,
// z-1..z+1) around it; plus its own destination lines.
inline void prefetch_cell(Grid g, const double *src, double *dst, size_t c) {
  const int x = (int)(c % g.nx), y = (int)(c / g.nx % g.ny), z = (int)(c / g.nx / g.ny);
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      __builtin_prefetch(&src[neighbour(g, x, y, z, 0, dy, dz) * kStride]);
  __builtin_prefetch(&dst[c * kStride], 1, 3);
  __builtin_prefetch(&dst[c * kStride + 8], 1, 3);
  __builtin_prefetch(&dst[c * kStride + 16], 1, 3);
}

// The expert's form: the cells are visited in order, so prefetch `distance`
// cells ahead.
void lbm_amac(Grid g, const double *src, double *dst, const uint8_t *obstacle, int distance) {
  const size_t ncells = g.cells();
  for (size_t c = 0; c < ncells; ++c) {
    if (c + distance < ncells)
      prefetch_cell(g, src, dst, c + distance);
    update_cell(g, src, dst, obstacle, c);
  }
}

bench::Task lbm_worker(Grid g, const double *src, double *dst, const uint8_t *obstacle,
                       size_t &cursor) {
  const size_t ncells = g.cells();
  for (size_t c; (c = cursor++) < ncells;) {
    prefetch_cell(g, src, dst, c);
    co_await std::suspend_always{};
    update_cell(g, src, dst, obstacle, c);
  }
}

void lbm_coro(Grid g, const double *src, double *dst, const uint8_t *obstacle, int n) {
  size_t cursor = 0;
  bench::run_interleaved(n, [&](int) { return lbm_worker(g, src, dst, obstacle, cursor); });
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  // src, dst and the reference result: a cube of a sixth of --bytes each
  // (about 100^3 cells, ~170 MiB per grid at 1G; a step costs ~100 ns a cell, and a
  // full run of the suite must stay under 20 minutes).
  const size_t cell_bytes = kStride * sizeof(double);
  int side = 4;
  while ((size_t)(side + 1) * (side + 1) * (side + 1) * cell_bytes * 6 <= o.bytes)
    ++side;
  const Grid g{side, side, side};
  const size_t ncells = g.cells(), nvalues = ncells * kStride;
  bench::RemoteArray<double> src(nvalues), dst(nvalues), expected(nvalues);
  std::vector<uint8_t> obstacle(ncells);
  bench::Rng rng(o.seed);
  for (size_t c = 0; c < ncells; ++c) {
    obstacle[c] = rng.below(20) == 0; // 5% of the cells, scattered
    for (int q = 0; q < kQ; ++q) {
      const double w = q == 0 ? kW0 : q < 7 ? kW1 : kW2;
      src[c * kStride + q] = w * (1.0 + 0.01 * (rng.uniform() - 0.5));
    }
  }
  // The reference step, done here with the shared cell update in a plain loop.
  for (size_t c = 0; c < ncells; ++c)
    update_cell(g, src.data, expected.data, obstacle.data(), c);
  const int repeat = (int)std::max<uint64_t>(1, (o.ops ? o.ops : 1u << 20) / ncells);

  const double *s = src.data;
  double *d = dst.data;
  const uint8_t *ob = obstacle.data();
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(g, s, d, ob); }, [=](int n) { lbm_coro(g, s, d, ob, n); },
      [=](int n) { lbm_amac(g, s, d, ob, n); });

  bench::Kernel k;
  k.name = "lbm";
  k.ops = ncells;
  k.repeat = repeat;
  k.reset = [&] { std::fill(d, d + nvalues, 0.0); };
  k.verify = [&](std::string &why) {
    for (size_t c = 0; c < ncells; ++c)
      for (int q = 0; q < kQ; ++q)
        if (std::memcmp(&d[c * kStride + q], &expected[c * kStride + q], sizeof(double)) != 0) {
          char values[96];
          std::snprintf(values, sizeof values, " (%.17g, reference %.17g)", d[c * kStride + q],
                        expected[c * kStride + q]);
          why = "cell " + std::to_string(c) + " distribution " + std::to_string(q) +
                " differs from the reference step" + values;
          return false;
        }
    return true;
  };
  std::printf("lbm: %d^3 cells\n", side);
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
