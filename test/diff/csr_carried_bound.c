// csr_carried_bound: CSR loops over every vertex, `for (e = off[u]; e < off[u + 1]; e++)`, where LLVM hands off[u + 1] to the next iteration as its off[u]: each iteration reads it again (a pull sum with uint64 and int32 offsets, and a loop from a vertex other than 0). The offsets are restrict, as otherwise the stores to out[] could alias them and LLVM reads both bounds in every iteration.
#include "common.h"
__attribute__((noinline)) void pull(const uint64_t *restrict off, const uint32_t *adj, const uint64_t *rank, uint64_t *restrict out,
                                    int n) {
#pragma memcoro parallel(N) remote(adj, rank)
  for (int u = 0; u < n; ++u) {
    uint64_t s = 0;
    for (uint64_t e = off[u]; e < off[u + 1]; ++e) s += rank[adj[e]] ^ e;
    out[u] = s;
  }
}

__attribute__((noinline)) void degrees(const int32_t *restrict off, const int32_t *adj, int32_t *restrict best, size_t from,
                                       size_t to) {
#pragma memcoro parallel(N) remote(adj)
  for (size_t u = from; u < to; ++u) {
    int32_t m = -1;
    for (int32_t e = off[u]; e < off[u + 1]; ++e) m = adj[e] > m ? adj[e] : m;
    best[u] = m;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  uint64_t *off = diff_alloc(sizeof *off * (n + 2));
  int32_t *off32 = diff_alloc(sizeof *off32 * (n + 2));
  for (int v = 0; v <= n; ++v) {
    off[v + 1] = off[v] + diff_rand() % 9;
    off32[v + 1] = (int32_t)off[v + 1];
  }
  uint32_t *adj = diff_alloc(sizeof *adj * (off[n + 1] + 1));
  for (uint64_t e = 0; e < off[n + 1]; ++e) adj[e] = diff_rand() % (n + 1);
  uint64_t *rank = diff_alloc(sizeof *rank * (n + 1));
  for (int v = 0; v <= n; ++v) rank[v] = diff_rand();
  uint64_t *out = diff_alloc(sizeof *out * (n + 1));
  int32_t *best = diff_alloc(sizeof *best * (n + 2));
  pull(off, adj, rank, out, n);
  degrees(off32, (const int32_t *)adj, best, 1, (size_t)n + 1);
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64(out, n), (unsigned long long)diff_hash_i32(best, n + 2));
  return 0;
}
