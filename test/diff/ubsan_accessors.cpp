// ubsan_accessors: GAP-style C++ graph code under -fsanitize=undefined, as users build it: the CSR graph's checked accessor `out_neigh(u)` grows past the inliner's threshold, and the kernel holds a queue buffer with a destructor, so the loop invokes the accessor; it never unwinds (UBSan's handlers do not) and runs in place, and the claim loop interleaves (issue 17, item 8).
// flags: -fsanitize=undefined
#include <cstdint>
#include "common.h"

typedef int32_t NodeID;

class Neighborhood {
public:
  Neighborhood(NodeID *b, NodeID *e) : b_(b), e_(e) {}
  NodeID *begin() const { return b_; }
  NodeID *end() const { return e_; }

private:
  NodeID *b_, *e_;
};

class Graph {
public:
  Graph(int64_t n, int64_t *index, NodeID *neighs) : n_(n), index_(index), neighs_(neighs) {}
  int64_t num_nodes() const { return n_; }
  Neighborhood out_neigh(NodeID n) const { return Neighborhood(neighs_ + index_[n], neighs_ + index_[n + 1]); }

private:
  int64_t n_;
  int64_t *index_;
  NodeID *neighs_;
};

// A thread's buffer of discovered vertices, flushed at its end.
class Buffer {
public:
  explicit Buffer(int64_t *count) : count_(count), local_(new NodeID[16]) {}
  ~Buffer() {
    *count_ += n_;
    delete[] local_;
  }
  void add() { n_++; }

private:
  int64_t *count_;
  int64_t n_ = 0;
  NodeID *local_;
};

__attribute__((noinline)) int64_t step(const Graph &g, NodeID *parent, const NodeID *frontier, int64_t nf) {
  int64_t found = 0;
  Buffer buf(&found);
  int64_t reached = 0;
#pragma memcoro parallel(N)
  for (int64_t i = 0; i < nf; i++) {
    NodeID u = frontier[i];
    for (NodeID v : g.out_neigh(u)) {
      NodeID cur = parent[v];
      if (cur < 0) {
        parent[v] = u;
        reached += v;
      }
    }
  }
  buf.add();
  return found + reached;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *index = static_cast<int64_t *>(diff_alloc(sizeof(int64_t) * (n + 2)));
  for (int v = 0; v <= n; ++v) index[v + 1] = index[v] + diff_rand() % 6;
  NodeID *neighs = static_cast<NodeID *>(diff_alloc(sizeof(NodeID) * (index[n + 1] + 1)));
  for (int64_t e = 0; e < index[n + 1]; ++e) neighs[e] = (NodeID)(diff_rand() % (n + 1));
  NodeID *parent = static_cast<NodeID *>(diff_alloc(sizeof(NodeID) * (n + 1)));
  NodeID *frontier = static_cast<NodeID *>(diff_alloc(sizeof(NodeID) * (n + 1)));
  for (int v = 0; v <= n; ++v) parent[v] = -1;
  for (int i = 0; i < n; ++i) frontier[i] = (NodeID)(diff_rand() % (n + 1));
  Graph g(n + 1, index, neighs);
  int64_t r = step(g, parent, frontier, n);
  printf("%lld %llx\n", (long long)r, (unsigned long long)diff_hash_i32(parent, n + 1));
  return 0;
}
