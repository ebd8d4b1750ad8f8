// guarded_inner_break: Luby's maximal-independent-set pick step. A vertex
// still undecided joins when no neighbour has a higher priority; the
// neighbour scan breaks on the first. Each path to the latch computes `v + 1`
// on its own, and the counter's next value, a phi of them, hid the trip
// count ("the number of iterations cannot be computed"); a second loop does
// the same through a helper, as MIS codes write it.
#include "common.h"

typedef struct {
  uint32_t n;
  uint64_t *off;
  uint32_t *adj;
} graph_t;

static int is_local_max(const graph_t *g, const uint32_t *prio, uint32_t v) {
  for (uint64_t e = g->off[v]; e < g->off[v + 1]; e++)
    if (prio[g->adj[e]] > prio[v])
      return 0;
  return 1;
}

static void pick(uint32_t n, const uint64_t *off, const uint32_t *adj, const uint8_t *state, const uint32_t *prio,
                 uint8_t *join) {
#pragma memcoro parallel(N)
  for (uint32_t v = 0; v < n; v++) {
    int ok = 0;
    if (state[v] == 0) {
      ok = 1;
      for (uint64_t e = off[v]; e < off[v + 1]; e++)
        if (prio[adj[e]] > prio[v]) {
          ok = 0;
          break;
        }
    }
    join[v] = ok;
  }
}

static void pick_with_helper(const graph_t *g, const uint8_t *state, const uint32_t *prio, uint8_t *join) {
#pragma memcoro parallel(N)
  for (uint32_t v = 0; v < g->n; v++)
    join[v] = state[v] == 0 && is_local_max(g, prio, v);
}

int main(int argc, char **argv) {
  uint32_t n = (uint32_t)diff_trips(argc, argv);
  graph_t g = {n, diff_alloc(sizeof(uint64_t) * (n + 1)), diff_alloc(sizeof(uint32_t) * 8 * (size_t)n)};
  uint8_t *state = diff_alloc(n), *join = diff_alloc(n), *join2 = diff_alloc(n);
  uint32_t *prio = diff_alloc(sizeof *prio * n);
  g.off[0] = 0;
  for (uint32_t v = 0; v < n; v++) {
    uint32_t d = (uint32_t)(diff_rand() % 9);
    for (uint32_t k = 0; k < d; k++) g.adj[g.off[v] + k] = (uint32_t)(diff_rand() % n);
    g.off[v + 1] = g.off[v] + d;
    state[v] = diff_rand() % 4 == 0;
    prio[v] = (uint32_t)diff_rand();
  }
  pick(n, g.off, g.adj, state, prio, join);
  pick_with_helper(&g, state, prio, join2);
  uint64_t h = 0;
  for (uint32_t v = 0; v < n; v++) h = h * 31 + join[v] * 2 + join2[v];
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
