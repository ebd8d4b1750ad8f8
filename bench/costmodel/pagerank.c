// SPDX-License-Identifier: Apache-2.0
// pagerank: one pull iteration of PageRank, the neighbour sum in the inner
// loop (built with -ffast-math, so the sum may be reassociated). A random
// graph of 2^22 vertices, 16 in-neighbours each (256 MiB of neighbour ids,
// 32 MiB of contributions). Each vertex's in-edges are a range [begin, end)
// (with off[u] and off[u + 1], LLVM carries off[u + 1] over to the next
// iteration, and memcoro keeps the loop serial before its cost model runs).
// One op = one edge. Argument: log2 vertices.
#include "costmodel.h"

struct range {
  uint32_t begin, end;
};

#ifndef COSTMODEL_MAIN
void KERNEL(pagerank)(const struct range *in, const uint32_t *nbr, const double *contrib, double *next, size_t nv,
                      double base, double damping) {
#pragma memcoro parallel(16)
  for (size_t u = 0; u < nv; ++u) {
    double sum = 0;
    for (uint32_t e = in[u].begin; e < in[u].end; ++e)
      sum += contrib[nbr[e]];
    next[u] = base + damping * sum;
  }
}

#else
typedef void PagerankFn(const struct range *, const uint32_t *, const double *, double *, size_t, double, double);
PagerankFn pagerank_serial, pagerank_memcoro, pagerank_insist;
static struct range *in;
static uint32_t *nbr;
static double *contrib, *next[CM_VARIANTS];
static size_t nv;

static void run(int variant) {
  PagerankFn *const fn[] = {pagerank_serial, pagerank_memcoro, pagerank_insist};
  fn[variant](in, nbr, contrib, next[variant], nv, 0.15 / nv, 0.85);
}

// The sums are reassociated differently by each build: 0 when every rank is
// within 1e-9 (relative) of the serial one.
static uint64_t result(int variant) {
  for (size_t u = 0; u < nv; ++u) {
    double want = next[0][u], got = next[variant][u];
    if (got - want > 1e-9 * want || want - got > 1e-9 * want)
      return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  nv = (size_t)1 << scale;
  const size_t degree = 16, ne = nv * degree;
  in = cm_alloc(nv * sizeof *in), nbr = cm_alloc(ne * sizeof *nbr);
  contrib = cm_alloc(nv * sizeof *contrib);
  for (int v = 0; v < CM_VARIANTS; ++v)
    next[v] = cm_alloc(nv * sizeof *next[v]);
  uint64_t s = 4;
  // Variable degrees (0..2x the mean) around random neighbours.
  size_t e = 0;
  for (size_t u = 0; u < nv; ++u) {
    in[u].begin = (uint32_t)e;
    size_t d = splitmix64(&s) % (2 * degree + 1);
    for (size_t k = 0; k < d && e < ne; ++k)
      nbr[e++] = (uint32_t)(splitmix64(&s) % nv);
    in[u].end = (uint32_t)e;
  }
  for (size_t u = 0; u < nv; ++u)
    contrib[u] = (double)(splitmix64(&s) % 1024) / 1024 / nv;
  char what[64];
  snprintf(what, sizeof what, "pull pagerank 2^%d vertices", scale);
  return cm_measure(what, (double)e, cm_trials(argc, argv), run, result);
}
#endif
