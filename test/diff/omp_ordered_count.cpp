// omp_ordered_count: GAP's triangle count (OrderedCount) as tc.cc writes it: range-for over CSR neighbourhoods, an iterator merge, and `omp parallel for reduction(+ : total) schedule(dynamic, 64)`. With -fopenmp (diff-openmp/omp_ordered_count.cpp) the chunk loop carries the private copy twice, as the running total and as what its slot holds, stored in the inner loop on a match only (issue 17, tc).
#include "common.h"
#include <cstddef>
#include <vector>
struct Range {
  const int *b, *e;
  const int *begin() const { return b; }
  const int *end() const { return e; }
};
struct Graph {
  std::vector<long> index;
  std::vector<int> neigh;
  long num_nodes() const { return long(index.size()) - 1; }
  Range out_neigh(long u) const { return {neigh.data() + index[u], neigh.data() + index[u + 1]}; }
};
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  Graph g;
  // Sorted, distinct neighbours, walking upwards from a small start.
  for (int u = 0; u < n; ++u) {
    g.index.push_back(long(g.neigh.size()));
    int v = int(diff_rand() % 16);
    for (int k = 0; k < 12 && v < n; ++k, v += 1 + int(diff_rand() % (n / 12 + 1)))
      g.neigh.push_back(v);
  }
  g.index.push_back(long(g.neigh.size()));
  size_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 64) num_threads(2)
#pragma memcoro parallel(N)
  for (long u = 0; u < g.num_nodes(); u++) {
    for (int v : g.out_neigh(u)) {
      if (v > u)
        break;
      auto it = g.out_neigh(u).begin();
      for (int w : g.out_neigh(v)) {
        if (w > v)
          break;
        while (*it < w)
          it++;
        if (w == *it)
          total++;
      }
    }
  }
  printf("%zu\n", total);
  return 0;
}
