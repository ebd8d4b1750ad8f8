// wgraph.h: the weighted graph that sssp.cpp and deltastep.cpp share, written
// the way GAP writes it: a CSR graph whose neighbourhoods are ranges of
// (destination, weight) pairs for range-for, a uniform random generator with
// weights 1..255 (GAP's -u with its weight range), and GAP's SSSPVerifier: the
// distances must equal those of a serial Dijkstra search from the source.
#ifndef MEMCORO_PROGRAMS_WGRAPH_H
#define MEMCORO_PROGRAMS_WGRAPH_H
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

typedef int32_t NodeID;
typedef int32_t WeightT;
static const WeightT kDistInf = std::numeric_limits<WeightT>::max() / 2;

struct WNode {
  NodeID v;
  WeightT w;
};

class WGraph {
public:
  struct Range {
    const WNode *b, *e;
    const WNode *begin() const { return b; }
    const WNode *end() const { return e; }
  };
  WGraph(int64_t n, const std::vector<std::pair<NodeID, WNode>> &edges) : n_(n), index_(n + 1, 0) {
    for (auto &e : edges) index_[e.first + 1]++;
    for (int64_t i = 0; i < n; i++) index_[i + 1] += index_[i];
    neighs_.resize(edges.size());
    std::vector<int64_t> fill(index_.begin(), index_.end() - 1);
    for (auto &e : edges) neighs_[fill[e.first]++] = e.second;
  }
  int64_t num_nodes() const { return n_; }
  int64_t num_edges_directed() const { return neighs_.size(); }
  Range out_neigh(NodeID u) const { return {&neighs_[index_[u]], &neighs_[0] + index_[u + 1]}; }

private:
  int64_t n_;
  std::vector<int64_t> index_;
  std::vector<WNode> neighs_;
};

/// 2^scale vertices, degree * 2^scale undirected edges between uniformly
/// random endpoints.
static inline WGraph UniformWeightedGraph(int scale, int degree) {
  int64_t n = int64_t(1) << scale;
  uint64_t s = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  std::vector<std::pair<NodeID, WNode>> edges;
  for (int64_t e = 0; e < n * degree; e++) {
    NodeID u = next() & (n - 1), v = next() & (n - 1);
    WeightT w = 1 + next() % 255;
    edges.push_back({u, {v, w}});
    edges.push_back({v, {u, w}});
  }
  return WGraph(n, edges);
}

template <typename T> static bool compare_and_swap(T &x, const T &old_val, const T &new_val) {
  return __sync_bool_compare_and_swap(&x, old_val, new_val);
}

template <typename DistVector> static bool SSSPVerifier(const WGraph &g, NodeID source, const DistVector &dist) {
  std::vector<WeightT> oracle(g.num_nodes(), kDistInf);
  oracle[source] = 0;
  typedef std::pair<WeightT, NodeID> WN;
  std::priority_queue<WN, std::vector<WN>, std::greater<WN>> mq;
  mq.push({0, source});
  while (!mq.empty()) {
    WeightT td = mq.top().first;
    NodeID u = mq.top().second;
    mq.pop();
    if (td == oracle[u])
      for (WNode wn : g.out_neigh(u))
        if (td + wn.w < oracle[wn.v]) {
          oracle[wn.v] = td + wn.w;
          mq.push({td + wn.w, wn.v});
        }
  }
  for (NodeID v = 0; v < g.num_nodes(); v++)
    if (dist[v] != oracle[v])
      return false;
  return true;
}
#endif
