// locked_update_beside_another: `a = h[k]; t = T[idx[i]]; h[k] = a + (t & 3); h[k2] += 1;` — the first read-modify-write is split by the far load of T and was kept whole by the lock table, but the second, unsplit update of the same array took no lock: landing between another iteration's locked read and write, it was lost. A split update whose location another write of the loop may reach is not locked; the loop keeps its serial order (with prefetches), and every update counts.
// cost-model: on
#include "common.h"

__attribute__((noinline)) static void two_updates(int n, const int *T, const int *idx, const int *key, int *h) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    int k = key[i];
    int k2 = key[(i * 7) % n];
    int a = h[k];
    int t = T[idx[i]];
    h[k] = a + (t & 3);
    h[k2] += 1;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16, BINS = 8 };
  int *T = diff_alloc(sizeof *T * TABLE), *idx = diff_alloc(sizeof *idx * (n + 1));
  int *key = diff_alloc(sizeof *key * (n + 1)), *h = diff_alloc(sizeof *h * BINS);
  for (int j = 0; j < TABLE; j++) T[j] = (int)(diff_rand() & 0x3fffffff);
  for (int i = 0; i < n; i++) {
    idx[i] = (int)(diff_rand() % TABLE);
    key[i] = (int)(diff_rand() % BINS);
  }
  two_updates(n, T, idx, key, h);
  for (int b = 0; b < BINS; b++) printf("%d%c", h[b], b + 1 < BINS ? ' ' : '\n');
  return 0;
}
