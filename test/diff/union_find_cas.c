// check: conflicts (path halving and hooks share parent[] between iterations, as concurrent union-find does)
// union_find_cas: asynchronous union-find over an edge list, find halving the path with plain stores, unite
// hooking the larger root under the smaller with a compare-and-swap retried from the roots found again. The
// retry is no spin lock (split/CallsInPlace.cpp): the loop interleaves. Each vertex's label, the smallest
// vertex of its component, is the serial one whatever the order. Adapting, the ring's serial copy prefetches
// parent[eu[e + D]] ahead (split/PrefetchSerialCopy.cpp): the edge arrays end where an inaccessible page
// begins, so a read ahead past their end faults.
#include "common.h"
static inline uint32_t find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}
int main(int argc, char **argv) {
  int m = diff_trips(argc, argv);
  enum { V = 512 };
  uint32_t *parent = diff_alloc(sizeof *parent * V), *eu = diff_before_guard((size_t)m, sizeof *eu),
           *ev = diff_before_guard((size_t)m, sizeof *ev);
  for (uint32_t v = 0; v < V; v++) parent[v] = v;
  for (int e = 0; e < m; e++) {
    eu[e] = (uint32_t)(diff_rand() % V);
    ev[e] = (uint32_t)(diff_rand() % V);
  }
#pragma memcoro parallel(N) remote(parent)
  for (int e = 0; e < m; e++) {
    uint32_t u = eu[e], v = ev[e];
    for (;;) {
      u = find(parent, u);
      v = find(parent, v);
      if (u == v)
        break;
      if (u < v) {
        uint32_t t = u;
        u = v;
        v = t;
      }
      if (__sync_bool_compare_and_swap(&parent[u], u, v))
        break;
    }
  }
  uint64_t h = 1469598103934665603ull;
  for (uint32_t v = 0; v < V; v++) h = (h ^ find(parent, v)) * 1099511628211ull;
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
