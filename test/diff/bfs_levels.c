// bfs_levels: a whole multi-source BFS, level by level, as users write it (unsigned vertex ids, so the parent stored is never negative): first writer wins on parent[v] and the frontier append, no pragma (ring); every level's frontier order decides the next level's parents.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 4096 };
  // Skewed degrees: a few vertices with many edges, most with few.
  uint64_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  for (int v = 0; v < V; ++v)
    offsets[v + 1] = offsets[v] + (v % 97 == 0 ? 200 + diff_rand() % 200 : diff_rand() % 6);
  uint32_t *adj = diff_alloc(sizeof *adj * (offsets[V] + 1));
  for (uint64_t e = 0; e < offsets[V]; ++e) adj[e] = diff_rand() % V;
  int64_t *parent = diff_alloc(sizeof *parent * V);
  for (int v = 0; v < V; ++v) parent[v] = -1;
  uint32_t *frontier = diff_alloc(sizeof *frontier * (V + n + 1));
  uint32_t *next = diff_alloc(sizeof *next * (V + 1));
  size_t nfrontier = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t r = diff_rand() % V;
    parent[r] = r;
    frontier[nfrontier++] = r;
  }
  uint64_t levels = 0, order = 0;
  while (nfrontier > 0) {
    size_t nnext = 0;
#pragma memcoro parallel(N) remote(offsets, adj, parent)
    for (size_t i = 0; i < nfrontier; ++i) {
      const uint32_t u = frontier[i];
      for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
        const uint32_t v = adj[e];
        if (parent[v] < 0) {
          parent[v] = u;
          next[nnext++] = v;
        }
      }
    }
    for (size_t k = 0; k < nnext; ++k) order = order * 1000003u + next[k];
    uint32_t *t = frontier;
    frontier = next;
    next = t;
    nfrontier = nnext;
    ++levels;
  }
  printf("%llu %llx %llx\n", (unsigned long long)levels, (unsigned long long)diff_hash_u64((uint64_t *)parent, V),
         (unsigned long long)order);
  return 0;
}
