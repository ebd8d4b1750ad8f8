// prefetch_csr: CSR row walks whose inner loop the core overlaps (NPB CG's product with int offsets, a pull PageRank over pointer ranges with int64 offsets), kept in serial order with the column stream prefetched ahead across rows; the column arrays end at a page no one may read, so an element read ahead past the stream's end faults.
// cost-model: on
#include "common.h"
#include <string.h>

struct graph {
  int64_t *index;
  int32_t *neighs;
};

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // A size the compiler does not see, as the data of a real program's.
  static volatile int columns = 4096;
  const int V = columns;
  // Rows of 0-11 elements, a few longer than the distance ahead, and the
  // last row's elements just before the guard page.
  int *rowstr = diff_alloc(sizeof *rowstr * ((size_t)n + 1));
  for (int j = 0; j < n; ++j) rowstr[j + 1] = rowstr[j] + (j % 53 == 0 ? 300 : (int)(diff_rand() % 12));
  int *colidx = diff_before_guard((size_t)rowstr[n], sizeof *colidx);
  double *a = diff_alloc(sizeof *a * ((size_t)rowstr[n] + 1));
  for (int k = 0; k < rowstr[n]; ++k) colidx[k] = (int)(diff_rand() % V), a[k] = (double)(diff_rand() % 1000) / 7;
  double *p = diff_alloc(sizeof *p * V), *q = diff_alloc(sizeof *q * ((size_t)n + 1));
  for (int v = 0; v < V; ++v) p[v] = (double)(diff_rand() % 4096) / 3;
#pragma memcoro parallel(N)
  for (int j = 0; j < n; j++) {
    double sum = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum = sum + a[k] * p[colidx[k]];
    q[j] = sum;
  }
  uint64_t h = 0;
  for (int j = 0; j < n; ++j) {
    uint64_t bits;
    memcpy(&bits, &q[j], sizeof bits);
    h = h * 31 + bits;
  }
  printf("%llx\n", (unsigned long long)h);

  struct graph g;
  g.index = diff_alloc(sizeof *g.index * ((size_t)n + 1));
  for (int u = 0; u < n; ++u) g.index[u + 1] = g.index[u] + (u % 41 == 0 ? 200 : (int64_t)(diff_rand() % 9));
  g.neighs = diff_before_guard((size_t)g.index[n], sizeof *g.neighs);
  for (int64_t e = 0; e < g.index[n]; ++e) g.neighs[e] = (int32_t)(diff_rand() % V);
  float *contrib = diff_alloc(sizeof *contrib * V), *scores = diff_alloc(sizeof *scores * ((size_t)n + 1));
  for (int v = 0; v < V; ++v) contrib[v] = (float)(diff_rand() % 1024) / 1024;
#pragma memcoro parallel(N)
  for (int64_t u = 0; u < n; u++) {
    float total = 0;
    for (const int32_t *v = g.neighs + g.index[u]; v != g.neighs + g.index[u + 1]; v++)
      total += contrib[*v];
    scores[u] = 0.15f + 0.85f * total;
  }
  h = 0;
  for (int u = 0; u < n; ++u) {
    uint32_t bits;
    memcpy(&bits, &scores[u], sizeof bits);
    h = h * 31 + bits;
  }
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
