// adapt_default_n: marked loops without parallel(N), whose N is chosen at run time: a gather with a reduction and a chase of two dependent loads (pipelines: the distance follows n), an append (iteration order), a chained probe (ring), each with windows of several N.
#include "common.h"
typedef struct entry { int64_t key, value; struct entry *next; } entry;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16, BUCKETS = 1 << 12 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 100000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;

  int64_t sum = 0;
#pragma memcoro remote(a)
  for (int i = 0; i < n; ++i)
    sum += a[idx[i]] * (i % 7);

  int64_t chased = 0;
#pragma memcoro remote(a)
  for (int i = 0; i < n; ++i)
    chased ^= a[a[idx[i]] & (TABLE - 1)] + i;

  int32_t *picked = diff_alloc(sizeof *picked * (n + 1));
  size_t np = 0;
#pragma memcoro remote(a)
  for (int i = 0; i < n; ++i)
    if (a[idx[i]] % 3 == 0)
      picked[np++] = i;

  entry *pool = diff_alloc(sizeof *pool * TABLE);
  entry **heads = diff_alloc(sizeof *heads * BUCKETS);
  for (int b = 0; b < BUCKETS; ++b) heads[b] = 0;
  for (int e = 0; e < TABLE; ++e) {
    pool[e].key = (int64_t)(diff_rand() % (4 * TABLE));
    pool[e].value = e;
    pool[e].next = heads[pool[e].key % BUCKETS];
    heads[pool[e].key % BUCKETS] = &pool[e];
  }
  int64_t found = 0;
#pragma memcoro
  for (int i = 0; i < n; ++i) {
    int64_t key = idx[i] % (4 * TABLE);
    for (entry *p = heads[key % BUCKETS]; p; p = p->next)
      if (p->key == key) {
        found += p->value;
        break;
      }
  }

  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < np; ++k) h = (h ^ (uint64_t)picked[k]) * 1099511628211ull;
  printf("%lld %lld %zu %llx %lld\n", (long long)sum, (long long)chased, np, (unsigned long long)h, (long long)found);
  return 0;
}
