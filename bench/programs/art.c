// art: lookups in an adaptive radix tree (Leis et al.'s ART), written the way
// the C implementations of it write them (libart's shape): four inner node
// types of 4, 16, 48 and 256 children behind one header {type, children,
// compressed prefix}, a find_child with a switch on the node type, leaves told
// apart by a tagged pointer, lazy expansion (a lone key is a leaf high in the
// tree, its whole key compared at the end) and pessimistic path compression
// (a node keeps up to 8 prefix bytes). Keys are 8 bytes, big-endian, random;
// the lookup batch is half present keys and half absent ones. The program
// checks itself: every present key finds its own value, no absent key finds
// anything, and the values found sum to the sum over the present queries.
// One pragma line marks the lookup loop.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NODE4 1
#define NODE16 2
#define NODE48 3
#define NODE256 4
#define MAX_PREFIX_LEN 8
#define KEY_LEN 8

typedef struct {
  uint8_t type;
  uint8_t num_children;
  uint32_t partial_len;
  unsigned char partial[MAX_PREFIX_LEN];
} art_node;

typedef struct {
  art_node n;
  unsigned char keys[4];
  art_node *children[4];
} art_node4;

typedef struct {
  art_node n;
  unsigned char keys[16];
  art_node *children[16];
} art_node16;

typedef struct {
  art_node n;
  unsigned char keys[256]; // child index + 1, 0 when absent
  art_node *children[48];
} art_node48;

typedef struct {
  art_node n;
  art_node *children[256];
} art_node256;

typedef struct {
  uint64_t value;
  unsigned char key[KEY_LEN];
} art_leaf;

#define IS_LEAF(x) (((uintptr_t)(x)) & 1)
#define SET_LEAF(x) ((art_node *)((uintptr_t)(x) | 1))
#define LEAF_RAW(x) ((art_leaf *)((uintptr_t)(x) & ~(uintptr_t)1))

static art_node *alloc_node(uint8_t type) {
  static const size_t sizes[] = {0, sizeof(art_node4), sizeof(art_node16), sizeof(art_node48), sizeof(art_node256)};
  art_node *n = calloc(1, sizes[type]);
  n->type = type;
  return n;
}

static art_node **find_child(art_node *n, unsigned char c) {
  switch (n->type) {
  case NODE4: {
    art_node4 *p = (art_node4 *)n;
    for (int i = 0; i < n->num_children; i++)
      if (p->keys[i] == c)
        return &p->children[i];
    break;
  }
  case NODE16: {
    art_node16 *p = (art_node16 *)n;
    for (int i = 0; i < n->num_children; i++)
      if (p->keys[i] == c)
        return &p->children[i];
    break;
  }
  case NODE48: {
    art_node48 *p = (art_node48 *)n;
    int i = p->keys[c];
    if (i)
      return &p->children[i - 1];
    break;
  }
  case NODE256: {
    art_node256 *p = (art_node256 *)n;
    if (p->children[c])
      return &p->children[c];
    break;
  }
  }
  return NULL;
}

static int check_prefix(const art_node *n, const unsigned char *key, int depth) {
  int max_cmp = n->partial_len < MAX_PREFIX_LEN ? n->partial_len : MAX_PREFIX_LEN;
  if (max_cmp > KEY_LEN - depth)
    max_cmp = KEY_LEN - depth;
  int idx;
  for (idx = 0; idx < max_cmp; idx++)
    if (n->partial[idx] != key[depth + idx])
      return idx;
  return idx;
}

static uint64_t *art_search(art_node *root, const unsigned char *key) {
  art_node *n = root;
  int depth = 0;
  while (n) {
    if (IS_LEAF(n)) {
      art_leaf *l = LEAF_RAW(n);
      if (memcmp(l->key, key, KEY_LEN) == 0)
        return &l->value;
      return NULL;
    }
    if (n->partial_len) {
      int prefix_len = check_prefix(n, key, depth);
      if (prefix_len != (n->partial_len < MAX_PREFIX_LEN ? (int)n->partial_len : MAX_PREFIX_LEN))
        return NULL;
      depth += n->partial_len;
    }
    art_node **child = find_child(n, key[depth]);
    n = child ? *child : NULL;
    depth++;
  }
  return NULL;
}

static void copy_header(art_node *dest, const art_node *src) {
  dest->num_children = src->num_children;
  dest->partial_len = src->partial_len;
  memcpy(dest->partial, src->partial, MAX_PREFIX_LEN);
}

static void add_child256(art_node256 *n, unsigned char c, art_node *child) {
  n->n.num_children++;
  n->children[c] = child;
}

