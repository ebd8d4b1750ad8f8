// counter_slots_in_turn: the slot an append counter kept in a register names is the iteration's only once it holds the turn. A ring cursor (`out[pos] = v; pos = (pos + 3) % n`, or `pos += 2; if (pos >= n) pos -= n`) and a branch-free filter (`out[k] = v; k += v & 1`) store at every iteration; the planner hoisted the slot's address above the far load's suspension to prefetch the store, so it was computed from the counter before the iteration's turn: every value went to out[0], or the filter kept the wrong ones, and the checking build saw nothing.
#include "common.h"
enum { TABLE = 1 << 15 };
static int T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (int)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  int *ring = diff_alloc(sizeof *ring * (n + 1));
  long *acc = diff_alloc(sizeof *acc * (n + 1));
  int *kept = diff_alloc(sizeof *kept * (n + 1));
  for (int i = 0; i <= n; ++i) ring[i] = kept[i] = -1, acc[i] = 0;
  int pos = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    ring[pos] = T[idx[i]];
    pos = (pos + 3) % n;
  }
  int at = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    acc[at] += T[idx[i]];
    at += 2;
    if (at >= n)
      at -= n;
  }
  long k = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int v = T[idx[i]];
    kept[k] = v;
    k += v & 1;
  }
  uint64_t h = 0;
  for (int i = 0; i <= n; ++i) h = h * 1000003u + (uint64_t)ring[i] * 31 + (uint64_t)acc[i] * 7 + (uint64_t)kept[i];
  printf("%d %d %ld %llu\n", pos, at, k, (unsigned long long)h);
  return 0;
}
