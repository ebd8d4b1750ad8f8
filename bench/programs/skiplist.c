// skiplist: a batch of lookups in a skip list, written the way the classic
// skip list code (Pugh's, and the many C versions after it) writes it: nodes
// with a key, a value and a flexible array of forward pointers, a random
// level per node, insertion recording the update path, and a search that
// walks right while the next key is smaller and drops a level otherwise.
// The keys are 0, 5, 10, ... inserted in random order and the queries random,
// so the program checks itself: a query hits exactly when it is a multiple of
// 5, and the sum of the values found is known in closed form.
// One pragma line marks the lookup loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_LEVEL 24

typedef struct snode {
  uint64_t key;
  uint64_t value;
  struct snode *forward[];
} snode;

typedef struct {
  int level;
  snode *header;
} skiplist;

static uint64_t rng = 0xD1B54A32D192ED03ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int random_level(void) {
  int level = 1;
  while ((next_rand() & 3) == 0 && level < MAX_LEVEL) level++;
  return level;
}

static snode *make_node(int level, uint64_t key, uint64_t value) {
  snode *n = malloc(sizeof(snode) + level * sizeof(snode *));
  n->key = key;
  n->value = value;
  for (int i = 0; i < level; i++) n->forward[i] = NULL;
  return n;
}

static void insert(skiplist *list, uint64_t key, uint64_t value) {
  snode *update[MAX_LEVEL];
  snode *x = list->header;
  for (int i = list->level - 1; i >= 0; i--) {
    while (x->forward[i] && x->forward[i]->key < key) x = x->forward[i];
    update[i] = x;
  }
  int level = random_level();
  if (level > list->level) {
    for (int i = list->level; i < level; i++) update[i] = list->header;
    list->level = level;
  }
  x = make_node(level, key, value);
  for (int i = 0; i < level; i++) {
    x->forward[i] = update[i]->forward[i];
    update[i]->forward[i] = x;
  }
}

static const snode *search(const skiplist *list, uint64_t key) {
  const snode *x = list->header;
  for (int i = list->level - 1; i >= 0; i--)
    while (x->forward[i] && x->forward[i]->key < key) x = x->forward[i];
  x = x->forward[0];
  return x && x->key == key ? x : NULL;
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1u << 21;
  uint64_t nq = argc > 2 ? strtoull(argv[2], 0, 10) : 1u << 19;
  skiplist list = {1, make_node(MAX_LEVEL, 0, 0)};
  uint64_t *order = malloc(sizeof(uint64_t) * n);
  for (uint64_t i = 0; i < n; i++) order[i] = i;
  for (uint64_t i = n - 1; i > 0; i--) {
    uint64_t j = next_rand() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (uint64_t i = 0; i < n; i++) insert(&list, 5 * order[i] + 5, order[i] * 3 + 1);
  uint64_t *queries = malloc(sizeof(uint64_t) * nq);
  uint64_t expected_hits = 0, expected_sum = 0;
  for (uint64_t i = 0; i < nq; i++) {
    queries[i] = next_rand() % (5 * n) + 1;
    if (queries[i] % 5 == 0) {
      expected_hits++;
      expected_sum += (queries[i] / 5 - 1) * 3 + 1;
    }
  }

  struct timespec t0, t1;
  uint64_t hits = 0, sum = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma memcoro
  for (uint64_t i = 0; i < nq; i++) {
    const snode *found = search(&list, queries[i]);
    if (found) {
      hits++;
      sum += found->value;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  int ok = hits == expected_hits && sum == expected_sum;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu keys, %llu lookups, %llu hits\n", (unsigned long long)n, (unsigned long long)nq,
         (unsigned long long)hits);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
