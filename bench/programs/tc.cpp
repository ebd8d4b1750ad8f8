// tc: GAP-style triangle counting, written the way GAP's tc.cc writes its
// OrderedCount: every triangle is counted once, at its largest vertex u,
// by walking u's smaller neighbours v and merging v's smaller neighbours
// with u's sorted neighbourhood (an iterator advanced while it is behind),
// the total an OpenMP reduction under schedule(dynamic, 64). The graph is
// built as GAP's builder builds it: neighbourhoods sorted, duplicate edges and
// self-loops removed (uniform graphs are not relabelled by degree). Verified
// as GAP's TCVerifier does: a serial count by std::set_intersection over
// every edge, divided by 6. One pragma line marks the outer loop.
#include "graph.h"

static size_t OrderedCount(const CSRGraph &g) {
  size_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 64)
#pragma memcoro
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    for (NodeID v : g.out_neigh(u)) {
      if (v > u)
        break;
      auto it = g.out_neigh(u).begin();
      for (NodeID w : g.out_neigh(v)) {
        if (w > v)
          break;
        while (*it < w)
          it++;
        if (w == *it)
          total++;
      }
    }
  }
  return total;
}

static bool TCVerifier(const CSRGraph &g, size_t test_total) {
  size_t total = 0;
  std::vector<NodeID> intersection;
  intersection.reserve(g.num_nodes());
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    for (NodeID v : g.out_neigh(u)) {
      intersection.clear();
      std::set_intersection(g.out_neigh(u).begin(), g.out_neigh(u).end(), g.out_neigh(v).begin(),
                            g.out_neigh(v).end(), std::back_inserter(intersection));
      total += intersection.size();
    }
  }
  total = total / 6; // each triangle was counted 6 times
  if (total != test_total)
    printf("%zu != %zu\n", total, test_total);
  return total == test_total;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  int degree = argc > 2 ? atoi(argv[2]) : 8;
  int trials = argc > 3 ? atoi(argv[3]) : 2;
  auto edges = uniform_edges(scale, degree, 27491095);
  // GAP's SquishGraph: sorted neighbourhoods without duplicates.
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  double seconds = 0;
  size_t triangles = 0;
  for (int t = 0; t < trials; t++) {
    auto t0 = std::chrono::steady_clock::now();
    triangles = OrderedCount(g);
    seconds += seconds_since(t0);
  }
  bool ok = TCVerifier(g, triangles);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %zu triangles\n", scale, (long long)g.num_edges(), triangles);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
