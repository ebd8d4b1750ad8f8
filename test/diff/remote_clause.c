// remote_clause: remote(a) names an affine stream, which the cost model leaves to the hardware prefetcher: serial.
// cost-model: on
// expect: serial
#include "common.h"
#ifndef INSIST // remote_insist.c: the same loop with the insist clause
#define INSIST
#endif
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *a = diff_alloc(sizeof *a * (n + 1));
  int64_t *b = diff_alloc(sizeof *b * (n + 1));
  for (int i = 0; i < n; ++i) a[i] = (int64_t)(diff_rand() % 1000);
  int64_t sum = 0;
#pragma memcoro parallel(N) remote(a) INSIST
  for (int i = 0; i < n; ++i) {
    b[i] = a[i] * 2;
    sum += a[i];
  }
  printf("%lld %llx\n", (long long)sum, (unsigned long long)diff_hash_u64((uint64_t *)b, n));
  return 0;
}
