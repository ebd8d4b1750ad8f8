// cc: GAP-style connected components with Afforest (Sutton et al., GAP's
// cc.cc), written the way GAP writes it: each sampling round links every
// vertex to one of its neighbours through Link (a compare-and-swap on the
// higher root), compresses the trees, then links the vertices outside the
// largest component through all their remaining neighbours. Verified as
// GAP's CCVerifier does: the components are those of a serial search (every
// edge joins two vertices of one label, and there are as many labels as
// components). One pragma line marks the sampling loop; nothing else is edited.
#include "graph.h"
#include <unordered_map>

static bool compare_and_swap(NodeID &x, NodeID old_val, NodeID new_val) {
  return __sync_bool_compare_and_swap(&x, old_val, new_val);
}

// Place v's root under u's, whichever is lower wins, retrying as trees move.
static void Link(NodeID u, NodeID v, pvector<NodeID> &comp) {
  NodeID p1 = comp[u];
  NodeID p2 = comp[v];
  while (p1 != p2) {
    NodeID high = p1 > p2 ? p1 : p2;
    NodeID low = p1 + (p2 - high);
    NodeID p_high = comp[high];
    if ((p_high == low) || (p_high == high && compare_and_swap(comp[high], high, low)))
      break;
    p1 = comp[comp[high]];
    p2 = comp[low];
  }
}

// GAP's out_neigh(n, start_offset): the neighbourhood from an offset on.
static CSRGraph::Neighborhood out_neigh(const CSRGraph &g, NodeID n, int64_t start_offset) {
  CSRGraph::Neighborhood all = g.out_neigh(n);
  return CSRGraph::Neighborhood(all.begin() + std::min(start_offset, g.out_degree(n)), all.end());
}

static void Compress(const CSRGraph &g, pvector<NodeID> &comp) {
#pragma omp parallel for schedule(dynamic, 16384)
  for (NodeID n = 0; n < g.num_nodes(); n++) {
    while (comp[n] != comp[comp[n]]) {
      comp[n] = comp[comp[n]];
    }
  }
}

static NodeID SampleFrequentElement(const pvector<NodeID> &comp, int64_t num_samples = 1024) {
  std::unordered_map<NodeID, int> sample_counts(32);
  uint64_t s = 88172645463325252ull;
  for (int64_t i = 0; i < num_samples; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    sample_counts[comp[s % comp.size()]]++;
  }
  auto most_frequent = std::max_element(sample_counts.begin(), sample_counts.end(),
                                        [](const std::pair<NodeID, int> &a, const std::pair<NodeID, int> &b) {
                                          return a.second < b.second;
                                        });
  return most_frequent->first;
}

static pvector<NodeID> Afforest(const CSRGraph &g, int32_t neighbor_rounds, double &seconds) {
  pvector<NodeID> comp(g.num_nodes());
  auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for
  for (NodeID n = 0; n < g.num_nodes(); n++)
    comp[n] = n;
  for (int r = 0; r < neighbor_rounds; ++r) {
#pragma omp parallel for schedule(dynamic, 16384)
#pragma memcoro
    for (NodeID u = 0; u < g.num_nodes(); u++) {
      for (NodeID v : out_neigh(g, u, r)) {
        // Link at most once, if the neighbour at offset r exists.
        Link(u, v, comp);
        break;
      }
    }
    Compress(g, comp);
  }
  NodeID c = SampleFrequentElement(comp);
#pragma omp parallel for schedule(dynamic, 16384)
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    if (comp[u] == c)
      continue;
    for (NodeID v : out_neigh(g, u, neighbor_rounds))
      Link(u, v, comp);
  }
  Compress(g, comp);
  seconds = seconds_since(t0);
  return comp;
}

// The components of a serial breadth-first search must be the labels' classes.
static bool CCVerifier(const CSRGraph &g, const pvector<NodeID> &comp) {
  std::unordered_map<NodeID, NodeID> label_to_source;
  std::vector<bool> visited(g.num_nodes());
  std::vector<NodeID> frontier;
  for (NodeID n = 0; n < g.num_nodes(); n++) {
    if (visited[n])
      continue;
    if (label_to_source.count(comp[n]))
      return false;
    label_to_source[comp[n]] = n;
    frontier.assign(1, n);
    visited[n] = true;
    while (!frontier.empty()) {
      NodeID u = frontier.back();
      frontier.pop_back();
      for (NodeID v : g.out_neigh(u)) {
        if (comp[v] != comp[n])
          return false;
        if (!visited[v]) {
          visited[v] = true;
          frontier.push_back(v);
        }
      }
    }
  }
  return true;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  // A low degree leaves many small components besides the giant one.
  auto edges = uniform_edges(scale, argc > 2 ? atoi(argv[2]) : 2, 27491095);
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  double seconds = 0;
  pvector<NodeID> comp = Afforest(g, 2, seconds);
  bool ok = CCVerifier(g, comp);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges\n", scale, (long long)g.num_edges());
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
