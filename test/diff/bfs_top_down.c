// bfs_top_down: one BFS level as users write it: first writer wins on parent[v] and the frontier append next[n++] = v, no pragma (ring).
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 8192 };
  int32_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  for (int v = 0; v < V; ++v) offsets[v + 1] = offsets[v] + (int32_t)(diff_rand() % 12);
  int32_t *edges = diff_alloc(sizeof *edges * (offsets[V] + 1));
  for (int e = 0; e < offsets[V]; ++e) edges[e] = diff_rand() % V;
  int64_t *parent = diff_alloc(sizeof *parent * V);
  for (int v = 0; v < V; ++v) parent[v] = -1;
  int32_t *frontier = diff_alloc(sizeof *frontier * (n + 1));
  for (int i = 0; i < n; ++i) frontier[i] = diff_rand() % V;
  int32_t *next = diff_alloc(sizeof *next * V);
  size_t nnext = 0;
#pragma memcoro parallel(N) remote(offsets, edges, parent)
  for (int i = 0; i < n; ++i) {
    int32_t u = frontier[i];
    for (int32_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      int32_t v = edges[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
  printf("%zu %llx %llx\n", nnext, (unsigned long long)diff_hash_u64((uint64_t *)parent, V),
         (unsigned long long)diff_hash_i32(next, nnext));
  return 0;
}
