// ordered_lockstep: a gather (lockstep dispatch), then an order-dependent update in an ordered region in the last phase: slot order is iteration order.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16 };
  uint64_t *table = diff_alloc(sizeof *table * TABLE);
  for (int i = 0; i < TABLE; ++i) table[i] = diff_rand();
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  uint64_t *h = diff_alloc(sizeof *h * 16);
  uint32_t *last = diff_alloc(sizeof *last * 16);
#pragma memcoro parallel(N) remote(table)
  for (int i = 0; i < n; ++i) {
    uint64_t v = table[idx[i]];
#pragma memcoro ordered
    {
      h[v & 15] = h[v & 15] * 31 + (v >> 40);
      last[(v >> 8) & 15] = (uint32_t)i;
    }
  }
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64(h, 16), (unsigned long long)diff_hash_i32((int32_t *)last, 16));
  return 0;
}
