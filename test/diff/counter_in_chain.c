// counter_in_chain: a chained hash probe counts every node it visits in a global, `g_probes++` inside the chain walk. GVN reads the counter once before the walk, carries it through the inner loop's phi and stores each step, so each iteration's updates were one read and later writes with the walk's suspensions between them: the loop stayed serial ("the store and the load can touch the same memory in every iteration"). Each store is given the counter read again right before it (a commutative update in one step, as the contract covers); the loop interleaves, and the counter and results equal the serial loop's.
#include "common.h"

struct node {
  unsigned long key, val;
  struct node *next;
};
unsigned long g_probes = 7;

__attribute__((noinline)) static void probe(struct node **b, unsigned long mask, const unsigned long *keys, int n,
                                            unsigned long *out) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    unsigned long r = 0;
    for (struct node *p = b[keys[i] & mask]; p; p = p->next) {
      g_probes++;
      if (p->key == keys[i]) {
        r = p->val;
        break;
      }
    }
    out[i] = r;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 256, KEYS = 2048 };
  static struct node pool[KEYS];
  static struct node *b[BUCKETS];
  for (unsigned k = 0; k < KEYS; k++) {
    pool[k].key = k * 3;
    pool[k].val = diff_rand();
    pool[k].next = b[(k * 3) % BUCKETS];
    b[(k * 3) % BUCKETS] = &pool[k];
  }
  unsigned long *keys = diff_alloc(sizeof *keys * (n + 1)), *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < n; i++) keys[i] = diff_rand() % (3 * KEYS);
  probe(b, BUCKETS - 1, keys, n, out);
  uint64_t h = 0;
  for (int i = 0; i < n; i++) h = h * 31 + out[i];
  printf("%lu %llx\n", g_probes, (unsigned long long)h);
  return 0;
}
