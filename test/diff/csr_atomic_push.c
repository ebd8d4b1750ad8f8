// csr_atomic_push: a push over every vertex's neighbour list counts in-degrees with an atomic add (`__atomic_fetch_add(&deg[adj[e]], 1)`), as a parallel CSR build does. LLVM hands the row's end, off[u + 1], to the next vertex as its start, reading it again after the atomic, which alias analysis cannot tell apart from the offsets: the loop stayed serial ("a value is carried"). The atomic, an update of another object, is judged as a store is, each iteration reads its start again, and the loop interleaves; the degrees equal the serial loop's.
#include "common.h"

__attribute__((noinline)) static void push(int64_t n, const int64_t *off, const int32_t *adj, int32_t *deg) {
#pragma memcoro parallel(N)
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = off[u]; e < off[u + 1]; e++)
      __atomic_fetch_add(&deg[adj[e]], 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *off = diff_alloc(sizeof *off * (n + 2));
  for (int v = 0; v < n; v++) off[v + 1] = off[v] + (int64_t)(diff_rand() % 9);
  int32_t *adj = diff_alloc(sizeof *adj * (off[n] + 1));
  for (int64_t e = 0; e < off[n]; e++) adj[e] = (int32_t)(diff_rand() % (n + 1));
  int32_t *deg = diff_alloc(sizeof *deg * (n + 1));
  push(n, off, adj, deg);
  uint64_t h = 0;
  for (int v = 0; v <= n; v++) h = h * 31 + (uint64_t)deg[v];
  printf("%lld %llx\n", (long long)off[n], (unsigned long long)h);
  return 0;
}
