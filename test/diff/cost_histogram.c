// cost_histogram: NPB IS's count h[key[i]]++ into a global table that fits in the cache: the cost model keeps it serial.
// cost-model: on
// expect: serial
#include "common.h"
enum { KEYS = 1 << 16 };
uint32_t counts[KEYS];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  uint32_t *key = diff_alloc(sizeof *key * (n + 1));
  for (int i = 0; i < n; ++i) key[i] = diff_rand() % KEYS;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    counts[key[i]]++;
  uint64_t h = 0;
  for (int k = 0; k < KEYS; ++k) h = h * 31 + counts[k];
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
