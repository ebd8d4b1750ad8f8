// prefetch_bfs: one top-down BFS level as users write it (first writer wins, append), judged by the cost model: kept in serial order with prefetches ahead; the edge and frontier arrays end at a page no one may read, so a read ahead past them faults.
// cost-model: on
#include "common.h"

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // A size the compiler does not see, as the data of a real program's: the
  // cost model would keep tables it knows are small out of the plan.
  static volatile int vertices = 4096;
  const int V = vertices;
  uint64_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  // Degrees 0-11, and a few hubs longer than any distance ahead.
  for (int v = 0; v < V; ++v) offsets[v + 1] = offsets[v] + (v % 97 == 0 ? 300 : diff_rand() % 12);
  uint32_t *adj = diff_before_guard(offsets[V], sizeof *adj);
  for (uint64_t e = 0; e < offsets[V]; ++e) adj[e] = diff_rand() % V;
  int64_t *parent = diff_alloc(sizeof *parent * V);
  for (int v = 0; v < V; ++v) parent[v] = -1;
  uint32_t *frontier = diff_before_guard((size_t)n + 1, sizeof *frontier);
  // The last vertex owns the edges just before the guard page.
  for (int i = 0; i <= n; ++i) frontier[i] = i == n - 1 ? V - 1 : diff_rand() % V;
  uint32_t *next = diff_alloc(sizeof *next * (offsets[V] + 1));
  size_t nnext = 0;
#pragma memcoro parallel(N) remote(offsets, adj, parent)
  for (size_t i = 0; i < (size_t)n; ++i) {
    uint32_t u = frontier[i];
    for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      uint32_t v = adj[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
  printf("%zu %llx\n", nnext, (unsigned long long)diff_hash_u64((uint64_t *)parent, V));
  for (size_t k = 0; k < nnext; k += 97)
    printf("%u ", next[k]);
  printf("\n");
  return 0;
}
