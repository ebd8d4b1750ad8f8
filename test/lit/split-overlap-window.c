// Tests the cost model's reorder window (split/SplitCost.cpp): the loads of
// an inner loop are left to the out-of-order core when its body is short
// (a neighbour sum), and keep their suspensions when the body is so long per
// load that the window holds only a few of them (k-mer counting: four hashes
// per counter, or ten fields of two grid points per nuclide, counted as the
// lines they take). -memcoro-overlap-window moves the line.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -mllvm -memcoro-overlap-window=1000 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE
#include <stdint.h>

void neighbour_sum(float *out, const float *contrib, const int64_t *index, const int32_t *neighs, int64_t n) {
#pragma memcoro parallel(16)
  for (int64_t u = 0; u < n; u++) {
    float total = 0;
    for (int64_t e = index[u]; e < index[u + 1]; e++)
      total += contrib[neighs[e]];
    out[u] = total;
  }
}
// Not suspended; its rows tile one stream, prefetched across rows instead (split/PrefetchEdges.cpp).
// CHECK: split-overlap-window.c:{{[0-9]+}}:{{[0-9]+}}: remark: loop turned into a prefetching loop in serial order: {{.*}}the processor already overlaps the inner loop's independent loads
// WIDE: split-overlap-window.c:{{[0-9]+}}:{{[0-9]+}}: remark: loop turned into a prefetching loop in serial order

static inline uint64_t mix(uint64_t key, uint64_t seed) {
  key ^= seed;
  key = (~key) + (key << 21);
  key = key ^ (key >> 24);
  key = (key + (key << 3)) + (key << 8);
  key = key ^ (key >> 14);
  key = (key + (key << 2)) + (key << 4);
  key = key ^ (key >> 28);
  return key + (key << 31);
}

void count_kmers(uint32_t *counts, uint64_t mask, const uint8_t *reads, int64_t nreads) {
#pragma memcoro parallel(16)
  for (int64_t r = 0; r < nreads; r++) {
    uint64_t kmer = 0;
    for (int i = 0; i < 100; i++) {
      kmer = ((kmer << 2) | reads[r * 100 + i]) & ((1ull << 62) - 1);
      for (int d = 0; d < 4; d++)
        counts[(uint64_t)d * (mask + 1) + (mix(kmer, d * 0x9E3779B97F4A7C15ull) & mask)]++;
    }
  }
}
// CHECK: split-overlap-window.c:[[@LINE-9]]:3: remark: loop turned into 16 interleaved coroutines
// WIDE: split-overlap-window.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}an independent load of an inner loop

// XSBench's macroscopic cross section: per nuclide, the two grid points
// around the energy, ten fields of two adjacent 48-byte records. The window
// is measured per line loaded (two lines and the index's), not per load:
// ten field loads would make the body look short.
typedef struct {
  double energy, total_xs, elastic_xs, absorbtion_xs, fission_xs, nu_fission_xs;
} point;
void macro_xs(double *out, const double *energies, const int *mats, const int *index, const point *grid,
              long n_gridpoints, int nnucs, long n) {
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++) {
    double e = energies[i], xs[5] = {0};
    for (int j = 0; j < nnucs; j++) {
      int nuc = mats[j];
      const point *low = &grid[nuc * n_gridpoints + index[i * 64 + nuc]], *high = low + 1;
      double f = (high->energy - e) / (high->energy - low->energy);
      xs[0] += high->total_xs - f * (high->total_xs - low->total_xs);
      xs[1] += high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
      xs[2] += high->absorbtion_xs - f * (high->absorbtion_xs - low->absorbtion_xs);
      xs[3] += high->fission_xs - f * (high->fission_xs - low->fission_xs);
      xs[4] += high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
    }
    out[i] = xs[0] + xs[1] + xs[2] + xs[3] + xs[4];
  }
}
// CHECK: split-overlap-window.c:[[@LINE-15]]:3: remark: loop turned into 16 interleaved coroutines
// WIDE: split-overlap-window.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}an independent load of an inner loop
