// split_update: two h[k] += 1 around a dependent load chain, merged by LLVM into one load and one store across it (fuzz.py seed 525).
#include "common.h"
static int64_t H[256], T0[4096], T1[4096];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < 4096; ++i) { T0[i] = (int64_t)(diff_rand() % 1000); T1[i] = (int64_t)(diff_rand() % 4096); }
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % 4096;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    H[idx[i] & 255] += 1;
    int64_t v = T0[T1[idx[i]] & 4095];
    H[idx[i] & 255] += 1;
    out[i] = v;
  }
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64((uint64_t *)H, 256),
         (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
