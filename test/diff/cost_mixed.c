// cost_mixed: issue 13's loop s += hot[ix[i]] * cold[iy[i]]: hot a 4 KiB global table (no suspension), cold sized at run time (one).
// cost-model: on
#include "common.h"
uint32_t hot[1024];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  size_t entries = 4096 + (size_t)n;
  uint64_t *cold = diff_alloc(sizeof *cold * entries);
  uint32_t *ix = diff_alloc(sizeof *ix * (n + 1)), *iy = diff_alloc(sizeof *iy * (n + 1));
  for (int k = 0; k < 1024; ++k) hot[k] = (uint32_t)diff_rand();
  for (size_t k = 0; k < entries; ++k) cold[k] = diff_rand();
  for (int i = 0; i < n; ++i) { ix[i] = diff_rand() % 1024; iy[i] = diff_rand() % entries; }
  uint64_t s = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  printf("%llx\n", (unsigned long long)s);
  return 0;
}
