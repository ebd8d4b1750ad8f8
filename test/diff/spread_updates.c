// spread_updates: updates of a shared bin spread over the iteration: read into a register, summed over a chain walk (suspending at each node), stored back; two `h[k] += ...` of one bin GVN merges into one read and one write across a far load; an inner loop's `h[k] += ...` LICM promotes. The user wrote updates the contract lets iterations make in any order, but the read and the write were split by suspensions and another iteration's update in between was lost (wrong totals, the checking build reporting a conflict). Each is now applied at its store to the bin read again there (RebasedUpdates.cpp).
#include "common.h"
enum { TABLE = 1 << 15, BINS = 64 };
struct node { struct node *next; unsigned v; };
static unsigned T[TABLE];
static struct node pool[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1)), *key = diff_alloc(sizeof *key * (n + 1));
  int32_t *off = diff_alloc(sizeof *off * (n + 2));
  for (int k = 0; k < TABLE; ++k) {
    T[k] = (unsigned)diff_rand();
    pool[k].v = (unsigned)diff_rand();
    pool[k].next = diff_rand() % 4 ? &pool[diff_rand() % TABLE] : 0;
  }
  off[0] = 0;
  for (int i = 0; i < n; ++i) {
    idx[i] = diff_rand() % TABLE;
    key[i] = diff_rand() % BINS;
    off[i + 1] = off[i] + diff_rand() % 5;
  }
  int32_t *cols = diff_alloc(sizeof *cols * (off[n] + 1));
  for (int j = 0; j < off[n]; ++j) cols[j] = diff_rand() % TABLE;
  unsigned chain[BINS] = {0}, twice[BINS] = {0};
  unsigned long rows[BINS] = {0};
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    unsigned c = chain[key[i]];
    int depth = 0;
    for (struct node *p = &pool[idx[i]]; p && depth < 6; p = p->next, depth++)
      c += p->v;
    chain[key[i]] = c;
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    twice[key[i]] += T[idx[i]];
    twice[key[i]] += T[(idx[i] * 13 + 5) % TABLE];
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    for (int j = off[i]; j < off[i + 1]; ++j)
      rows[key[i]] += T[cols[j]];
  uint64_t h = 0;
  for (int b = 0; b < BINS; ++b) h = h * 1000003u + chain[b] * 31u + twice[b] * 7u + rows[b];
  printf("%llu\n", (unsigned long long)h);
  return 0;
}
