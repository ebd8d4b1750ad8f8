// list_walk: linked lists of unknown length (unknown number of suspensions per iteration).
#include "common.h"
struct cell { int64_t value; struct cell *next; char pad[48]; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { CELLS = 20000 };
  struct cell *cells = diff_alloc(sizeof *cells * CELLS);
  struct cell **heads = diff_alloc(sizeof *heads * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < CELLS; ++i) {
    cells[i].value = (int64_t)(diff_rand() % 1000);
    cells[i].next = diff_rand() % 9 == 0 ? NULL : &cells[diff_rand() % CELLS];
  }
  for (int i = 0; i < n; ++i) heads[i] = i % 7 == 3 ? NULL : &cells[diff_rand() % CELLS];
  // Bounded walks: the cells may form cycles, so each list stops after 50 steps.
  int64_t total = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t s = 0;
    int steps = 0;
    for (struct cell *p = heads[i]; p && steps < 50; p = p->next, ++steps) s += p->value;
    out[i] = s;
    total += s;
  }
  printf("%lld %llx\n", (long long)total, (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
