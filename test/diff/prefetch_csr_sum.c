// prefetch_csr_sum: a pull PageRank-like neighbour sum under -memcoro-prefetch-overlapped: kept in serial order, nbr[] read ahead up to each list's end and contrib[] prefetched ahead.
// cost-model: on
// flags: -mllvm -memcoro-prefetch-overlapped
#include "common.h"
struct range { uint32_t begin, end; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  size_t nv = 1000 + (size_t)n, ne = 0;
  struct range *in = diff_alloc(sizeof *in * nv);
  uint32_t *nbr = diff_alloc(sizeof *nbr * nv * 8);
  uint64_t *contrib = diff_alloc(sizeof *contrib * nv), *next = diff_alloc(sizeof *next * nv);
  for (size_t u = 0; u < nv; ++u) {
    in[u].begin = (uint32_t)ne;
    for (int d = diff_rand() % 9; d > 0; --d) nbr[ne++] = diff_rand() % nv;
    in[u].end = (uint32_t)ne;
    contrib[u] = diff_rand() % 1000;
  }
#pragma memcoro parallel(N)
  for (int u = 0; u < n; ++u) {
    uint64_t sum = 0;
    for (uint32_t e = in[u].begin; e < in[u].end; ++e)
      sum += contrib[nbr[e]];
    next[u] = sum;
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64(next, n));
  return 0;
}
