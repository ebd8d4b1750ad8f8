// openmp_dynamic_atomic: a `schedule(dynamic, k)` chunk loop with an atomic update on some paths (as GAP Afforest's link step in bench/programs/cc.cpp has its compare-and-swap): the chunk's upper bound sits in a stack slot the atomic may write, so GVN reads it again after the atomic, carries it through phis and widens it for the 64-bit counter; it is evaluated once, as OpenMP does, and each chunk interleaves.
// flags: -fopenmp
#include "common.h"
enum { TABLE = 1 << 15, BINS = 64 };
static int32_t T[TABLE];
static int32_t hist[BINS];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (int32_t)(diff_rand() % 1000) - 300;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
#pragma omp parallel for schedule(dynamic, 64) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    if (T[idx[i]] > 0)
      __sync_fetch_and_add(&hist[T[idx[i]] % BINS], 1);
  for (int b = 0; b < BINS; ++b) printf("%d ", hist[b]);
  printf("\n");
  return 0;
}
