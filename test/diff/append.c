// append: mcf's basket, basket[nb++] = {arc, cost} after dependent loads, no pragma: the append runs in iteration order (lockstep).
// The arcs are mcf's 64 bytes: a line per iteration, prefetched 4 KiB ahead (past the array's end in the last
// iterations: a prefetch never faults).
#include "common.h"
typedef struct { int64_t potential; int64_t pad[7]; } node;
typedef struct { int64_t cost; node *tail, *head; int32_t ident, pad; int64_t flow, org_cost, nextout, nextin; } arc;
typedef struct { const arc *a; int64_t c; } cand;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { NODES = 1 << 14 };
  node *nodes = diff_alloc(sizeof *nodes * NODES);
  for (int v = 0; v < NODES; ++v) nodes[v].potential = (int64_t)(diff_rand() % 2001) - 1000;
  arc *arcs = diff_alloc(sizeof *arcs * (n + 1));
  for (int i = 0; i < n; ++i) {
    arcs[i].cost = diff_rand() % 2001;
    arcs[i].tail = &nodes[diff_rand() % NODES];
    arcs[i].head = &nodes[diff_rand() % NODES];
    arcs[i].ident = diff_rand() % 3;
  }
  cand *basket = diff_alloc(sizeof *basket * (n + 1));
  size_t nb = 0;
#pragma memcoro parallel(N) remote(arcs)
  for (int i = 0; i < n; ++i) {
    const arc *a = &arcs[i];
    if (a->ident > 0) {
      int64_t red = a->cost - a->tail->potential + a->head->potential;
      if ((red < 0 && a->ident == 1) || (red > 0 && a->ident == 2))
        basket[nb++] = (cand){a, red < 0 ? -red : red};
    }
  }
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < nb; ++k) h = (h ^ (uint64_t)(basket[k].a - arcs) ^ ((uint64_t)basket[k].c << 32)) * 1099511628211ull;
  printf("%zu %llx\n", nb, (unsigned long long)h);
  return 0;
}
