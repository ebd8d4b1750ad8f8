// g500bfs: the Graph500 reference BFS (kernel 2), written the way the
// reference's sequential CSR code writes it: int64_t vertices, a CSR of
// `xoff` (start and end offset per vertex, as csr.c builds it) and `xadj`,
// the frontier a slice [k1, k2) of one vertex list that the step appends
// to, and a visited bitmap tested and set with shifts and masks before the
// vertex's predecessor is written. Verified as the reference's validate.c
// verifies a BFS tree: the root is its own parent, every other reached
// vertex's parent is a neighbour one level closer to the root (levels
// computed by walking the tree), every edge joins vertices whose levels
// differ by at most one, and exactly the vertices of the root's component
// are reached. One pragma line marks the frontier loop; nothing else is
// edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t nv;
static int64_t *xoff; // two entries per vertex: start offset, end offset
static int64_t *xadj;
#define XOFF(k) (xoff[2 * (k)])
#define XENDOFF(k) (xoff[1 + 2 * (k)])

#define BITS_PER_WORD 64
#define WORD_OFFSET(n) ((n) / BITS_PER_WORD)
#define BIT_OFFSET(n) ((n) & (BITS_PER_WORD - 1))

// An undirected R-MAT-free random graph: nv vertices, edgefactor * nv edges
// listed both ways, as the reference's kernel 1 leaves it.
static void make_graph(int scale, int edgefactor) {
  nv = (int64_t)1 << scale;
  int64_t nedge = nv * edgefactor;
  int64_t *src = malloc(nedge * sizeof(*src)), *dst = malloc(nedge * sizeof(*dst));
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int64_t k = 0; k < nedge; ++k) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    src[k] = (int64_t)(s & (nv - 1));
    dst[k] = (int64_t)((s >> 32) & (nv - 1));
  }
  xoff = calloc(2 * nv + 2, sizeof(*xoff));
  for (int64_t k = 0; k < nedge; ++k)
    if (src[k] != dst[k]) {
      ++XOFF(src[k]);
      ++XOFF(dst[k]);
    }
  int64_t acc = 0;
  for (int64_t v = 0; v < nv; ++v) {
    int64_t d = XOFF(v);
    XOFF(v) = XENDOFF(v) = acc;
    acc += d;
  }
  XOFF(nv) = acc;
  xadj = malloc((acc + 1) * sizeof(*xadj));
  for (int64_t k = 0; k < nedge; ++k)
    if (src[k] != dst[k]) {
      xadj[XENDOFF(src[k])++] = dst[k];
      xadj[XENDOFF(dst[k])++] = src[k];
    }
  free(src);
  free(dst);
}

static void make_bfs_tree(int64_t *bfs_tree, int64_t *vlist, uint64_t *visited, int64_t srcvtx) {
  memset(visited, 0, (nv + BITS_PER_WORD - 1) / BITS_PER_WORD * sizeof(*visited));
  for (int64_t k = 0; k < nv; ++k)
    bfs_tree[k] = -1;
  vlist[0] = srcvtx;
  bfs_tree[srcvtx] = srcvtx;
  visited[WORD_OFFSET(srcvtx)] |= 1ull << BIT_OFFSET(srcvtx);
  int64_t k1 = 0, k2 = 1;
  while (k1 != k2) {
    const int64_t oldk2 = k2;
#pragma memcoro
    for (int64_t k = k1; k < oldk2; ++k) {
      const int64_t v = vlist[k];
      const int64_t veo = XENDOFF(v);
      for (int64_t vo = XOFF(v); vo < veo; ++vo) {
        const int64_t j = xadj[vo];
        if (!(visited[WORD_OFFSET(j)] & (1ull << BIT_OFFSET(j)))) {
          visited[WORD_OFFSET(j)] |= 1ull << BIT_OFFSET(j);
          bfs_tree[j] = v;
          vlist[k2++] = j;
        }
      }
    }
    k1 = oldk2;
  }
}

// validate.c's checks, on the tree alone and then against every edge.
static int verify_bfs_tree(const int64_t *bfs_tree, int64_t root) {
  if (bfs_tree[root] != root)
    return 0;
  int64_t *level = malloc(nv * sizeof(*level));
  for (int64_t v = 0; v < nv; ++v)
    level[v] = -1;
  level[root] = 0;
  // Levels by walking each vertex up the tree; a walk longer than nv is a cycle.
  for (int64_t v = 0; v < nv; ++v) {
    if (bfs_tree[v] < 0 || level[v] >= 0)
      continue;
    int64_t depth = 0, u = v;
    while (level[u] < 0 && depth <= nv) {
      u = bfs_tree[u];
      if (u < 0 || u >= nv) {
        free(level);
        return 0;
      }
      ++depth;
    }
    if (depth > nv) {
      free(level);
      return 0;
    }
    int64_t top = level[u] + depth;
    for (u = v; level[u] < 0; u = bfs_tree[u])
      level[u] = top--;
  }
  int ok = 1;
  for (int64_t v = 0; v < nv && ok; ++v) {
    int parent_is_neighbour = v == root || bfs_tree[v] < 0;
    for (int64_t e = XOFF(v); e < XENDOFF(v) && ok; ++e) {
      int64_t w = xadj[e];
      // An edge leaves the component only if neither end is reached.
      if ((bfs_tree[v] < 0) != (bfs_tree[w] < 0))
        ok = 0;
      else if (bfs_tree[v] >= 0 && (level[v] - level[w] > 1 || level[w] - level[v] > 1))
        ok = 0;
      if (w == bfs_tree[v] && level[w] == level[v] - 1)
        parent_is_neighbour = 1;
    }
    ok = ok && parent_is_neighbour;
  }
  free(level);
  return ok;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int edgefactor = argc > 2 ? atoi(argv[2]) : 16;
  int nroots = argc > 3 ? atoi(argv[3]) : 4;
  make_graph(scale, edgefactor);
  int64_t *bfs_tree = malloc(nv * sizeof(*bfs_tree));
  int64_t *vlist = malloc(nv * sizeof(*vlist));
  uint64_t *visited = malloc((nv + BITS_PER_WORD - 1) / BITS_PER_WORD * sizeof(*visited));
  double seconds = 0;
  int ok = 1;
  int64_t reached = 0;
  uint64_t tree_hash = 0; // the claims are plain stores: the tree must be the serial one
  for (int r = 0; r < nroots; ++r) {
    int64_t root = (int64_t)((r * 2654435761u) % (uint64_t)nv);
    while (XENDOFF(root) == XOFF(root))
      root = (root + 1) % nv;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    make_bfs_tree(bfs_tree, vlist, visited, root);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    seconds += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ok = ok && verify_bfs_tree(bfs_tree, root);
    for (int64_t v = 0; v < nv; ++v)
      if (bfs_tree[v] >= 0) {
        ++reached;
        tree_hash = tree_hash * 1000003u + (uint64_t)bfs_tree[v];
      }
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, edgefactor %d, %d roots, %lld vertices reached, tree hash %016llx\n", scale, edgefactor,
         nroots, (long long)reached, (unsigned long long)tree_hash);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(visited);
  free(vlist);
  free(bfs_tree);
  free(xadj);
  free(xoff);
  return ok ? 0 : 1;
}
