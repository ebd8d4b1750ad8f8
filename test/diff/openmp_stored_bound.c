// openmp_stored_bound: OpenMP static chunk loops whose upper bound is clamped and stored back before the loop, with stores on only some paths (Graph500's edge scatter, GAP's Shiloach-Vishkin hooking): the bound is evaluated once and each chunk interleaves (issue 17, item 2).
// flags: -fopenmp
// check: conflicts (the hooking round races on the labels, as GAP's does; the rounds repeat until nothing changes)
#include "common.h"
enum { TABLE = 1 << 14 };
static int64_t T[TABLE];
static int32_t T32[TABLE];

// A 64-bit counter, a 64-bit store on one path only.
__attribute__((noinline)) void scatter_kept(int64_t *out, const int64_t *src, const int64_t *perm, int64_t n) {
#pragma omp parallel for num_threads(2)
#pragma memcoro parallel(N)
  for (int64_t k = 0; k < n; ++k) {
    int64_t i = src[k];
    if (i >= 0 && i != k)
      out[perm[k]] = T[i] + k;
  }
}

// GAP's Shiloach-Vishkin hooking: an int counter, int label stores in an
// inner loop on one path only; rounds until nothing changes, so the labels
// (each component's smallest vertex) do not depend on the order of hooks.
__attribute__((noinline)) int hook(int32_t *comp, const int64_t *off, const int32_t *adj, int n) {
  int change = 0;
#pragma omp parallel for num_threads(2)
#pragma memcoro parallel(N)
  for (int u = 0; u < n; u++) {
    for (int64_t e = off[u]; e < off[u + 1]; e++) {
      int32_t cu = comp[u], cv = comp[adj[e]];
      if (cu == cv)
        continue;
      int32_t high = cu > cv ? cu : cv, low = cu + (cv - high);
      if (high == comp[high]) {
        change = 1;
        comp[high] = low;
      }
    }
  }
  return change;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  for (int k = 0; k < TABLE; ++k) {
    T[k] = (int64_t)(diff_rand() % 100000);
    T32[k] = (int32_t)(diff_rand() % 1000);
  }
  int64_t *src = diff_alloc(sizeof *src * (n + 1)), *perm = diff_alloc(sizeof *perm * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int k = 0; k < n; ++k) {
    src[k] = diff_rand() % 8 == 0 ? -1 : (int64_t)(diff_rand() % TABLE);
    perm[k] = k;
  }
  for (int k = n - 1; k > 0; --k) {
    int j = (int)(diff_rand() % (uint64_t)(k + 1));
    int64_t t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  scatter_kept(out, src, perm, n);
  printf("%llx\n", (unsigned long long)diff_hash_u64((const uint64_t *)out, n));

  int64_t *off = diff_alloc(sizeof *off * (n + 2));
  for (int u = 0; u < n; u++)
    off[u + 1] = off[u] + (int64_t)(diff_rand() % 3);
  int32_t *adj = diff_alloc(sizeof *adj * (off[n] + 1)), *comp = diff_alloc(sizeof *comp * (n + 1));
  for (int64_t e = 0; e < off[n]; e++)
    adj[e] = (int32_t)(diff_rand() % (uint64_t)n);
  for (int u = 0; u < n; u++)
    comp[u] = u;
  while (hook(comp, off, adj, n)) {
    for (int u = 0; u < n; u++)
      while (comp[u] != comp[comp[u]])
        comp[u] = comp[comp[u]];
  }
  uint64_t h = 0;
  for (int u = 0; u < n; u++)
    h = h * 1000003 + (uint64_t)comp[u];
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
