// output_in_order: printf and puts in interleaved loops (list walks of different lengths, so iterations finish out of order): on every iteration, on a data-dependent path, and on a rare path guarded by a flag in memory, as libbloom's check reports an uninitialised filter.
#include "common.h"
typedef struct node { struct node *next; uint32_t v; } node;
struct filter { int ready; const uint8_t *bits; };

static int check(const struct filter *f, uint32_t key) {
  if (f->ready == 0) {
    printf("filter at slot %u not initialized!\n", key % 8);
    return -1;
  }
  return (f->bits[key % 4096] >> (key % 8)) & 1;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { POOL = 1 << 14 };
  node *pool = diff_alloc(sizeof *pool * POOL);
  for (int i = 0; i < POOL; ++i) { pool[i].v = diff_rand() % 1000; pool[i].next = (i && diff_rand() % 4) ? &pool[i - 1 - diff_rand() % (i < 8 ? i : 8)] : 0; }
  uint32_t *start = diff_alloc(sizeof *start * (n + 1));
  for (int i = 0; i < n; ++i) start[i] = diff_rand() % POOL;
  uint8_t *bits = diff_alloc(4096);
  for (int i = 0; i < 4096; ++i) bits[i] = diff_rand();

#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    node *p = &pool[start[i]];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
    printf("%d %u\n", i, k);
  }

  uint64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    node *p = &pool[start[i]];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
    if (k % 97 == 0)
      puts(k % 2 ? "odd multiple of 97" : "even multiple of 97");
    sum += k;
  }
  printf("sum %llu\n", (unsigned long long)sum);

  // Ready or not for the whole loop, depending on the trip count.
  struct filter f = {n % 3 != 0, bits};
  int found = 0, failed = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int r = check(&f, pool[start[i]].v * 2654435761u);
    if (r == 1) found++;
    if (r < 0) failed++;
  }
  printf("found %d failed %d\n", found, failed);
  return 0;
}
