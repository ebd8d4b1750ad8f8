// csr_int_offsets: C CSR loops as written with `int` everywhere (issue 17, item 1): `int *off, *adj, *dist`, whose claim `dist[adj[e]] = level` may, to alias analysis, write `off[v + 1]`, so LLVM reads the bound again after it and hands the last read to the next iteration as its `off[v]`; the same with the rows as `{begin, end}` pairs; and a degree count into an `int` array. Each interleaves, each iteration reading its own row's start again. csr_int_rewritten.c is the loop that does write its offsets.
#include "common.h"

__attribute__((noinline)) void claim(int *off, int *adj, int *dist, int n, int level) {
#pragma memcoro parallel(N) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = off[v]; e < off[v + 1]; e++)
      if (dist[adj[e]] < 0)
        dist[adj[e]] = level + v;
}

struct row {
  int begin, end;
};

__attribute__((noinline)) void claim_rows(struct row *rows, int *adj, int *dist, int n, int level) {
#pragma memcoro parallel(N) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = rows[v].begin; e < rows[v].end; e++)
      if (dist[adj[e]] < 0)
        dist[adj[e]] = level + v;
}

__attribute__((noinline)) void count(int *off, int *adj, int *dist, int *cnt, int n) {
#pragma memcoro parallel(N) remote(adj, dist)
  for (int v = 0; v < n; v++)
    for (int e = off[v]; e < off[v + 1]; e++)
      if (dist[adj[e]] > 2)
        cnt[v]++;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int *off = diff_alloc(sizeof *off * (n + 2));
  struct row *rows = diff_alloc(sizeof *rows * (n + 1));
  for (int v = 0; v <= n; ++v) {
    off[v + 1] = off[v] + (int)(diff_rand() % 7);
    rows[v].begin = off[v];
    rows[v].end = off[v] + (int)(diff_rand() % 4); // a row's end is not the next row's begin
  }
  int *adj = diff_alloc(sizeof *adj * (off[n + 1] + 1));
  for (int e = 0; e < off[n + 1]; ++e) adj[e] = (int)(diff_rand() % (n + 1));
  int *dist = diff_alloc(sizeof *dist * (n + 1));
  int *dist2 = diff_alloc(sizeof *dist2 * (n + 1));
  int *cnt = diff_alloc(sizeof *cnt * (n + 1));
  for (int v = 0; v <= n; ++v)
    dist[v] = dist2[v] = diff_rand() % 3 ? -1 : v % 5;
  claim(off, adj, dist, n, 10);
  claim_rows(rows, adj, dist2, n, 20);
  count(off, adj, dist, cnt, n);
  printf("%llx %llx %llx\n", (unsigned long long)diff_hash_i32(dist, n + 1),
         (unsigned long long)diff_hash_i32(dist2, n + 1), (unsigned long long)diff_hash_i32(cnt, n + 1));
  return 0;
}
