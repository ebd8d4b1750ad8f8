// c11_atomic_push: push-style PageRank's scatter with C11 atomics
// (atomic_fetch_add_explicit, relaxed) over a CSR graph passed by value.
// clang copies the atomic's operand through a temporary declared before the
// loop, which was taken for a value the body reads from memory and hands to
// the next iteration: the offsets GVN carries from one vertex to the next
// were then not read again, and the loop stayed serial ("a value is
// carried"). Also built with -fopenmp (test/diff/CMakeLists.txt).
#include "common.h"
#include <stdatomic.h>

typedef struct {
  uint32_t n;
  uint64_t *off;
  uint32_t *adj;
} graph_t;

__attribute__((noinline)) static void push(graph_t g, const uint64_t *rank, _Atomic uint64_t *next) {
#pragma omp parallel for
#pragma memcoro parallel(N)
  for (uint32_t u = 0; u < g.n; u++) {
    uint64_t deg = g.off[u + 1] - g.off[u];
    if (deg == 0)
      continue;
    uint64_t share = rank[u] / deg;
    for (uint64_t e = g.off[u]; e < g.off[u + 1]; e++)
      atomic_fetch_add_explicit(&next[g.adj[e]], share, memory_order_relaxed);
  }
}

int main(int argc, char **argv) {
  uint32_t n = (uint32_t)diff_trips(argc, argv);
  graph_t g = {n, diff_alloc(sizeof(uint64_t) * (n + 1)), diff_alloc(sizeof(uint32_t) * 8 * ((size_t)n + 1))};
  uint64_t *rank = diff_alloc(sizeof *rank * (n + 1));
  _Atomic uint64_t *next = diff_alloc(sizeof *next * (n + 1));
  for (uint32_t v = 0; v < n; v++) {
    uint32_t d = (uint32_t)(diff_rand() % 9);
    for (uint32_t k = 0; k < d; k++) g.adj[g.off[v] + k] = (uint32_t)(diff_rand() % n);
    g.off[v + 1] = g.off[v] + d;
    rank[v] = diff_rand() % 1000000;
  }
  push(g, rank, next);
  uint64_t h = 0;
  for (uint32_t v = 0; v < n; v++) h = h * 31 + atomic_load(&next[v]);
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
