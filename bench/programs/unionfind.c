// unionfind: connected components of an edge list by concurrent union-find,
// written the way the parallel connectivity codes write their asynchronous
// union-find (Jayanti-Tarjan style, as in ConnectIt's union-find variants):
// a small inline find that halves the path as it climbs (`parent[x] =
// parent[parent[x]]`, a plain store: it only ever points a non-root at one of
// its ancestors), and a unite that hooks the larger root under the smaller
// with a compare-and-swap, retrying from the roots when another hook got
// there first. Every edge of the list is united in one pass, then every
// vertex is labelled by its root. The program checks itself against a
// breadth-first search: two vertices share a label exactly when the search
// reaches one from the other. One pragma line marks the loop over the edges.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint32_t vid_t;

typedef struct {
  vid_t u, v;
} edge_t;

static inline vid_t find(vid_t *parent, vid_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static inline void unite(vid_t *parent, vid_t u, vid_t v) {
  for (;;) {
    u = find(parent, u);
    v = find(parent, v);
    if (u == v)
      return;
    if (u < v) {
      vid_t t = u;
      u = v;
      v = t;
    }
    if (__sync_bool_compare_and_swap(&parent[u], u, v))
      return;
  }
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 24;
  double degree = argc > 2 ? atof(argv[2]) : 1.0;
  vid_t n = (vid_t)1 << scale;
  size_t m = (size_t)(degree * n);
  edge_t *edges = malloc(m * sizeof(edge_t));
  uint64_t s = 0xdeadbeefcafef00dull;
  for (size_t e = 0; e < m; e++) {
    uint64_t x = next_rand(&s);
    edges[e].u = (vid_t)(x & (n - 1));
    edges[e].v = (vid_t)((x >> 32) & (n - 1));
  }
  vid_t *parent = malloc(n * sizeof(vid_t));
  for (vid_t i = 0; i < n; i++)
    parent[i] = i;

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma memcoro
  for (size_t e = 0; e < m; e++)
    unite(parent, edges[e].u, edges[e].v);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  vid_t *label = malloc(n * sizeof(vid_t));
  for (vid_t i = 0; i < n; i++)
    label[i] = find(parent, i);

  // Verification: a breadth-first search over the same edges (CSR).
  uint32_t *offsets = calloc((size_t)n + 1, sizeof(uint32_t));
  vid_t *adj = malloc(2 * m * sizeof(vid_t));
  for (size_t e = 0; e < m; e++)
    offsets[edges[e].u + 1]++, offsets[edges[e].v + 1]++;
  for (vid_t i = 0; i < n; i++)
    offsets[i + 1] += offsets[i];
  uint32_t *fill = malloc(n * sizeof(uint32_t));
  for (vid_t i = 0; i < n; i++)
    fill[i] = offsets[i];
  for (size_t e = 0; e < m; e++) {
    adj[fill[edges[e].u]++] = edges[e].v;
    adj[fill[edges[e].v]++] = edges[e].u;
  }
  vid_t *comp = malloc(n * sizeof(vid_t)), *queue = malloc(n * sizeof(vid_t));
  for (vid_t i = 0; i < n; i++)
    comp[i] = UINT32_MAX;
  int ok = 1;
  size_t components = 0;
  for (vid_t r = 0; r < n && ok; r++) {
    if (comp[r] != UINT32_MAX)
      continue;
    components++;
    // Every vertex the search reaches has r's label.
    vid_t want = label[r];
    size_t head = 0, tail = 0;
    queue[tail++] = r;
    comp[r] = r;
    while (head < tail && ok) {
      vid_t x = queue[head++];
      if (label[x] != want) {
        ok = 0;
        break;
      }
      for (uint32_t k = offsets[x]; k < offsets[x + 1]; k++)
        if (comp[adj[k]] == UINT32_MAX) {
          comp[adj[k]] = r;
          queue[tail++] = adj[k];
        }
    }
  }
  // The label of a component is a vertex of it (its root), so distinct
  // components have distinct labels.
  for (vid_t i = 0; i < n && ok; i++)
    ok = comp[label[i]] == comp[i];
  printf("kernel_seconds %.6f\n", seconds);
  printf("2^%d vertices, %zu edges: %zu components\n", scale, m, components);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(comp);
  free(queue);
  free(fill);
  free(adj);
  free(offsets);
  free(label);
  free(parent);
  free(edges);
  return ok ? 0 : 1;
}
