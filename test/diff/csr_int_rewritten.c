// expect: serial
// csr_int_rewritten: the CSR loop of csr_int_offsets.c that does write its own offsets: each vertex's row is cut after its first claim (`off[v + 1] = e + 1`), which the next iteration reads as its row's start. The value handed on is then no longer the value in memory when the next iteration starts, so the loop stays serial with a remark and gives the serial answer (issue 17, item 1).
#include "common.h"

__attribute__((noinline)) void claim_first(int *off, int *adj, int *dist, int n, int level) {
#pragma memcoro parallel(N) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = off[v]; e < off[v + 1]; e++)
      if (dist[adj[e]] < 0) {
        dist[adj[e]] = level + v;
        off[v + 1] = e + 1;
      }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int *off = diff_alloc(sizeof *off * (n + 2));
  for (int v = 0; v <= n; ++v) off[v + 1] = off[v] + (int)(diff_rand() % 7);
  int *adj = diff_alloc(sizeof *adj * (off[n + 1] + 1));
  for (int e = 0; e < off[n + 1]; ++e) adj[e] = (int)(diff_rand() % (n + 1));
  int *dist = diff_alloc(sizeof *dist * (n + 1));
  for (int v = 0; v <= n; ++v) dist[v] = diff_rand() % 3 ? -1 : v % 5;
  claim_first(off, adj, dist, n, 10);
  printf("%llx %llx\n", (unsigned long long)diff_hash_i32(dist, n + 1), (unsigned long long)diff_hash_i32(off, n + 2));
  return 0;
}
