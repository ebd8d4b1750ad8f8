// bottom_up_driver: GAP's bottom-up BFS as bfs.cc arranges it: the step's bound is a member of the graph (`g.num_nodes()`, read through memory a store may alias), its bitmaps are objects with set_bit/get_bit, and the driver calls the step in a `while` that swaps the bitmaps' storage, so the step is inlined into the driver, and the driver into main (test/lit/split-bound-revert-merged.cpp has the shape whose bound two webs of phis carry). Parents and bitmaps equal the serial loop's.
#include <cstdint>
#include "common.h"

struct Bitmap {
  uint64_t *w;
  void set_bit(int64_t p) { w[p / 64] |= 1ul << (p & 63); }
  bool get_bit(int64_t p) const { return (w[p / 64] >> (p & 63)) & 1; }
};

struct Graph {
  int64_t n_;
  int32_t **index_;
  int64_t num_nodes() const { return n_; }
};

static int64_t BUStep(const Graph &g, int32_t *parent, const Bitmap &front, Bitmap &next) {
  int64_t awake_count = 0;
  for (int64_t w = 0; w < (g.num_nodes() + 63) / 64; w++) next.w[w] = 0;
#pragma memcoro parallel(N)
  for (int32_t u = 0; u < g.num_nodes(); u++) {
    if (parent[u] < 0) {
      for (int32_t *v = g.index_[u]; v < g.index_[u + 1]; v++) {
        if (front.get_bit(*v)) {
          parent[u] = *v;
          awake_count++;
          next.set_bit(u);
          break;
        }
      }
    }
  }
  return awake_count;
}

void BUBFS(const Graph &g, int32_t *parent, Bitmap &front, Bitmap &next) {
  while (BUStep(g, parent, front, next) > 0) {
    uint64_t *swap = front.w;
    front.w = next.w;
    next.w = swap;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { DEGREE = 5 };
  int32_t *neighs = (int32_t *)diff_alloc(sizeof(int32_t) * ((int64_t)n * DEGREE + 1));
  int32_t **index = (int32_t **)diff_alloc(sizeof(int32_t *) * (n + 1));
  int64_t edges = 0;
  for (int u = 0; u < n; ++u) {
    index[u] = neighs + edges;
    int degree = (int)(diff_rand() % (DEGREE + 1));
    for (int k = 0; k < degree; k++) neighs[edges++] = (int32_t)(diff_rand() % n);
  }
  index[n] = neighs + edges;
  Graph g = {n, index};
  int64_t words = (n + 63) / 64;
  Bitmap front = {(uint64_t *)diff_alloc(sizeof(uint64_t) * (words + 1))};
  Bitmap next = {(uint64_t *)diff_alloc(sizeof(uint64_t) * (words + 1))};
  int32_t *parent = (int32_t *)diff_alloc(sizeof(int32_t) * (n + 1));
  for (int u = 0; u < n; ++u) parent[u] = -1;
  for (int u = 0; u < n; u += 11) {
    parent[u] = u;
    front.set_bit(u);
  }
  BUBFS(g, parent, front, next);
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64(front.w, words), (unsigned long long)diff_hash_u64(next.w, words));
  printf("%llx\n", (unsigned long long)diff_hash_i32(parent, n));
  return 0;
}
