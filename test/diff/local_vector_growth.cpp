// local_vector_growth: a frontier filter appends from an inner loop to a std::vector local to the function, with no reserve, so the vector reallocates while iterations are in flight. Its begin, end and capacity are kept in registers and become shared scalars read in iteration order; the growth test `end == capacity` reads two of them, and both must be read after the iteration's turn (the end read before it was the value from before another iteration's append, and the element was written past the old storage: heap corruption). The frontier equals the serial loop's.
#include <vector>
#include "common.h"

// The vector does not escape (returned, it would be the caller's object, its
// fields in memory): the function returns a digest of it.
__attribute__((noinline)) static uint64_t filter(long nq, const int *q, const long *off, const int *adj,
                                                 const int *deg) {
  std::vector<int> next;
#pragma memcoro parallel(N)
  for (long i = 0; i < nq; i++) {
    int u = q[i];
    for (long e = off[u]; e < off[u + 1]; e++)
      if (deg[adj[e]] == 6) next.push_back(adj[e]);
  }
  uint64_t h = next.size();
  for (int v : next) h = h * 1000003 + (unsigned)v;
  return h;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int vertices = n + 1;
  std::vector<int> deg(vertices);
  std::vector<long> off(vertices + 1);
  for (int v = 0; v < vertices; v++) deg[v] = 2 + (int)(diff_rand() % 12);
  for (int v = 0; v < vertices; v++) off[v + 1] = off[v] + deg[v];
  std::vector<int> adj(off[vertices]);
  for (int &a : adj) a = (int)(diff_rand() % vertices);
  std::vector<int> q;
  for (int v = 0; v < n; v++) q.push_back(v);
  uint64_t h = filter((long)q.size(), q.data(), off.data(), adj.data(), deg.data());
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
