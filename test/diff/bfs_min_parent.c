// bfs_min_parent: one BFS level over a CSR graph; a vertex keeps the smallest parent, so the answer does not depend on order.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 8192, DEG = 6 };
  int32_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  int32_t *edges = diff_alloc(sizeof *edges * V * DEG);
  int32_t *parent = diff_alloc(sizeof *parent * V);
  for (int v = 0; v <= V; ++v) offsets[v] = v * DEG;
  for (int e = 0; e < V * DEG; ++e) edges[e] = diff_rand() % V;
  for (int v = 0; v < V; ++v) parent[v] = INT32_MAX;
  int32_t *frontier = diff_alloc(sizeof *frontier * (n + 1));
  for (int i = 0; i < n; ++i) frontier[i] = diff_rand() % V;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int32_t u = frontier[i];
    for (int32_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      int32_t v = edges[e];
      if (u < parent[v])
        parent[v] = u;
    }
  }
  printf("%llx\n", (unsigned long long)diff_hash_i32(parent, V));
  return 0;
}
