// cdlp: LDBC Graphalytics community detection by label propagation, written
// the way C++ implementations of the benchmark write it: synchronous rounds,
// each vertex gathering its neighbours' labels of the previous round into a
// vector of its own, sorting it, and taking the most frequent label, the
// smallest on ties (Graphalytics' rule); an OpenMP parallel for over the
// vertices. Verified against a straightforward reference that counts a
// vertex's neighbours' labels in a std::map: every round, each vertex (a
// spread sample of them at large sizes) must get the label the reference
// gives it from that round's input. One pragma line marks the vertex loop;
// nothing else is edited.
#include "graph.h"

#include <map>

// Labels are vertex identifiers, 64-bit in Graphalytics' data sets.
typedef uint64_t Label;

static void cdlp_round(const CSRGraph &g, const std::vector<Label> &labels, std::vector<Label> &next_labels) {
#pragma omp parallel for schedule(dynamic, 1024)
#pragma memcoro
  for (NodeID v = 0; v < g.num_nodes(); v++) {
    std::vector<Label> neighbour_labels;
    neighbour_labels.reserve(g.out_degree(v));
    for (NodeID u : g.out_neigh(v))
      neighbour_labels.push_back(labels[u]);
    if (neighbour_labels.empty()) {
      next_labels[v] = labels[v];
      continue;
    }
    std::sort(neighbour_labels.begin(), neighbour_labels.end());
    Label best = neighbour_labels[0];
    size_t best_count = 0;
    for (size_t i = 0; i < neighbour_labels.size();) {
      size_t j = i;
      while (j < neighbour_labels.size() && neighbour_labels[j] == neighbour_labels[i])
        j++;
      // Sorted ascending: a later run replaces the best only when strictly
      // more frequent, so ties keep the smallest label.
      if (j - i > best_count) {
        best_count = j - i;
        best = neighbour_labels[i];
      }
      i = j;
    }
    next_labels[v] = best;
  }
}

// The reference's rule for one vertex, with a std::map as the histogram.
static Label reference_label(const CSRGraph &g, const std::vector<Label> &labels, NodeID v) {
  std::map<Label, int64_t> count;
  for (NodeID u : g.out_neigh(v))
    count[labels[u]]++;
  Label best = labels[v];
  int64_t best_count = 0;
  for (auto &[label, c] : count)
    if (c > best_count) {
      best = label;
      best_count = c;
    }
  return best;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int rounds = argc > 2 ? atoi(argv[2]) : 4;
  int degree = argc > 3 ? atoi(argv[3]) : 4;
  auto edges = uniform_edges(scale, degree, 8675309);
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  std::vector<Label> labels(g.num_nodes()), next_labels(g.num_nodes());
  for (NodeID v = 0; v < g.num_nodes(); v++)
    labels[v] = v;
  // Each round checked against the reference's rule from that round's input:
  // every vertex at small sizes, a spread sample of them at large ones.
  NodeID stride = g.num_nodes() <= (1 << 16) ? 1 : 61;
  double seconds = 0;
  bool ok = true;
  for (int r = 0; r < rounds; r++) {
    auto t0 = std::chrono::steady_clock::now();
    cdlp_round(g, labels, next_labels);
    seconds += seconds_since(t0);
    for (NodeID v = r % stride; v < g.num_nodes() && ok; v += stride)
      ok = next_labels[v] == reference_label(g, labels, v);
    labels.swap(next_labels);
  }
  int64_t communities = 0;
  uint64_t label_hash = 0;
  for (NodeID v = 0; v < g.num_nodes(); v++) {
    communities += labels[v] == Label(v);
    label_hash = label_hash * 1000003u + labels[v];
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %d rounds, %lld labels still their own vertex's, label hash %016llx\n", scale,
         (long long)g.num_edges(), rounds, (long long)communities, (unsigned long long)label_hash);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
