// btree: a batch of point lookups in a B+-tree index, written the way the
// classic textbook B+-tree code (bpt.c style) writes it: nodes with a key
// count, an array of keys and an array of child or record pointers, find_leaf
// walking down by a linear scan of each node's keys, and find scanning the
// leaf. The tree is bulk-loaded from the keys 0, 2, 4, ... and queried with
// random keys, so the program checks itself: a query is found exactly when
// it is even, and the sum of the found records' values is known in closed form.
// One pragma line marks the lookup loop; nothing else is edited.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ORDER 16

typedef struct record {
  uint64_t value;
} record;

typedef struct node {
  void **pointers;
  int *keys;
  struct node *parent;
  bool is_leaf;
  int num_keys;
  struct node *next;
} node;

static node *make_node(bool leaf) {
  node *n = malloc(sizeof(node));
  n->keys = malloc((ORDER - 1) * sizeof(int));
  n->pointers = malloc(ORDER * sizeof(void *));
  n->is_leaf = leaf;
  n->num_keys = 0;
  n->parent = NULL;
  n->next = NULL;
  return n;
}

static node *find_leaf(node *root, int key) {
  int i = 0;
  node *c = root;
  if (c == NULL)
    return c;
  while (!c->is_leaf) {
    i = 0;
    while (i < c->num_keys) {
      if (key >= c->keys[i])
        i++;
      else
        break;
    }
    c = (node *)c->pointers[i];
  }
  return c;
}

static record *find(node *root, int key) {
  int i = 0;
  node *c = find_leaf(root, key);
  if (c == NULL)
    return NULL;
  for (i = 0; i < c->num_keys; i++)
    if (c->keys[i] == key)
      break;
  if (i == c->num_keys)
    return NULL;
  return (record *)c->pointers[i];
}

// Bulk load: full leaves left to right, then each level of separators above.
static node *bulk_load(const int *keys, record *records, int n) {
  int nleaves = (n + ORDER - 2) / (ORDER - 1);
  node **level = malloc(sizeof(node *) * nleaves);
  int *low = malloc(sizeof(int) * nleaves);
  for (int l = 0; l < nleaves; l++) {
    node *leaf = make_node(true);
    for (int k = l * (ORDER - 1); k < n && leaf->num_keys < ORDER - 1; k++) {
      leaf->keys[leaf->num_keys] = keys[k];
      leaf->pointers[leaf->num_keys++] = &records[k];
    }
    if (l > 0)
      level[l - 1]->next = leaf;
    level[l] = leaf;
    low[l] = leaf->keys[0];
  }
  int count = nleaves;
  while (count > 1) {
    int nparents = (count + ORDER - 1) / ORDER, p = 0;
    for (int c = 0; c < count; p++) {
      node *parent = make_node(false);
      int first = c;
      parent->pointers[0] = level[c++];
      while (c < count && c - first < ORDER) {
        parent->keys[parent->num_keys++] = low[c];
        parent->pointers[parent->num_keys] = level[c++];
      }
      for (int k = first; k < c; k++) level[k]->parent = parent;
      low[p] = low[first];
      level[p] = parent;
    }
    count = nparents;
  }
  node *root = level[0];
  free(level);
  free(low);
  return root;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
  long nq = argc > 2 ? atol(argv[2]) : 1 << 20;
  int *keys = malloc(sizeof(int) * n);
  record *records = malloc(sizeof(record) * n);
  for (int i = 0; i < n; i++) {
    keys[i] = 2 * i;
    records[i].value = (uint64_t)i * 3 + 1;
  }
  node *root = bulk_load(keys, records, n);
  int *queries = malloc(sizeof(int) * nq);
  long expected_found = 0;
  uint64_t expected_sum = 0;
  for (long i = 0; i < nq; i++) {
    queries[i] = (int)(next_rand() % (2 * (uint64_t)n));
    if (queries[i] % 2 == 0) {
      expected_found++;
      expected_sum += (uint64_t)(queries[i] / 2) * 3 + 1;
    }
  }

  struct timespec t0, t1;
  long found = 0;
  uint64_t sum = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma memcoro
  for (long i = 0; i < nq; i++) {
    record *r = find(root, queries[i]);
    if (r != NULL) {
      found++;
      sum += r->value;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  int ok = found == expected_found && sum == expected_sum;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%d keys, %ld lookups, %ld found, sum %s\n", n, nq, found, sum == expected_sum ? "ok" : "wrong");
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
