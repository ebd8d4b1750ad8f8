// ordered_region: list walks of different lengths (ring dispatch), then order-dependent updates (x = x * 31 + i, last writer wins) in an ordered region.
#include "common.h"
typedef struct node { struct node *next; uint32_t v; } node;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { POOL = 1 << 14 };
  node *pool = diff_alloc(sizeof *pool * POOL);
  for (int i = 0; i < POOL; ++i) { pool[i].v = diff_rand() % 1000; pool[i].next = (i && diff_rand() % 4) ? &pool[i - 1 - diff_rand() % (i < 8 ? i : 8)] : 0; }
  uint32_t *start = diff_alloc(sizeof *start * (n + 1));
  for (int i = 0; i < n; ++i) start[i] = diff_rand() % POOL;
  uint64_t *hist = diff_alloc(sizeof *hist * 64);
  uint32_t *last = diff_alloc(sizeof *last * 64);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    node *p = &pool[start[i]];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
#pragma memcoro ordered
    {
      hist[k % 64] = hist[k % 64] * 31 + (uint64_t)i;
      last[k % 64] = (uint32_t)i;
    }
  }
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64(hist, 64), (unsigned long long)diff_hash_i32((int32_t *)last, 64));
  return 0;
}
