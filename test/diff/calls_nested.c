// calls_nested: a noinline chained-hash probe resumed as a nested coroutine inside the loop, and a recursive tree search that stays a plain call (issue 17, item 7b).
#include "common.h"

struct entry {
  int64_t key, value;
  struct entry *next;
};
struct node {
  int64_t key;
  struct node *left, *right;
};

static uint64_t hash_of(int64_t key) { return (uint64_t)key * 0x9E3779B97F4A7C15ull >> 17; }

__attribute__((noinline)) int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key) {
  for (const struct entry *e = heads[hash_of(key) & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}

// Depth of key in the tree, -1 when absent: unbounded recursion.
__attribute__((noinline)) int64_t depth(const struct node *n, int64_t key) {
  if (!n)
    return -1;
  if (n->key == key)
    return 0;
  int64_t d = depth(key < n->key ? n->left : n->right, key);
  return d < 0 ? d : d + 1;
}

__attribute__((noinline)) int64_t probe_all(int64_t *found, struct entry *const *heads, uint64_t mask,
                                            const int64_t *keys, int n) {
  int64_t sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t v = probe(heads, mask, keys[i]);
    found[i] = v;
    sum += v;
  }
  return sum;
}

__attribute__((noinline)) int64_t search_all(const struct node *root, const int64_t *weights, const int32_t *idx,
                                             const int64_t *keys, int n) {
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    sum += depth(root, keys[i]) * weights[idx[i]];
  return sum;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 12, NODES = 1 << 10 };
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  int64_t *found = diff_alloc(sizeof *found * (n + 1));
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *weights = diff_alloc(sizeof *weights * TABLE);
  struct entry **heads = diff_alloc(sizeof *heads * TABLE);
  struct entry *pool = diff_alloc(sizeof *pool * TABLE);
  struct node *nodes = diff_alloc(sizeof *nodes * NODES);
  for (int k = 0; k < TABLE; ++k) {
    weights[k] = (int64_t)(diff_rand() % 100);
    pool[k] = (struct entry){.key = k * 7, .value = (int64_t)(diff_rand() % 1000)};
    uint64_t h = hash_of(pool[k].key) & (TABLE / 4 - 1);
    pool[k].next = heads[h];
    heads[h] = &pool[k];
  }
  // An unbalanced binary search tree of random keys.
  struct node *root = NULL;
  for (int k = 0; k < NODES; ++k) {
    nodes[k].key = (int64_t)(diff_rand() % 50000);
    struct node **at = &root;
    while (*at)
      at = nodes[k].key < (*at)->key ? &(*at)->left : &(*at)->right;
    *at = &nodes[k];
  }
  for (int i = 0; i < n; ++i) {
    keys[i] = (int64_t)(diff_rand() % 50000);
    idx[i] = (int32_t)(diff_rand() % TABLE);
  }
  int64_t probed = probe_all(found, heads, TABLE / 4 - 1, keys, n);
  int64_t searched = search_all(root, weights, idx, keys, n);
  printf("%llx %lld %lld\n", (unsigned long long)diff_hash_u64((const uint64_t *)found, n), (long long)probed,
         (long long)searched);
  return 0;
}
