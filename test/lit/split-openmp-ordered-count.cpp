// Tests that GAP's triangle count (OrderedCount) interleaves under -fopenmp:
// the reduction's private copy, promoted inside the chunk loop, is carried by
// two webs of phis (the running total, and what its slot holds after the
// store on a match in the inner loop), which are one value (CongruentPhis.cpp),
// and the store in the inner loop keeps the slot holding the total
// (ReductionMirrors.cpp). Without -fopenmp the same loop interleaves too.
// RUN: %memcoro-cxx -fopenmp -g -fno-memcoro-adapt -O3 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="left serial"
// RUN: %memcoro-cxx -g -fno-memcoro-adapt -O3 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="left serial"
// RUN: %memcoro-cxx -fopenmp -fno-memcoro-adapt -O3 -c %s -o /dev/null -mllvm -debug-only=memcoro-split 2>&1 | FileCheck %s --check-prefix=MERGE
#include <cstddef>
struct Range {
  const int *b, *e;
  const int *begin() const { return b; }
  const int *end() const { return e; }
};
struct Graph {
  const long *index;
  const int *neigh;
  long n;
  long num_nodes() const { return n; }
  Range out_neigh(long u) const { return {neigh + index[u], neigh + index[u + 1]}; }
};
size_t ordered_count(const Graph &g) {
  size_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 64)
#pragma memcoro parallel(8)
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
  return total;
}
// CHECK: remark: loop marked for coroutine interleaving: parallel(8)
// CHECK: remark: loop turned into 8 interleaved coroutines:
// MERGE: carries the same value as
// MERGE-NOT: left serial
