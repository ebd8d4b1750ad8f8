// dependent_loads: p->next->key, two dependent remote loads in a row.
#include "common.h"
struct node { int64_t key; struct node *next; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { NODES = 30000 };
  struct node *nodes = diff_alloc(sizeof *nodes * NODES);
  for (int i = 0; i < NODES; ++i) {
    nodes[i].key = (int64_t)(diff_rand() % 100000);
    nodes[i].next = &nodes[diff_rand() % NODES];
  }
  int32_t *start = diff_alloc(sizeof *start * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < n; ++i) start[i] = diff_rand() % NODES;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = nodes[start[i]].next->next->key;
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
