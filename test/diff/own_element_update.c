// own_element_update: a read-modify-write of the iteration's own element (parent[u], u the loop counter) split by a suspension of another access: no other iteration touches it, so the loop interleaves (issue 17, item 5).
#include "common.h"
static int64_t T[4096];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *parent = diff_alloc(sizeof *parent * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 100000);
  for (int u = 0; u < n; ++u) {
    idx[u] = diff_rand() % 4096;
    parent[u] = diff_rand() % 3 == 0 ? (int64_t)u : -1;
  }
#pragma memcoro parallel(N)
  for (int u = 0; u < n; ++u)
    if (parent[u] < 0) {
      int64_t v = T[idx[u]];         // suspends between the read of parent[u]...
      parent[u] = v % 2 ? v : -v - 2; // ...and its write
    }
  printf("%llx\n", (unsigned long long)diff_hash_u64((const uint64_t *)parent, n));
  return 0;
}
