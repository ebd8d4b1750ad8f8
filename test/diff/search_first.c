// search_first: search loops as real code writes them: the index of the first
// match (`found = i; break;`), a hash-chain probe that returns its first hit
// from inside the chain walk, and a chain sum that leaves with `goto` from the
// inner loop, its total live across the exit. Each runs with the match in the
// first, middle and last iteration, in several iterations (the first in
// iteration order wins), and nowhere.
#include "common.h"
enum { TABLE = 1 << 15, BUCKETS = 1 << 12, NODES = 1 << 14 };
struct node { int64_t key, value; struct node *next; };

static int find_first(const int64_t *a, const int32_t *idx, int n, int64_t key) {
  int found = -1;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    if (a[idx[i]] == key) {
      found = i;
      break;
    }
  return found;
}

// The counter itself after the loop: where the search stopped, or n.
static int index_of(const int64_t *a, const int32_t *idx, int n, int64_t key) {
  int i;
#pragma memcoro parallel(N)
  for (i = 0; i < n; ++i)
    if (a[idx[i]] == key)
      break;
  return i;
}

// A fixed window: a constant trip count, the constant used elsewhere too.
static int find_in_window(const int64_t *a, const int32_t *idx, int64_t key) {
#pragma memcoro parallel(N)
  for (int i = 0; i < 64; ++i)
    if (a[idx[i]] == key)
      return i;
  return 64;
}

static long probe_first_hit(struct node **heads, const int64_t *keys, long n, int64_t *value) {
#pragma memcoro parallel(N)
  for (long i = 0; i < n; ++i)
    for (struct node *e = heads[keys[i] & (BUCKETS - 1)]; e; e = e->next)
      if (e->key == keys[i] && e->value < 0) {
        *value = e->value;
        return i;
      }
  return -1;
}

static int64_t chain_sum_until(struct node **heads, const int64_t *keys, int n, int64_t stop, int *where) {
  int64_t total = 0;
  int at = -1;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    for (struct node *e = heads[keys[i] & (BUCKETS - 1)]; e; e = e->next) {
      if (e->key == stop) {
        at = i;
        goto out;
      }
      total += e->value;
    }
out:
  *where = at;
  return total;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 64));
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  struct node *nodes = diff_alloc(sizeof *nodes * NODES);
  struct node **heads = diff_alloc(sizeof *heads * BUCKETS);
  for (int i = 0; i < TABLE; ++i) a[i] = (int64_t)(diff_rand() % 100000);
  for (int i = 0; i < n + 64; ++i) idx[i] = diff_rand() % (TABLE - 64);
  for (int i = 0; i < NODES; ++i) {
    nodes[i].key = (int64_t)(diff_rand() % (1 << 20)) * 2;  // even: a probe with an odd key misses
    nodes[i].value = (int64_t)(diff_rand() % 1000);
    struct node **h = &heads[nodes[i].key & (BUCKETS - 1)];
    nodes[i].next = *h;
    *h = &nodes[i];
  }
  for (int i = 0; i < n; ++i) keys[i] = (int64_t)(diff_rand() % (1 << 20)) * 2 + 1;
  int at[] = {0, n / 2, n - 1, n};
  for (int k = 0; k < 4; ++k) {
    // The match at at[k], and again 1 and 5 iterations later.
    int32_t saved_idx[3] = {0};
    int64_t saved_key[3] = {0}, saved_value[3] = {0};
    int step[3] = {0, 1, 5};
    for (int d = 0; d < 3; ++d) {
      int i = at[k] + step[d];
      if (i < 0 || i >= n) continue;
      saved_idx[d] = idx[i];
      idx[i] = TABLE - 1 - d;
      struct node *hit = &nodes[(i * 7 + d) % NODES];
      saved_key[d] = keys[i];
      saved_value[d] = hit->value;
      keys[i] = hit->key;
      hit->value = -1 - d;
    }
    a[TABLE - 1] = a[TABLE - 2] = a[TABLE - 3] = 777777;
    int64_t value = 0;
    int where = 0;
    long hit = probe_first_hit(heads, keys, n, &value);
    int64_t stop = at[k] < n ? keys[at[k]] : -1;
    int64_t total = chain_sum_until(heads, keys, n, stop, &where);
    printf("%d: %d %d %d %ld %lld %lld %d\n", at[k], find_first(a, idx, n, 777777), index_of(a, idx, n, 777777),
           find_in_window(a, idx, 777777),
           hit, (long long)value, (long long)total, where);
    for (int d = 2; d >= 0; --d) {
      int i = at[k] + step[d];
      if (i < 0 || i >= n) continue;
      idx[i] = saved_idx[d];
      nodes[(i * 7 + d) % NODES].value = saved_value[d];
      keys[i] = saved_key[d];
    }
    for (int t = 1; t <= 3; ++t) a[TABLE - t] = (int64_t)(diff_rand() % 100000);
  }
  return 0;
}
