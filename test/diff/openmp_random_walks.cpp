// openmp_random_walks: node2vec-style random walks, omp parallel for, -O3.
// flags: -O3 -fopenmp
// The walks run over a GAP-like CSR graph class. The walk's length is a shared value
// of the region, reloaded after each store of the path; GVN's load PRE puts
// that reload on the chunk loop's back edge in a block of its own, which
// took the loop's mark away ("removed by earlier optimisations"), and then
// made its exit look like an early exit after a store.
#include "common.h"
#include <cstdint>
#include <vector>

struct CSRGraph {
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> neighs;
  uint64_t degree(uint32_t u) const { return offsets[u + 1] - offsets[u]; }
  uint32_t neighbor(uint32_t u, uint64_t k) const { return neighs[offsets[u] + k]; }
};

void walks(const CSRGraph &g, uint32_t num_walks, uint32_t walk_len, std::vector<uint32_t> &out) {
#pragma omp parallel for
#pragma memcoro parallel(N)
  for (uint32_t w = 0; w < num_walks; w++) {
    uint64_t state = w * 0x2545F4914F6CDD1Dull + 1;
    uint32_t u = w;
    uint32_t *path = &out[(size_t)w * walk_len];
    for (uint32_t s = 0; s < walk_len; s++) {
      path[s] = u;
      uint64_t d = g.degree(u);
      if (d == 0)
        break;
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      u = g.neighbor(u, state % d);
    }
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  uint32_t vertices = (uint32_t)n + 64;
  CSRGraph g;
  g.offsets.push_back(0);
  for (uint32_t v = 0; v < vertices; v++) {
    uint32_t d = v % 7 == 0 ? 0 : (uint32_t)(diff_rand() % 9);
    for (uint32_t k = 0; k < d; k++) g.neighs.push_back((uint32_t)(diff_rand() % vertices));
    g.offsets.push_back(g.neighs.size());
  }
  for (uint32_t len : {1u, 5u, 12u}) {
    std::vector<uint32_t> out((size_t)n * len, 0xffffffffu);
    walks(g, (uint32_t)n, len, out);
    uint64_t h = 0;
    for (uint32_t x : out) h = h * 1000003 + x;
    printf("len %u: %llx\n", len, (unsigned long long)h);
  }
  return 0;
}
