// deltastep: single-source shortest paths by delta-stepping, written the way
// GAP's sssp.cc writes it: inside one OpenMP parallel region each thread keeps
// its own bins (a vector of vectors of vertices), relaxes the current
// frontier with an `omp for nowait schedule(dynamic, 64)` loop whose edges
// lower distances by compare-and-swap and push the lowered vertex into the bin
// of its new distance, then keeps relaxing its own small current bin, and the
// threads agree on the next bin and copy theirs into the shared frontier.
// Verified as GAP's SSSPVerifier verifies: the distances equal those of a
// serial Dijkstra search from the same source.
// One pragma line marks the frontier loop; nothing else is edited.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "graph.h"
#include "wgraph.h"

static const size_t kMaxBin = std::numeric_limits<size_t>::max() / 2;
static const size_t kBinSizeThreshold = 1000;

template <typename T> static T fetch_and_add(T &x, T inc) { return __sync_fetch_and_add(&x, inc); }

static inline void RelaxEdges(const WGraph &g, NodeID u, WeightT delta, pvector<WeightT> &dist,
                              std::vector<std::vector<NodeID>> &local_bins) {
  for (WNode wn : g.out_neigh(u)) {
    WeightT old_dist = dist[wn.v];
    WeightT new_dist = dist[u] + wn.w;
    while (new_dist < old_dist) {
      if (compare_and_swap(dist[wn.v], old_dist, new_dist)) {
        size_t dest_bin = new_dist / delta;
        if (dest_bin >= local_bins.size())
          local_bins.resize(dest_bin + 1);
        local_bins[dest_bin].push_back(wn.v);
        break;
      }
      old_dist = dist[wn.v];
    }
  }
}

static pvector<WeightT> DeltaStep(const WGraph &g, NodeID source, WeightT delta, int &steps) {
  pvector<WeightT> dist(g.num_nodes(), kDistInf);
  dist[source] = 0;
  pvector<NodeID> frontier(g.num_edges_directed());
  // Two bins' worth of shared state, flipped each step, so that a thread may
  // read this step's while another has begun writing the next one's.
  size_t shared_indexes[2] = {0, kMaxBin};
  size_t frontier_tails[2] = {1, 0};
  frontier[0] = source;
  steps = 0;
#pragma omp parallel
  {
    std::vector<std::vector<NodeID>> local_bins(0);
    size_t iter = 0;
    while (shared_indexes[iter & 1] != kMaxBin) {
      size_t &curr_bin_index = shared_indexes[iter & 1];
      size_t &next_bin_index = shared_indexes[(iter + 1) & 1];
      size_t &curr_frontier_tail = frontier_tails[iter & 1];
      size_t &next_frontier_tail = frontier_tails[(iter + 1) & 1];
#pragma omp for nowait schedule(dynamic, 64)
#pragma memcoro
      for (size_t i = 0; i < curr_frontier_tail; i++) {
        NodeID u = frontier[i];
        if (dist[u] >= delta * static_cast<WeightT>(curr_bin_index))
          RelaxEdges(g, u, delta, dist, local_bins);
      }
      while (curr_bin_index < local_bins.size() && !local_bins[curr_bin_index].empty() &&
             local_bins[curr_bin_index].size() < kBinSizeThreshold) {
        std::vector<NodeID> curr_bin_copy = local_bins[curr_bin_index];
        local_bins[curr_bin_index].resize(0);
        for (NodeID u : curr_bin_copy)
          RelaxEdges(g, u, delta, dist, local_bins);
      }
      for (size_t i = curr_bin_index; i < local_bins.size(); i++) {
        if (!local_bins[i].empty()) {
#pragma omp critical
          next_bin_index = std::min(next_bin_index, i);
          break;
        }
      }
#pragma omp barrier
#pragma omp single nowait
      {
        curr_bin_index = kMaxBin;
        curr_frontier_tail = 0;
        steps++;
      }
      if (next_bin_index < local_bins.size()) {
        size_t copy_start = fetch_and_add(next_frontier_tail, local_bins[next_bin_index].size());
        std::copy(local_bins[next_bin_index].begin(), local_bins[next_bin_index].end(), frontier.begin() + copy_start);
        local_bins[next_bin_index].resize(0);
      }
      iter++;
#pragma omp barrier
    }
  }
  return dist;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  int degree = argc > 2 ? atoi(argv[2]) : 8;
  WeightT delta = argc > 3 ? atoi(argv[3]) : 16;
  WGraph g = UniformWeightedGraph(scale, degree);
  int steps = 0;
  auto t0 = std::chrono::steady_clock::now();
  pvector<WeightT> dist = DeltaStep(g, 0, delta, steps);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bool ok = SSSPVerifier(g, 0, dist);
  printf("kernel_seconds %.6f\n", seconds);
  // With several OpenMP threads the number of steps depends on which thread
  // took which vertices first, so it is no part of the answer both builds
  // must agree on; the distances are.
  printf("scale %d, delta %d\n", scale, delta);
  fprintf(stderr, "%d steps\n", steps);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
