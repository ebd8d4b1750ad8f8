// openmp_dynamic_cas: Afforest's link step (bench/programs/cc.cpp) under `schedule(dynamic, k)`: the chunk's upper bound sits in a stack slot the compare-and-swap may write, so GVN reads it again after the cmpxchg and carries it through phis; it is evaluated once, as OpenMP does, and each chunk interleaves. The forest's roots are each part's smallest vertex whatever the order of the links.
// flags: -fopenmp
#include "common.h"
static void link_roots(int32_t u, int32_t v, int32_t *comp) {
  int32_t p1 = comp[u], p2 = comp[v];
  while (p1 != p2) {
    int32_t high = p1 > p2 ? p1 : p2, low = p1 + (p2 - high);
    int32_t p_high = comp[high];
    if (p_high == low || (p_high == high && __sync_bool_compare_and_swap(&comp[high], high, low)))
      break;
    p1 = comp[comp[high]];
    p2 = comp[low];
  }
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *comp = diff_alloc(sizeof *comp * (n + 1));
  int32_t *neigh = diff_alloc(sizeof *neigh * (n + 1));
  for (int i = 0; i < n; ++i) {
    comp[i] = i;
    neigh[i] = diff_rand() % n;
  }
#pragma omp parallel for schedule(dynamic, 64) num_threads(2)
#pragma memcoro parallel(N)
  for (int u = 0; u < n; u++)
    link_roots(u, neigh[u], comp);
  uint64_t h = 0;
  for (int i = 0; i < n; ++i) {
    int32_t r = i;
    while (comp[r] != r) r = comp[r];
    h = h * 31 + (uint64_t)r;
  }
  printf("%llu\n", (unsigned long long)h);
  return 0;
}
