/* SPDX-License-Identifier: Apache-2.0 */
/* bfs: top-down breadth-first search over a random graph of 2^13 vertices
 * (scale 1) with 0-15 out-edges each, in CSR form in far memory (offsets,
 * adjacency) with a far parent array. The frontier loop is marked: each
 * vertex reads its edge range, then every neighbour's parent; a vertex is
 * claimed, and appended to the next frontier, in iteration order, so the
 * parents are exactly the serial search's. */
#include "suite.h"

#include <string.h>

static uint64_t *offsets, vertices;
static uint32_t *adj, *frontier, *next;
static int64_t *parent, *expected;

__attribute__((noinline)) void bfs_loop(const uint64_t __remote *off, const uint32_t __remote *edges,
                                        int64_t __remote *par, uint32_t root, uint32_t *cur, uint32_t *nxt) {
  par[root] = root;
  cur[0] = root;
  uint64_t ncur = 1;
  while (ncur > 0) {
    uint64_t nnext = 0;
#pragma memcoro parallel(PAR)
    for (uint64_t i = 0; i < ncur; ++i) {
      uint32_t u = cur[i];
      uint64_t end = off[u + 1];
      for (uint64_t e = off[u]; e < end; ++e) {
        uint32_t v = edges[e];
        if (par[v] < 0) {
          par[v] = u;
          nxt[nnext++] = v;
        }
      }
    }
    uint32_t *t = cur;
    cur = nxt;
    nxt = t;
    ncur = nnext;
  }
}

static void setup(double scale) {
  uint64_t st = 13;
  vertices = (uint64_t)(8192 * scale);
  if (vertices < 2)
    vertices = 2;
  offsets = suite_far_alloc(8 * (vertices + 1));
  adj = suite_far_alloc(4 * 16 * vertices);
  parent = suite_far_alloc(8 * vertices);
  frontier = suite_alloc(4 * vertices);
  next = suite_alloc(4 * vertices);
  expected = suite_alloc(8 * vertices);
  offsets[0] = 0;
  for (uint64_t u = 0; u < vertices; ++u) {
    uint64_t degree = splitmix64(&st) % 16;
    for (uint64_t d = 0; d < degree; ++d)
      adj[offsets[u] + d] = (uint32_t)(splitmix64(&st) % vertices);
    offsets[u + 1] = offsets[u] + degree;
  }
  /* The reference: the same search level by level without the pragma. */
  for (uint64_t v = 0; v < vertices; ++v)
    expected[v] = -1;
  expected[0] = 0;
  frontier[0] = 0;
  for (uint64_t ncur = 1; ncur > 0;) {
    uint64_t nnext = 0;
    for (uint64_t i = 0; i < ncur; ++i)
      for (uint64_t e = offsets[frontier[i]]; e < offsets[frontier[i] + 1]; ++e)
        if (expected[adj[e]] < 0) {
          expected[adj[e]] = frontier[i];
          next[nnext++] = adj[e];
        }
    memcpy(frontier, next, 4 * nnext);
    ncur = nnext;
  }
}
static void reset(void) {
  for (uint64_t v = 0; v < vertices; ++v)
    parent[v] = -1;
}
static uint64_t run(void) {
  bfs_loop((const uint64_t __remote *)offsets, (const uint32_t __remote *)adj, (int64_t __remote *)parent, 0,
           frontier, next);
  return 0;
}
static uint64_t digest(uint64_t result) {
  (void)result;
  uint64_t h = 0;
  for (uint64_t v = 0; v < vertices; ++v)
    h = mix64(h ^ (uint64_t)parent[v]);
  return h;
}
static const char *check(uint64_t sum) {
  (void)sum;
  return memcmp(parent, expected, 8 * vertices) ? "a parent differs from the serial search's" : NULL;
}
const struct suite_kernel suite_bfs = {"bfs", setup, reset, run, digest, check};
