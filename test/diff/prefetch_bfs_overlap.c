// prefetch_bfs_overlap: a BFS level whose parent[] shares memory with the tail of offsets[], so that claiming vertex 5 rewrites offsets[V - 2], the bound of vertex V - 3's edge list, mid-loop; the check in front of the edge loop (split/GuardedBound.cpp) must send that list to the loop as written, which reads its bound again.
// cost-model: on
#include "common.h"

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  static volatile int vertices = 4096;
  const int V = vertices;
  // offsets[0 .. V], then parent[0 .. V): parent[k] is offsets[V - 7 + k] for k < 8.
  uint64_t *mem = diff_alloc(sizeof *mem * (2 * (size_t)V + 8));
  // Through a volatile, as two arrays a program got from elsewhere: the
  // compiler sees two pointers that may alias (both 64-bit integers), as in
  // bfs, not one array.
  static uint64_t *volatile hidden;
  hidden = mem + V - 7;
  uint64_t *offsets = mem;
  int64_t *parent = (int64_t *)hidden;
  for (int v = 0; v < V; ++v)
    offsets[v + 1] = offsets[v] + (v % 97 == 0 ? 300 : diff_rand() % 12);
  uint32_t *adj = diff_alloc(sizeof *adj * (offsets[V] + 1));
  // Vertex 5 is nobody's neighbour but V - 3's first; vertices below 8 are
  // the offsets they share (all taken, parent >= 0), except 5.
  for (uint64_t e = 0; e < offsets[V]; ++e) {
    uint32_t v = 8 + diff_rand() % (V - 8);
    adj[e] = v;
  }
  adj[offsets[V - 3]] = 5;
  // Vertex V - 3's list runs to "offsets[V - 2]" = parent[5] = -1 until 5 is
  // claimed: then it ends at V - 3 (and vertex V - 2's list starts there).
  offsets[V - 2] = (uint64_t)-1;
  for (int v = 8; v < V; ++v)
    parent[v] = -1;
  uint32_t *frontier = diff_alloc(sizeof *frontier * ((size_t)n + 1));
  for (int i = 0; i < n; ++i)
    frontier[i] = i == n / 2 ? (uint32_t)V - 3 : (uint32_t)(diff_rand() % (V - 8));
  uint32_t *next = diff_alloc(sizeof *next * (offsets[V - 1] + V + 1));
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
  printf("%zu %llx %lld\n", nnext, (unsigned long long)diff_hash_u64((uint64_t *)parent, V), (long long)parent[5]);
  for (size_t k = 0; k < nnext; k += 97)
    printf("%u ", next[k]);
  printf("\n");
  return 0;
}