static void add_child48(art_node48 *n, art_node **ref, unsigned char c, art_node *child) {
  if (n->n.num_children < 48) {
    int pos = 0;
    while (n->children[pos])
      pos++;
    n->children[pos] = child;
    n->keys[c] = pos + 1;
    n->n.num_children++;
    return;
  }
  art_node256 *bigger = (art_node256 *)alloc_node(NODE256);
  for (int i = 0; i < 256; i++)
    if (n->keys[i])
      bigger->children[i] = n->children[n->keys[i] - 1];
  copy_header(&bigger->n, &n->n);
  *ref = (art_node *)bigger;
  free(n);
  add_child256(bigger, c, child);
}

static void add_child16(art_node16 *n, art_node **ref, unsigned char c, art_node *child) {
  if (n->n.num_children < 16) {
    int idx = 0;
    while (idx < n->n.num_children && n->keys[idx] < c)
      idx++;
    memmove(n->keys + idx + 1, n->keys + idx, n->n.num_children - idx);
    memmove(n->children + idx + 1, n->children + idx, (n->n.num_children - idx) * sizeof(void *));
    n->keys[idx] = c;
    n->children[idx] = child;
    n->n.num_children++;
    return;
  }
  art_node48 *bigger = (art_node48 *)alloc_node(NODE48);
  for (int i = 0; i < n->n.num_children; i++) {
    bigger->children[i] = n->children[i];
    bigger->keys[n->keys[i]] = i + 1;
  }
  copy_header(&bigger->n, &n->n);
  *ref = (art_node *)bigger;
  free(n);
  add_child48(bigger, ref, c, child);
}

static void add_child4(art_node4 *n, art_node **ref, unsigned char c, art_node *child) {
  if (n->n.num_children < 4) {
    int idx = 0;
    while (idx < n->n.num_children && n->keys[idx] < c)
      idx++;
    memmove(n->keys + idx + 1, n->keys + idx, n->n.num_children - idx);
    memmove(n->children + idx + 1, n->children + idx, (n->n.num_children - idx) * sizeof(void *));
    n->keys[idx] = c;
    n->children[idx] = child;
    n->n.num_children++;
    return;
  }
  art_node16 *bigger = (art_node16 *)alloc_node(NODE16);
  memcpy(bigger->children, n->children, sizeof(void *) * 4);
  memcpy(bigger->keys, n->keys, 4);
  copy_header(&bigger->n, &n->n);
  *ref = (art_node *)bigger;
  free(n);
  add_child16(bigger, ref, c, child);
}

static void add_child(art_node **ref, art_node *n, unsigned char c, art_node *child) {
  switch (n->type) {
  case NODE4: add_child4((art_node4 *)n, ref, c, child); break;
  case NODE16: add_child16((art_node16 *)n, ref, c, child); break;
  case NODE48: add_child48((art_node48 *)n, ref, c, child); break;
  case NODE256: add_child256((art_node256 *)n, c, child); break;
  }
}

// The leftmost leaf under n: where the bytes of a prefix longer than the
// node keeps are read from.
static art_leaf *minimum(art_node *n) {
  while (!IS_LEAF(n)) {
    switch (n->type) {
    case NODE4: n = ((art_node4 *)n)->children[0]; break;
    case NODE16: n = ((art_node16 *)n)->children[0]; break;
    case NODE48: {
      int i = 0;
      while (!((art_node48 *)n)->keys[i])
        i++;
      n = ((art_node48 *)n)->children[((art_node48 *)n)->keys[i] - 1];
      break;
    }
    default: {
      int i = 0;
      while (!((art_node256 *)n)->children[i])
        i++;
      n = ((art_node256 *)n)->children[i];
    }
    }
  }
  return LEAF_RAW(n);
}

static int prefix_mismatch(art_node *n, const unsigned char *key, int depth) {
  int max_cmp = n->partial_len < MAX_PREFIX_LEN ? n->partial_len : MAX_PREFIX_LEN;
  int idx;
  for (idx = 0; idx < max_cmp; idx++)
    if (n->partial[idx] != key[depth + idx])
      return idx;
  if (n->partial_len > MAX_PREFIX_LEN) {
    art_leaf *l = minimum(n);
    for (; idx < (int)n->partial_len; idx++)
      if (l->key[depth + idx] != key[depth + idx])
        return idx;
  }
  return idx;
}

static art_leaf *make_leaf(const unsigned char *key, uint64_t value) {
  art_leaf *l = malloc(sizeof(art_leaf));
  l->value = value;
  memcpy(l->key, key, KEY_LEN);
  return l;
}

