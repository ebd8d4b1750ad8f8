// stream_starts: two-hop sums over a CSR graph, as triangle counting walks it: each neighbour v's list, walked with a pointer as a range-for walks it, starts at index[v], a load the iteration suspends at, and the list's first lines get a suspension of their own where the inner loop is entered (StreamStarts.cpp, issue 17's tc).
// cost-model: on
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int nodes = n + 1;
  long *index = diff_alloc(sizeof *index * (nodes + 1));
  int *neigh = diff_alloc(sizeof *neigh * (size_t)nodes * 8);
  long edges = 0;
  for (int u = 0; u < nodes; ++u) {
    index[u] = edges;
    int degree = (int)(diff_rand() % 9);
    for (int k = 0; k < degree; ++k)
      neigh[edges++] = (int)(diff_rand() % nodes);
  }
  index[nodes] = edges;
  long *out = diff_alloc(sizeof *out * nodes);
#pragma memcoro parallel(N)
  for (int u = 0; u < n; ++u) {
    long sum = 0;
    for (long e = index[u]; e < index[u + 1]; ++e) {
      int v = neigh[e];
      for (const int *w = neigh + index[v], *end = neigh + index[v + 1]; w < end; ++w)
        sum += *w ^ (w - neigh);
    }
    out[u] = sum;
  }
  printf("%llu\n", (unsigned long long)diff_hash_u64((const uint64_t *)out, n));
  return 0;
}
