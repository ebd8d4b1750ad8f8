// radix_scatter: a radix partitioning pass's scatter (out[dst[idx]] = t; ++dst[idx], the cursor picked by the
// key's bits) and a counting sort's ranks (rank[i] = cnt[key[i]]++): each counter's old value places the
// iteration, so from its read on the iteration runs in iteration order (split/CursorAppend.cpp) and every
// partition keeps the input's order, as serially. main's build scattered in the order iterations reached the
// cursor: the same tuples, in another order within partitions.
#include "common.h"
typedef struct { uint32_t key, payload; } tuple_t;
enum { BITS = 5, FANOUT = 1 << BITS };
static void scatter(const tuple_t *in, tuple_t *out, uint32_t *dst, int n) {
#pragma memcoro parallel(N) remote(in, out)
  for (int i = 0; i < n; i++) {
    uint32_t idx = in[i].key & (FANOUT - 1);
    out[dst[idx]] = in[i];
    ++dst[idx];
  }
}
static void ranks(const uint32_t *key, uint32_t *cnt, uint32_t *rank, int n) {
#pragma memcoro parallel(N) remote(key, rank)
  for (int i = 0; i < n; i++)
    rank[i] = cnt[key[i] % 7]++;
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  tuple_t *in = diff_alloc(sizeof *in * (n + 1)), *out = diff_alloc(sizeof *out * (n + 1));
  uint32_t *keys = diff_alloc(sizeof *keys * (n + 1)), *rank = diff_alloc(sizeof *rank * (n + 1));
  uint32_t hist[FANOUT] = {0}, dst[FANOUT], cnt[7] = {0};
  for (int i = 0; i < n; i++) {
    in[i].key = (uint32_t)diff_rand();
    in[i].payload = (uint32_t)i;
    keys[i] = (uint32_t)diff_rand();
    hist[in[i].key & (FANOUT - 1)]++;
  }
  for (uint32_t p = 0, offset = 0; p < FANOUT; p++) {
    dst[p] = offset;
    offset += hist[p];
  }
  scatter(in, out, dst, n);
  ranks(keys, cnt, rank, n);
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++)
    h = (h ^ out[i].payload ^ ((uint64_t)rank[i] << 32)) * 1099511628211ull;
  printf("%llx %u %u\n", (unsigned long long)h, dst[FANOUT - 1], cnt[3]);
  return 0;
}
