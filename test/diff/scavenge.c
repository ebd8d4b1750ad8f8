// scavenge: marked loops in scavenger mode, the primary's and a scavenger's own; every answer and every piece of scavenger work as in the serial build.
// flags: -fmemcoro-scavenge=200
#include "common.h"

#include "memcoro/scavenger.h"

struct cell { int64_t value; struct cell *next; char pad[48]; };
enum { CELLS = 20000, PIECES = 24 };
static struct cell *cells;

// A scavenger that is itself a marked loop: in scavenger mode its stalls
// yield to the other scavengers and to the primary.
struct piece { int64_t *slots; int first, count; int64_t sum; };
static void walk_piece(void *arg) {
  struct piece *p = arg;
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < p->count; ++i) {
    int64_t s = 0;
    int steps = 0;
    for (struct cell *c = &cells[(p->first + i * 7919) % CELLS]; c && steps < 20; c = c->next, ++steps) s += c->value;
    p->slots[i] = s;
    sum += s;
  }
  p->sum = sum;
}

// A plain scavenger with bounded-distance yields.
struct scan { const int64_t *v; int n; int64_t sum; };
static void scan(void *arg) {
  struct scan *s = arg;
  for (int i = 0; i < s->n; ++i) {
    s->sum += s->v[i] * (i | 1);
    if (i % 64 == 63)
      memcoro_scavenger_yield();
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  cells = diff_alloc(sizeof *cells * CELLS);
  for (int i = 0; i < CELLS; ++i) {
    cells[i].value = (int64_t)(diff_rand() % 1000);
    cells[i].next = diff_rand() % 9 == 0 ? NULL : &cells[diff_rand() % CELLS];
  }
  struct piece pieces[PIECES];
  for (int k = 0; k < PIECES; ++k) {
    pieces[k] = (struct piece){diff_alloc(sizeof(int64_t) * 300), k * 131, 100 + 8 * k, -1};
    if (!memcoro_scavenger_add(walk_piece, &pieces[k]))
      return 1;
  }
  int64_t *values = diff_alloc(sizeof(int64_t) * 5000);
  for (int i = 0; i < 5000; ++i) values[i] = (int64_t)(diff_rand() % 100000);
  struct scan sc = {values, 5000, 0};
  if (!memcoro_scavenger_add(scan, &sc))
    return 1;

  struct cell **heads = diff_alloc(sizeof *heads * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) {
    heads[i] = i % 7 == 3 ? NULL : &cells[diff_rand() % CELLS];
    idx[i] = (uint32_t)(diff_rand() % CELLS);
  }
  // The primary: a ring (list walks) and a lockstep loop (gather).
  int64_t total = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t s = 0;
    int steps = 0;
    for (struct cell *p = heads[i]; p && steps < 50; p = p->next, ++steps) s += p->value;
    out[i] = s;
    total += s;
  }
  int64_t gathered = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    gathered += cells[idx[i]].value;

  // What the primary's stalls left undone runs now: nothing is lost.
  memcoro_scavenger_stats st;
  memcoro_scavenger_get_stats(&st);
  size_t finished = memcoro_scavenger_drain() + st.completed;
  fprintf(stderr, "scavenger stalls %llu, switches %llu, finished before the drain %llu\n",
          (unsigned long long)st.stalls, (unsigned long long)st.switches, (unsigned long long)st.completed);
  printf("%lld %lld %llx\n", (long long)total, (long long)gathered,
         (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  int64_t work = sc.sum;
  for (int k = 0; k < PIECES; ++k)
    work = work * 31 + pieces[k].sum + (int64_t)diff_hash_u64((uint64_t *)pieces[k].slots, pieces[k].count);
  printf("scavengers finished %zu of %d, work %llx\n", finished, PIECES + 1, (unsigned long long)work);
  return 0;
}