// Inserts a new key (keys are distinct: the caller checks).
static void art_insert(art_node **ref, const unsigned char *key, uint64_t value, int depth) {
  art_node *n = *ref;
  if (!n) {
    *ref = SET_LEAF(make_leaf(key, value));
    return;
  }
  if (IS_LEAF(n)) {
    art_leaf *old = LEAF_RAW(n);
    art_node4 *nn = (art_node4 *)alloc_node(NODE4);
    int common = 0;
    while (depth + common < KEY_LEN && old->key[depth + common] == key[depth + common])
      common++;
    nn->n.partial_len = common;
    memcpy(nn->n.partial, key + depth, common < MAX_PREFIX_LEN ? common : MAX_PREFIX_LEN);
    *ref = (art_node *)nn;
    add_child4(nn, ref, old->key[depth + common], n);
    add_child4(nn, ref, key[depth + common], SET_LEAF(make_leaf(key, value)));
    return;
  }
  if (n->partial_len) {
    int diff = prefix_mismatch(n, key, depth);
    if (diff < (int)n->partial_len) {
      art_node4 *nn = (art_node4 *)alloc_node(NODE4);
      *ref = (art_node *)nn;
      nn->n.partial_len = diff;
      memcpy(nn->n.partial, n->partial, diff < MAX_PREFIX_LEN ? diff : MAX_PREFIX_LEN);
      if (n->partial_len <= MAX_PREFIX_LEN) {
        add_child4(nn, ref, n->partial[diff], n);
        n->partial_len -= diff + 1;
        memmove(n->partial, n->partial + diff + 1, n->partial_len < MAX_PREFIX_LEN ? n->partial_len : MAX_PREFIX_LEN);
      } else {
        n->partial_len -= diff + 1;
        art_leaf *l = minimum(n);
        add_child4(nn, ref, l->key[depth + diff], n);
        memcpy(n->partial, l->key + depth + diff + 1,
               n->partial_len < MAX_PREFIX_LEN ? n->partial_len : MAX_PREFIX_LEN);
      }
      add_child4(nn, ref, key[depth + diff], SET_LEAF(make_leaf(key, value)));
      return;
    }
    depth += n->partial_len;
  }
  art_node **child = find_child(n, key[depth]);
  if (child) {
    art_insert(child, key, value, depth + 1);
    return;
  }
  add_child(ref, n, key[depth], SET_LEAF(make_leaf(key, value)));
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void store_be(unsigned char *p, uint64_t x) {
  for (int i = 0; i < KEY_LEN; i++)
    p[i] = (unsigned char)(x >> (56 - 8 * i));
}

int main(int argc, char **argv) {
  size_t nkeys = argc > 1 ? strtoull(argv[1], 0, 10) : 4u << 20;
  size_t nqueries = argc > 2 ? strtoull(argv[2], 0, 10) : 2u << 20;
  art_node *root = NULL;
  unsigned char (*keys)[KEY_LEN] = malloc(nkeys * KEY_LEN);
  uint64_t s = 0x2545f4914f6cdd1dull;
  size_t inserted = 0;
  while (inserted < nkeys) {
    // Keys share their top bits in groups, as keys drawn from a narrower
    // range do, so that compressed prefixes occur.
    uint64_t x = next_rand(&s);
    x = (x & 0xffff00000000ffffull) | ((x >> 8) & 0x0000000000ff0000ull);
    store_be(keys[inserted], x);
    if (art_search(root, keys[inserted]))
      continue;
    art_insert(&root, keys[inserted], inserted + 1, 0);
    inserted++;
  }
  // Queries: even positions present keys, odd positions fresh random keys
  // (absent unless they collide with an inserted one, which is checked).
  unsigned char (*queries)[KEY_LEN] = malloc(nqueries * KEY_LEN);
  uint64_t *expected = malloc(nqueries * sizeof(uint64_t));
  for (size_t i = 0; i < nqueries; i++) {
    uint64_t x = next_rand(&s);
    if (i % 2 == 0) {
      size_t k = x % nkeys;
      memcpy(queries[i], keys[k], KEY_LEN);
      expected[i] = k + 1;
    } else {
      store_be(queries[i], x);
      expected[i] = 0;
    }
  }

  uint64_t *found = malloc(nqueries * sizeof(uint64_t));
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma memcoro
  for (size_t i = 0; i < nqueries; i++) {
    uint64_t *v = art_search(root, queries[i]);
    found[i] = v ? *v : 0;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // Verification: a present key finds its value; an absent one nothing,
  // unless it is one of the inserted keys (checked by a scan over them for
  // the few absent queries that found something).
  int ok = 1;
  size_t hits = 0;
  uint64_t sum = 0;
  for (size_t i = 0; i < nqueries && ok; i++) {
    if (found[i])
      hits++, sum += found[i];
    if (expected[i]) {
      ok = found[i] == expected[i];
    } else if (found[i]) {
      ok = found[i] <= nkeys && memcmp(keys[found[i] - 1], queries[i], KEY_LEN) == 0;
    }
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%zu keys, %zu lookups: %zu found, value sum %llu\n", nkeys, nqueries, hits, (unsigned long long)sum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
