// prefetch_append: the next frontier of a BFS by depth (bc's forward step without its atomics): an append inside the neighbour loop, in iteration order, judged by the cost model: kept in serial order with prefetches ahead.
// cost-model: on
#include "common.h"

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  static volatile int vertices = 4096;
  const int V = vertices;
  uint64_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  // Degrees 0-11, and a few hubs longer than any distance ahead.
  for (int v = 0; v < V; ++v) offsets[v + 1] = offsets[v] + (v % 97 == 0 ? 300 : diff_rand() % 12);
  uint32_t *adj = diff_alloc(sizeof *adj * offsets[V]);
  for (uint64_t e = 0; e < offsets[V]; ++e) adj[e] = diff_rand() % V;
  int32_t *depth = diff_alloc(sizeof *depth * V);
  for (int v = 0; v < V; ++v) depth[v] = (int32_t)(diff_rand() % 4);
  uint32_t *frontier = diff_alloc(sizeof *frontier * ((size_t)n + 1));
  for (int i = 0; i < n; ++i) frontier[i] = diff_rand() % V;
  uint32_t *next = diff_alloc(sizeof *next * (offsets[V] * 2 + 1));
  size_t nnext = 0;
  const int32_t d = 2;
#pragma memcoro parallel(N) remote(offsets, adj, depth)
  for (size_t i = 0; i < (size_t)n; ++i) {
    uint32_t u = frontier[i];
    for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e)
      if (depth[adj[e]] == d)
        next[nnext++] = adj[e];
  }
  printf("%zu %llx\n", nnext, (unsigned long long)diff_hash_i32((const int32_t *)next, nnext));
  return 0;
}
