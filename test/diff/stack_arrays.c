// stack_arrays: stack memory declared before the loop, shared under the contract like the heap: GUPS's per-stream state array indexed by the loop counter, and a histogram into a stack array (issue 17, item 4).
#include "common.h"
#define TABLE 4096
static uint64_t T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *key = diff_alloc(sizeof *key * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = diff_rand();
  for (int i = 0; i < n; ++i) key[i] = diff_rand() % TABLE;
  uint64_t st[64]; // one random stream per lane, as in the HPCC RandomAccess update loop
  for (int j = 0; j < 64; ++j) st[j] = diff_rand() | 1;
  for (int round = 0; round < 3; ++round) {
#pragma memcoro parallel(N)
    for (int j = 0; j < 64; ++j) {
      st[j] = (st[j] << 1) ^ ((int64_t)st[j] < 0 ? 7 : 0);
      T[st[j] & (TABLE - 1)] ^= st[j];
    }
  }
  uint32_t hist[256] = {0};
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    hist[T[key[i]] & 255]++;
  printf("%llx %llx %llx\n", (unsigned long long)diff_hash_u64(T, TABLE), (unsigned long long)diff_hash_u64(st, 64),
         (unsigned long long)diff_hash_i32((const int32_t *)hist, 256));
  return 0;
}
