// ccsv: GAP-style connected components with Shiloach-Vishkin (GAP's
// cc_sv.cc), written the way GAP writes it: rounds of hooking, where every
// edge whose endpoints carry different labels hooks the higher label's root
// under the lower label (`comp[high_comp] = low_comp`, benign races allowed,
// the round repeats while anything changed), each followed by pointer
// jumping. Verified against a serial union-find over the edge list: two
// vertices carry one label exactly when they have one root there.
// One pragma line marks the hooking loop; nothing else is edited.
#include "graph.h"

static pvector<NodeID> ShiloachVishkin(const CSRGraph &g, int &num_iter) {
  pvector<NodeID> comp(g.num_nodes());
#pragma omp parallel for
  for (NodeID n = 0; n < g.num_nodes(); n++)
    comp[n] = n;
  bool change = true;
  num_iter = 0;
  while (change) {
    change = false;
    num_iter++;
#pragma omp parallel for
#pragma memcoro
    for (NodeID u = 0; u < g.num_nodes(); u++) {
      for (NodeID v : g.out_neigh(u)) {
        NodeID comp_u = comp[u];
        NodeID comp_v = comp[v];
        if (comp_u == comp_v)
          continue;
        // The lower label wins whichever way the edge points.
        NodeID high_comp = comp_u > comp_v ? comp_u : comp_v;
        NodeID low_comp = comp_u + (comp_v - high_comp);
        if (high_comp == comp[high_comp]) {
          change = true;
          comp[high_comp] = low_comp;
        }
      }
    }
#pragma omp parallel for
    for (NodeID n = 0; n < g.num_nodes(); n++) {
      while (comp[n] != comp[comp[n]]) {
        comp[n] = comp[comp[n]];
      }
    }
  }
  return comp;
}

static NodeID find_root(std::vector<NodeID> &parent, NodeID x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Same label exactly when same union-find root: each root maps to one label
// and each label to one root.
static bool SVVerifier(int64_t num_nodes, const std::vector<std::pair<NodeID, NodeID>> &edges,
                       const pvector<NodeID> &comp) {
  std::vector<NodeID> parent(num_nodes);
  for (NodeID n = 0; n < num_nodes; n++)
    parent[n] = n;
  for (auto &e : edges) {
    NodeID a = find_root(parent, e.first), b = find_root(parent, e.second);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<NodeID> label_of_root(num_nodes, -1), root_of_label(num_nodes, -1);
  for (NodeID n = 0; n < num_nodes; n++) {
    NodeID r = find_root(parent, n), c = comp[n];
    if (c < 0 || c >= num_nodes)
      return false;
    if (label_of_root[r] < 0 && root_of_label[c] < 0) {
      label_of_root[r] = c;
      root_of_label[c] = r;
    }
    if (label_of_root[r] != c || root_of_label[c] != r)
      return false;
  }
  return true;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  auto edges = uniform_edges(scale, argc > 2 ? atoi(argv[2]) : 2, 8675309);
  int64_t num_nodes = int64_t(1) << scale;
  CSRGraph g(num_nodes, edges);
  int num_iter = 0;
  auto t0 = std::chrono::steady_clock::now();
  pvector<NodeID> comp = ShiloachVishkin(g, num_iter);
  double seconds = seconds_since(t0);
  bool ok = SVVerifier(num_nodes, edges, comp);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %d rounds\n", scale, (long long)g.num_edges(), num_iter);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
