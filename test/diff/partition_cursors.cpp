// partition_cursors: a radix partitioning pass whose partition the data picks through a chained lookup, written three ways: `*cur[p]++ = t` through pointer cursors, `parts[p].push_back(t)` into one std::vector per partition, and `Tuple *&c = cursors[p]; *c = t; ++c;` through a member-style vector of cursors. The cursor (a pointer, or a vector's end) is read, written through and stepped by a GEP, and only integer cursors were recognised: interleaved, tuples came out of input order, and a vector's growth raced another iteration's append (double free). From the first read of the cursor's record on, each iteration runs in iteration order; the partitions equal the serial loop's.
#include <vector>
#include "common.h"

struct node {
  unsigned key, part;
  node *next;
};
struct tuple {
  unsigned key, payload;
};
enum { PARTS = 8 };

__attribute__((noinline)) static void scatter_pointers(int n, node **b, unsigned mask, const unsigned *in,
                                                       tuple **cur) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    node *p = b[in[i] & mask];
    while (p->key != in[i]) p = p->next;
    *cur[p->part]++ = tuple{in[i], (unsigned)i};
  }
}

__attribute__((noinline)) static void scatter_vectors(int n, node **b, unsigned mask, const unsigned *in,
                                                      std::vector<std::vector<unsigned>> &parts) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    node *p = b[in[i] & mask];
    while (p->key != in[i]) p = p->next;
    parts[p->part].push_back((unsigned)i);
  }
}

__attribute__((noinline)) static void scatter_references(int n, node **b, unsigned mask, const unsigned *in,
                                                         std::vector<tuple *> &cursors) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    node *p = b[in[i] & mask];
    while (p->key != in[i]) p = p->next;
    tuple *&c = cursors[p->part];
    *c = tuple{in[i], (unsigned)i};
    ++c;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { BUCKETS = 64, KEYS = 512 };
  static node pool[KEYS];
  static node *b[BUCKETS];
  for (unsigned k = 0; k < KEYS; k++) {
    pool[k] = node{k, (unsigned)(diff_rand() % PARTS), b[k % BUCKETS]};
    b[k % BUCKETS] = &pool[k];
  }
  std::vector<unsigned> in(n + 1);
  for (int i = 0; i < n; i++) in[i] = (unsigned)(diff_rand() % KEYS);
  std::vector<tuple> out(PARTS * (n + 1)), out2(PARTS * (n + 1));
  tuple *cur[PARTS];
  std::vector<tuple *> cursors(PARTS);
  for (int q = 0; q < PARTS; q++) {
    cur[q] = &out[q * (n + 1)];
    cursors[q] = &out2[q * (n + 1)];
  }
  std::vector<std::vector<unsigned>> parts(PARTS);
  scatter_pointers(n, b, BUCKETS - 1, in.data(), cur);
  scatter_vectors(n, b, BUCKETS - 1, in.data(), parts);
  scatter_references(n, b, BUCKETS - 1, in.data(), cursors);
  uint64_t h = 0;
  for (int q = 0; q < PARTS; q++) {
    for (tuple *t = &out[q * (n + 1)]; t != cur[q]; t++) h = h * 1000003 + t->payload;
    for (unsigned v : parts[q]) h = h * 1000003 + v;
    for (tuple *t = &out2[q * (n + 1)]; t != cursors[q]; t++) h = h * 1000003 + t->payload;
  }
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
