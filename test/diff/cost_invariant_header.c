// cost_invariant_header: a noinline lookup resumed as a nested coroutine reads its index's header through the table the loop passes it, the same in every iteration: the cost model gives the header no suspension, only the slot (split/SplitCost.cpp).
// cost-model: on
#include "common.h"

struct slot {
  uint64_t key, value;
};
struct index {
  uint64_t mask;
  struct slot *slots;
};
struct table {
  const char *name;
  struct index *index;
};

__attribute__((noinline)) uint64_t lookup(const struct table *t, uint64_t key) {
  const struct slot *s = &t->index->slots[(key * 0x9E3779B97F4A7C15ull >> 17) & t->index->mask];
  return s->key == key ? s->value : 0;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { SLOTS = 1 << 12 };
  struct index idx = {SLOTS - 1, diff_alloc(sizeof(struct slot) * SLOTS)};
  struct table t = {"main", &idx};
  for (int i = 0; i < SLOTS; ++i)
    idx.slots[i] = (struct slot){diff_rand() % (2 * SLOTS), diff_rand()};
  uint64_t *keys = diff_alloc(sizeof *keys * (n + 1)), *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < n; ++i)
    keys[i] = i % 3 ? idx.slots[diff_rand() % SLOTS].key : diff_rand();
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = lookup(&t, keys[i]);
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i)
    sum = sum * 31 + out[i];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
