// peel_atomic: k-core peeling as PKC writes it: a plain read of deg[u] decides whether to __sync_fetch_and_sub it, the old value decides whether u is appended to the level's buffer, and an over-decrement is given back with __sync_fetch_and_add. The read and the atomic update may lie on either side of a yield (the update applies itself to the value it finds). Which iteration appends u depends on the order of the atomics, so only the core numbers, which do not, are printed.
#include "common.h"
enum { V = 2048 };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // The trip count sets the density: every run peels other cores.
  int64_t *off = diff_alloc(sizeof *off * (V + 1));
  for (int v = 0; v < V; ++v)
    off[v + 1] = off[v] + (v % 61 == 0 ? 40 + diff_rand() % 40 : diff_rand() % (2 + n % 9));
  uint32_t *adj = diff_alloc(sizeof *adj * (off[V] + 1));
  for (int64_t e = 0; e < off[V]; ++e) adj[e] = diff_rand() % V;
  int *deg = diff_alloc(sizeof *deg * V);
  uint32_t *buff = diff_alloc(sizeof *buff * (V + 1));
  for (int v = 0; v < V; ++v) deg[v] = (int)(off[v + 1] - off[v]);
  long visited = 0;
  int level = 0;
  while (visited < V) {
    long start = 0, end = 0;
    for (int v = 0; v < V; ++v)
      if (deg[v] == level)
        buff[end++] = v;
    while (start < end) {
      long stop = end;
#pragma memcoro parallel(N) remote(off, adj, deg)
      for (long i = start; i < stop; ++i) {
        uint32_t v = buff[i];
        for (int64_t j = off[v]; j < off[v + 1]; ++j) {
          uint32_t u = adj[j];
          if (deg[u] > level) {
            int du = __sync_fetch_and_sub(&deg[u], 1);
            if (du == level + 1)
              buff[end++] = u;
            if (du <= level)
              __sync_fetch_and_add(&deg[u], 1);
          }
        }
      }
      start = stop;
    }
    visited += end;
    ++level;
  }
  printf("%d %llx\n", level, (unsigned long long)diff_hash_u64((uint64_t *)deg, V / 2));
  return 0;
}
