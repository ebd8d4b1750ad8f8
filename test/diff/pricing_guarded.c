// pricing_guarded: mcf's pricing loop (primal_bea_mpp): an arc's tail and head are read only where its ident says it is not basic, and the dual-infeasible arcs are appended to a basket. The serial copy (and a carried hash's loop kept in order) read `arc->tail` ahead beside `arc->ident`, which every iteration reads (split/PrefetchAhead.cpp, guardOf): the arc arrays end where an inaccessible page begins, so a read ahead past the last arc, or past the page of the arc whose ident guards it, faults.
// cost-model: on
#include "common.h"

struct node {
  int64_t potential, depth;
};
// mcf's layout: the guard after the pointers it guards.
struct arc {
  int64_t cost;
  struct node *tail, *head;
  int32_t ident, pad;
};
// The guard first, the pointers after it, in a record of 24 bytes: elements
// straddle pages.
struct edge {
  int32_t ident;
  struct node *tail, *head;
};

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // A size the compiler does not see, as the data of a real program's.
  static volatile int vertices = 997;
  const int V = vertices;
  struct node *nodes = diff_alloc(sizeof *nodes * V);
  for (int v = 0; v < V; v++)
    nodes[v].potential = (int64_t)(diff_rand() % 2001) - 1000;
  struct arc *arcs = diff_before_guard((size_t)n, sizeof *arcs);
  struct edge *edges = diff_before_guard((size_t)n, sizeof *edges);
  for (int i = 0; i < n; i++) {
    arcs[i].cost = (int64_t)(diff_rand() % 2001);
    arcs[i].tail = &nodes[diff_rand() % V];
    arcs[i].head = &nodes[diff_rand() % V];
    arcs[i].ident = (int32_t)(diff_rand() % 3);
    edges[i].ident = arcs[i].ident;
    edges[i].tail = arcs[i].head;
    edges[i].head = arcs[i].tail;
  }
  const struct arc **basket = diff_alloc(sizeof *basket * (size_t)(n + 1));
  int64_t *cost = diff_alloc(sizeof *cost * (size_t)(n + 1));
  long nbasket = 0;
#pragma memcoro parallel(N)
  for (long i = 0; i < n; i++) {
    const struct arc *arc = &arcs[i];
    if (arc->ident > 0) {
      int64_t red = arc->cost - arc->tail->potential + arc->head->potential;
      if ((red < 0 && arc->ident == 1) || (red > 0 && arc->ident == 2)) {
        basket[nbasket] = arc;
        cost[nbasket++] = red < 0 ? -red : red;
      }
    }
  }
  uint64_t h = 1469598103934665603ull;
  for (long k = 0; k < nbasket; k++)
    h = (h ^ (uint64_t)(basket[k] - arcs) ^ (uint64_t)cost[k] << 20) * 1099511628211ull;
  printf("%ld %llx\n", nbasket, (unsigned long long)h);
  // A hash carried from one iteration to the next: kept in serial order, prefetched ahead.
  uint64_t g = 0;
#pragma memcoro parallel(N)
  for (long i = 0; i < n; i++)
    if (edges[i].ident > 0)
      g = (g ^ (uint64_t)(edges[i].tail->potential - edges[i].head->potential)) * 1099511628211ull;
  printf("%llx\n", (unsigned long long)g);
  return 0;
}
