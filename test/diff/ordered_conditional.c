// ordered_conditional: an ordered region inside a conditional after list walks (ring): iterations that skip it must not hold up the others.
#include "common.h"
typedef struct node { struct node *next; uint32_t v; } node;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { POOL = 1 << 14 };
  node *pool = diff_alloc(sizeof *pool * POOL);
  for (int i = 0; i < POOL; ++i) {
    pool[i].v = diff_rand() % 1000;
    pool[i].next = (i && diff_rand() % 4) ? &pool[i - 1 - diff_rand() % (i < 8 ? i : 8)] : 0;
  }
  uint32_t *start = diff_alloc(sizeof *start * (n + 1));
  for (int i = 0; i < n; ++i) start[i] = diff_rand() % POOL;
  uint64_t *log = diff_alloc(sizeof *log * (n + 1));
  uint64_t sum = 0;
  size_t nlog = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    node *p = &pool[start[i]];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
    sum += k;
    if (k % 3 == 0) {
#pragma memcoro ordered
      { log[nlog] = (uint64_t)k << 32 | (uint64_t)i; nlog += 1; }
    }
  }
  printf("%zu %llu %llx\n", nlog, (unsigned long long)sum, (unsigned long long)diff_hash_u64(log, nlog));
  return 0;
}
