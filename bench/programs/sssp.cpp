// sssp: single-source shortest paths by Bellman-Ford rounds, written the way
// graph codes write the simple parallel version: a weighted CSR graph whose
// neighbourhoods are ranges of (destination, weight) pairs, rounds of an
// OpenMP loop over the vertices that relaxes each vertex's out-edges with a
// compare-and-swap minimum, and a `changed` flag that ends the rounds.
// Verified as GAP's SSSPVerifier verifies: the distances equal those of a
// serial Dijkstra search from the same source.
// One pragma line marks the relaxation loop; nothing else is edited.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
  Range out_neigh(NodeID u) const { return {&neighs_[index_[u]], &neighs_[0] + index_[u + 1]}; }

private:
  int64_t n_;
  std::vector<int64_t> index_;
  std::vector<WNode> neighs_;
};

static bool compare_and_swap(WeightT &x, WeightT old_val, WeightT new_val) {
  return __sync_bool_compare_and_swap(&x, old_val, new_val);
}

static std::vector<WeightT> BellmanFord(const WGraph &g, NodeID source, int &rounds) {
  std::vector<WeightT> dist(g.num_nodes(), kDistInf);
  dist[source] = 0;
  bool changed = true;
  rounds = 0;
  while (changed) {
    changed = false;
    rounds++;
#pragma omp parallel for schedule(dynamic, 1024) reduction(|| : changed)
#pragma memcoro
    for (NodeID u = 0; u < g.num_nodes(); u++) {
      WeightT du = dist[u];
      if (du == kDistInf)
        continue;
      for (WNode wn : g.out_neigh(u)) {
        WeightT new_dist = du + wn.w;
        WeightT old_dist = dist[wn.v];
        while (new_dist < old_dist) {
          if (compare_and_swap(dist[wn.v], old_dist, new_dist)) {
            changed = true;
            break;
          }
          old_dist = dist[wn.v];
        }
      }
    }
  }
  return dist;
}

static bool SSSPVerifier(const WGraph &g, NodeID source, const std::vector<WeightT> &dist) {
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
  return oracle == dist;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  int degree = argc > 2 ? atoi(argv[2]) : 8;
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
  WGraph g(n, edges);
  edges.clear();
  edges.shrink_to_fit();
  int rounds = 0;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<WeightT> dist = BellmanFord(g, 0, rounds);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bool ok = SSSPVerifier(g, 0, dist);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %d rounds\n", scale, rounds);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
