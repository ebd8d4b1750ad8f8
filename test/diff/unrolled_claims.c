// unrolled_claims: a fixed-degree neighbour loop, fully unrolled, claims `if (parent[v] < 0) parent[v] = u;` three times per iteration: serial, with a remark.
// expect: serial
// memcoro orders a lone first-writer-wins test; three on one array in an
// iteration would let a later iteration's claim pass an earlier one's (the
// queue and parents differed from serial at N = 2).
#include "common.h"
enum { V = 1 << 13, DEG = 3 };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *adj = diff_alloc(sizeof *adj * V * DEG), *parent = diff_alloc(sizeof *parent * V);
  int32_t *frontier = diff_alloc(sizeof *frontier * (n + 1));
  for (int i = 0; i < V * DEG; ++i) adj[i] = (int32_t)(diff_rand() % V);
  for (int i = 0; i < V; ++i) parent[i] = -1;
  for (int i = 0; i < n; ++i) frontier[i] = (int32_t)(diff_rand() % V);
  int64_t scouts = 0;
#pragma memcoro parallel(N) remote(parent)
  for (int i = 0; i < n; ++i) {
    int32_t u = frontier[i];
    for (int k = 0; k < DEG; ++k) {
      int32_t v = adj[(size_t)u * DEG + k];
      int32_t curr = parent[v];
      if (curr < 0) {
        parent[v] = u;
        scouts += -curr;
      }
    }
  }
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < V; ++i) h = (h ^ (uint32_t)parent[i]) * 1099511628211ull;
  printf("%lld %llx\n", (long long)scouts, (unsigned long long)h);
  return 0;
}
