// exit_at_launch: loops whose exit depends on data they read, as real code
// writes them: a work list walked with `while (p)`, its body gathering from a
// table per node, and a zero-terminated key array `for (i = 0; key[i] != 0;
// i++)`. The test runs at launch, in iteration order; the rest interleaves.
#include "common.h"
enum { TABLE = 1 << 15 };
struct work { int32_t key; int32_t weight; struct work *next; };

static int64_t walk(const struct work *p, const int64_t *t) {
  int64_t total = 0;
#pragma memcoro parallel(N)
  while (p) {
    total += t[p->key] * p->weight;
    p = p->next;
  }
  return total;
}

static uint64_t until_zero(const uint32_t *key, const int64_t *t) {
  uint64_t h = 0;
#pragma memcoro parallel(N)
  for (int i = 0; key[i] != 0; i++)
    h ^= (uint64_t)t[key[i] % TABLE] * (i + 1);
  return h;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *t = diff_alloc(sizeof *t * TABLE);
  struct work *items = diff_alloc(sizeof *items * (n + 1));
  uint32_t *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int i = 0; i < TABLE; ++i) t[i] = (int64_t)(diff_rand() % 100000);
  // The list visits the items in a shuffled order.
  int32_t *order = diff_alloc(sizeof *order * (n + 1));
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) {
    int j = diff_rand() % (i + 1), x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
  for (int i = 0; i < n; ++i) {
    struct work *w = &items[order[i]];
    w->key = diff_rand() % TABLE;
    w->weight = 1 + diff_rand() % 7;
    w->next = i + 1 < n ? &items[order[i + 1]] : NULL;
    keys[i] = 1 + diff_rand() % 1000000;
  }
  keys[n] = 0;
  // Walks from several places in the list, run one after the other: an
  // adapting walk runs as decided within its budget and, when the budget
  // ends before the list does, measures on from there.
  int64_t again = 0;
  for (int r = 0; r < 12; ++r)
    again = again * 31 + walk(n ? &items[order[(int64_t)n * r / 12]] : NULL, t);
  printf("%lld %llx %lld\n", (long long)walk(n ? &items[order[0]] : NULL, t),
         (unsigned long long)until_zero(keys, t), (long long)again);
  return 0;
}
