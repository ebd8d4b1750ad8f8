// float_scatter_chains: each iteration walks a chain of nodes and adds each node's weight to acc[node->key], a float update of elements other iterations update too, with no reassociation allowed. Chains of different lengths finish out of iteration order on the ring, so the additions into one element came in another order and the sums differed from the serial loop's in their last bits. The update runs in iteration order, and every sum equals the serial loop's to the bit.
#include <string.h>
#include "common.h"

struct node {
  int key;
  float w;
  struct node *next;
};

__attribute__((noinline)) static void scatter(int n, const int *idx, struct node *const *heads, float *acc) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    for (const struct node *p = heads[idx[i]]; p; p = p->next)
      acc[p->key] += p->w;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { HEADS = 257, KEYS = 8 };
  struct node *heads[HEADS];
  memset(heads, 0, sizeof heads);
  static struct node pool[3 * HEADS];
  for (int j = 0; j < 3 * HEADS; j++) {
    int h = (int)(diff_rand() % HEADS);
    pool[j].key = (int)(diff_rand() % KEYS);
    pool[j].w = (float)(diff_rand() % 1000003) / 7.0f;
    pool[j].next = heads[h];
    heads[h] = &pool[j];
  }
  int *idx = malloc((n + 1) * sizeof(int));
  for (int i = 0; i < n; i++) idx[i] = (int)(diff_rand() % HEADS);
  float acc[KEYS] = {0};
  scatter(n, idx, heads, acc);
  for (int k = 0; k < KEYS; k++) {
    uint32_t bits;
    memcpy(&bits, &acc[k], sizeof bits);
    printf("%08x%c", bits, k + 1 < KEYS ? ' ' : '\n');
  }
  free(idx);
  return 0;
}
