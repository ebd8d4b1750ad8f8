// ubsan_int_counter: `for (int u = 0; u < g->num_nodes; u++)` with an `int` counter against a 64-bit bound under -fsanitize=undefined (GAP's NodeID loops: pr, cc, tc, sssp): the counter's step is checked for overflow and, computed by the check, may wrap to scalar evolution, so the loop had no trip count. Beside its check the counter steps without wrapping, as without the sanitizer, and the loop interleaves (issue 17, item 8).
// flags: -fsanitize=undefined
#include "common.h"

struct graph {
  int64_t num_nodes;
  const int64_t *index;
  const int32_t *neighs;
};

static int64_t T[4096];

__attribute__((noinline)) void relax(const struct graph *g, int64_t *dist) {
#pragma memcoro parallel(N)
  for (int u = 0; u < g->num_nodes; u++) {
    int64_t best = dist[u];
    for (int64_t e = g->index[u]; e < g->index[u + 1]; e++) {
      int64_t d = T[g->neighs[e] & 4095] + u;
      best = d < best ? d : best;
    }
    dist[u] = best;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *index = diff_alloc(sizeof(int64_t) * (n + 2));
  for (int v = 0; v <= n; ++v) index[v + 1] = index[v] + (int64_t)(diff_rand() % 5);
  int32_t *neighs = diff_alloc(sizeof(int32_t) * (index[n + 1] + 1));
  for (int64_t e = 0; e < index[n + 1]; ++e) neighs[e] = (int32_t)(diff_rand() % 100000);
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 1000);
  int64_t *dist = diff_alloc(sizeof(int64_t) * (n + 1));
  for (int v = 0; v < n; ++v) dist[v] = (int64_t)(diff_rand() % 2000);
  struct graph g = {n, index, neighs};
  relax(&g, dist);
  printf("%llx\n", (unsigned long long)diff_hash_u64((const uint64_t *)dist, n));
  return 0;
}
