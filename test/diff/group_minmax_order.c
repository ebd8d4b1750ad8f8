// group_minmax_order: a GROUP BY through a chained hash lookup keeps each group's double minimum (`if (v < mn[g]) mn[g] = v`), maximum (`mx[g] = mx[g] > v ? mx[g] : v`) and an integer argmin (`if (k < kmin[g]) { kmin[g] = k; arg[g] = i; }`). The values include NaN, -0.0 and +0.0 and repeated keys: which value or index stays depends on which iteration came first, and chains of different lengths finish out of order on the ring (the maximum came out 38 instead of NaN, a minimum +0 instead of -0, another index). Each update runs in iteration order, and every group equals the serial loop's to the bit.
#include <math.h>
#include <string.h>
#include "common.h"

struct node {
  unsigned key, grp;
  struct node *next;
};

__attribute__((noinline)) static void aggregate(int n, struct node **buckets, unsigned mask, const unsigned *fk,
                                                const double *val, const long *k, double *mn, double *mx,
                                                long *kmin, int *arg) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    const struct node *p = buckets[fk[i] & mask];
    while (p->key != fk[i]) p = p->next;
    unsigned g = p->grp;
    double v = val[i];
    if (v < mn[g]) mn[g] = v;
    mx[g] = mx[g] > v ? mx[g] : v;
    if (k[i] < kmin[g]) {
      kmin[g] = k[i];
      arg[g] = i;
    }
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 64, KEYS = 512, GROUPS = 4 };
  static struct node pool[KEYS];
  static struct node *buckets[BUCKETS];
  for (unsigned i = 0; i < KEYS; i++) {
    pool[i].key = i;
    pool[i].grp = i % GROUPS;
    pool[i].next = buckets[i % BUCKETS];
    buckets[i % BUCKETS] = &pool[i];
  }
  unsigned *fk = diff_alloc(sizeof *fk * (n + 1));
  double *val = diff_alloc(sizeof *val * (n + 1));
  long *k = diff_alloc(sizeof *k * (n + 1));
  for (int i = 0; i < n; i++) {
    fk[i] = (unsigned)(diff_rand() % KEYS);
    unsigned r = (unsigned)(diff_rand() % 8);
    val[i] = r == 0 ? NAN : r == 1 ? -0.0 : r == 2 ? 0.0 : (double)(diff_rand() % 50);
    k[i] = (long)(diff_rand() % 5);
  }
  double mn[GROUPS], mx[GROUPS];
  long kmin[GROUPS];
  int arg[GROUPS];
  for (int g = 0; g < GROUPS; g++) {
    mn[g] = 1e300;
    mx[g] = -1e300;
    kmin[g] = 1000;
    arg[g] = -1;
  }
  aggregate(n, buckets, BUCKETS - 1, fk, val, k, mn, mx, kmin, arg);
  for (int g = 0; g < GROUPS; g++) {
    uint64_t a, b;
    memcpy(&a, &mn[g], sizeof a);
    memcpy(&b, &mx[g], sizeof b);
    printf("%016llx %016llx %ld %d\n", (unsigned long long)a, (unsigned long long)b, kmin[g], arg[g]);
  }
  return 0;
}
