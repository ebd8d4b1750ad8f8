// kcore: k-core decomposition by level-synchronous peeling, written the way
// PKC (Kabir and Madduri) writes it: int degrees counted down in place with
// __sync_fetch_and_sub, a vertex whose degree the decrement takes to the
// current level appended to the level's buffer (the one decrement that does
// so appends it), an over-decrement below the level given back with
// __sync_fetch_and_add; each level scans for its vertices, then peels the
// buffer slice by slice, each slice's loop appending the next slice. The
// degree left is each vertex's core number. Verified against Batagelj and
// Zaversnik's serial bucket algorithm, which must give every vertex the same
// core number. One pragma line marks the slice loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint32_t vid_t;
typedef int64_t eid_t;

typedef struct {
  long n;
  eid_t m;
  eid_t *num_edges; // n + 1 offsets
  vid_t *adj;
} graph_t;

// A uniform random undirected graph, every edge listed both ways, with a
// skewed degree (a few vertices in many edges) so that cores differ.
static void make_graph(graph_t *g, int scale, int degree) {
  long n = 1L << scale;
  eid_t half = (eid_t)n * degree;
  vid_t *src = malloc(half * sizeof(*src)), *dst = malloc(half * sizeof(*dst));
  uint64_t s = 0xD1B54A32D192ED03ull;
  eid_t kept = 0;
  for (eid_t k = 0; k < half; k++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    vid_t u = (vid_t)(s & (n - 1));
    // The second end drawn from a smaller range half of the time.
    vid_t v = (vid_t)((s >> 32) & ((s >> 63) ? (n - 1) : ((n >> 4) - 1)));
    if (u == v)
      continue;
    src[kept] = u;
    dst[kept++] = v;
  }
  g->n = n;
  g->m = 2 * kept;
  g->num_edges = calloc(n + 1, sizeof(eid_t));
  for (eid_t k = 0; k < kept; k++) {
    g->num_edges[src[k] + 1]++;
    g->num_edges[dst[k] + 1]++;
  }
  for (long v = 0; v < n; v++)
    g->num_edges[v + 1] += g->num_edges[v];
  eid_t *fill = malloc(n * sizeof(*fill));
  memcpy(fill, g->num_edges, n * sizeof(*fill));
  g->adj = malloc(g->m * sizeof(vid_t));
  for (eid_t k = 0; k < kept; k++) {
    g->adj[fill[src[k]]++] = dst[k];
    g->adj[fill[dst[k]]++] = src[k];
  }
  free(fill);
  free(src);
  free(dst);
}

static void PKC(const graph_t *g, int *deg) {
  long n = g->n;
  long visited = 0;
  int level = 0;
  vid_t *buff = malloc(n * sizeof(vid_t));
  for (long i = 0; i < n; i++)
    deg[i] = (int)(g->num_edges[i + 1] - g->num_edges[i]);
  while (visited < n) {
    long start = 0, end = 0;
    for (long i = 0; i < n; i++)
      if (deg[i] == level)
        buff[end++] = (vid_t)i;
    while (start < end) {
      long stop = end;
#pragma memcoro
      for (long i = start; i < stop; i++) {
        vid_t v = buff[i];
        for (eid_t j = g->num_edges[v]; j < g->num_edges[v + 1]; j++) {
          vid_t u = g->adj[j];
          int deg_u = deg[u];
          if (deg_u > level) {
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
    level++;
  }
  free(buff);
}

// Batagelj and Zaversnik: vertices in bucket order of degree, each removal
// moving its higher-degree neighbours one bucket down.
static void bz_cores(const graph_t *g, int *core) {
  long n = g->n;
  int maxdeg = 0;
  for (long v = 0; v < n; v++) {
    core[v] = (int)(g->num_edges[v + 1] - g->num_edges[v]);
    if (core[v] > maxdeg)
      maxdeg = core[v];
  }
  long *bin = calloc(maxdeg + 1, sizeof(long));
  long *pos = malloc(n * sizeof(long));
  vid_t *vert = malloc(n * sizeof(vid_t));
  for (long v = 0; v < n; v++)
    bin[core[v]]++;
  long start = 0;
  for (int d = 0; d <= maxdeg; d++) {
    long num = bin[d];
    bin[d] = start;
    start += num;
  }
  for (long v = 0; v < n; v++) {
    pos[v] = bin[core[v]]++;
    vert[pos[v]] = (vid_t)v;
  }
  for (int d = maxdeg; d > 0; d--)
    bin[d] = bin[d - 1];
  bin[0] = 0;
  for (long i = 0; i < n; i++) {
    vid_t v = vert[i];
    for (eid_t j = g->num_edges[v]; j < g->num_edges[v + 1]; j++) {
      vid_t u = g->adj[j];
      if (core[u] > core[v]) {
        int du = core[u];
        long pu = pos[u], pw = bin[du];
        vid_t w = vert[pw];
        if (u != w) {
          pos[u] = pw;
          vert[pu] = w;
          pos[w] = pu;
          vert[pw] = u;
        }
        bin[du]++;
        core[u]--;
      }
    }
  }
  free(bin);
  free(pos);
  free(vert);
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int degree = argc > 2 ? atoi(argv[2]) : 8;
  graph_t g;
  make_graph(&g, scale, degree);
  int *deg = malloc(g.n * sizeof(int));
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  PKC(&g, deg);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  int *core = malloc(g.n * sizeof(int));
  bz_cores(&g, core);
  int ok = memcmp(deg, core, g.n * sizeof(int)) == 0;
  int kmax = 0;
  long in_kmax = 0;
  for (long v = 0; v < g.n; v++)
    if (deg[v] > kmax) {
      kmax = deg[v];
      in_kmax = 1;
    } else if (deg[v] == kmax) {
      in_kmax++;
    }
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, max core %d with %ld vertices\n", scale, (long long)g.m, kmax, in_kmax);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(core);
  free(deg);
  free(g.adj);
  free(g.num_edges);
  return ok ? 0 : 1;
}
