// Tests the cost model's reorder window (split/SplitCost.cpp): the loads of
// an inner loop are left to the out-of-order core when its body is short
// (a neighbour sum), and keep their suspensions when the body is so long per
// load that the window holds only a few of them (k-mer counting: four hashes
// per counter). -memcoro-overlap-window moves the line.
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
