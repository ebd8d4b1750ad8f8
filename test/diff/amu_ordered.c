// amu_ordered: __remote loops with code in iteration order, which every AMU scheduler runs on the static one: an mcf-like append of the arcs that pass a test of two far nodes, a BFS level (first writer wins on a far parent, frontier append), and an ordered region after a far list walk.
#include "common.h"
#include <memcoro/memcoro.h>
struct node { int64_t potential, pad[7]; };
struct arc { int64_t cost; const struct node __remote *tail, *head; int32_t ident; };
struct item { const struct item __remote *next; uint32_t v; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 4096, POOL = 1 << 12 };
  struct node *nodes = diff_alloc(sizeof *nodes * V);
  for (int v = 0; v < V; ++v) nodes[v].potential = (int64_t)(diff_rand() % 2001) - 1000;
  struct arc *arcs = diff_alloc(sizeof *arcs * (n + 1));
  for (int i = 0; i < n; ++i) {
    arcs[i].cost = (int64_t)(diff_rand() % 2001) - 1000;
    arcs[i].tail = (const struct node __remote *)&nodes[diff_rand() % V];
    arcs[i].head = (const struct node __remote *)&nodes[diff_rand() % V];
    arcs[i].ident = (int32_t)(diff_rand() % 3);
  }
  const struct arc __remote *a = (const struct arc __remote *)arcs;
  int64_t *basket = diff_alloc(sizeof *basket * (n + 1));
  size_t nbasket = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    if (a[i].ident > 0) {
      int64_t red = a[i].cost - a[i].tail->potential + a[i].head->potential;
      if ((red < 0 && a[i].ident == 1) || (red > 0 && a[i].ident == 2))
        basket[nbasket++] = (int64_t)i << 32 ^ (red < 0 ? -red : red);
    }

  uint64_t *offsets = diff_alloc(sizeof *offsets * (V + 1));
  for (int v = 0; v < V; ++v) offsets[v + 1] = offsets[v] + diff_rand() % 12;
  uint32_t *edges = diff_alloc(sizeof *edges * (offsets[V] + 1));
  for (uint64_t e = 0; e < offsets[V]; ++e) edges[e] = (uint32_t)(diff_rand() % V);
  int64_t *parentp = diff_alloc(sizeof *parentp * V);
  for (int v = 0; v < V; ++v) parentp[v] = -1;
  uint32_t *frontier = diff_alloc(sizeof *frontier * (n + 1)), *next = diff_alloc(sizeof *next * V);
  for (int i = 0; i < n; ++i) frontier[i] = (uint32_t)(diff_rand() % V);
  const uint64_t __remote *off = (const uint64_t __remote *)offsets;
  const uint32_t __remote *adj = (const uint32_t __remote *)edges;
  int64_t __remote *parent = (int64_t __remote *)parentp;
  size_t nnext = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t u = frontier[i];
    uint64_t end = off[u + 1];
    for (uint64_t e = off[u]; e < end; ++e) {
      uint32_t v = adj[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }

  struct item *pool = diff_alloc(sizeof *pool * POOL);
  for (int i = 0; i < POOL; ++i) {
    pool[i].v = diff_rand() % 1000;
    pool[i].next = (i && diff_rand() % 4) ? (const struct item __remote *)&pool[i - 1 - diff_rand() % (i < 8 ? i : 8)] : 0;
  }
  uint64_t *hist = diff_alloc(sizeof *hist * 64);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    const struct item __remote *p = (const struct item __remote *)&pool[frontier[i] % POOL];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
#pragma memcoro ordered
    hist[k % 64] = hist[k % 64] * 31 + (uint64_t)i;
  }
  printf("%zu %llx %zu %llx %llx %llx\n", nbasket, (unsigned long long)diff_hash_u64((uint64_t *)basket, nbasket), nnext,
         (unsigned long long)diff_hash_u64((uint64_t *)parentp, V), (unsigned long long)diff_hash_i32((int32_t *)next, nnext),
         (unsigned long long)diff_hash_u64(hist, 64));
  return 0;
}
