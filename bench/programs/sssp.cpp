// sssp: single-source shortest paths by Bellman-Ford rounds, written the way
// graph codes write the simple parallel version: a weighted CSR graph whose
// neighbourhoods are ranges of (destination, weight) pairs, rounds of an
// OpenMP loop over the vertices that relaxes each vertex's out-edges with a
// compare-and-swap minimum, and a `changed` flag that ends the rounds.
// Verified as GAP's SSSPVerifier verifies: the distances equal those of a
// serial Dijkstra search from the same source.
// One pragma line marks the relaxation loop; nothing else is edited.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "wgraph.h"

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

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  int degree = argc > 2 ? atoi(argv[2]) : 8;
  WGraph g = UniformWeightedGraph(scale, degree);
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
