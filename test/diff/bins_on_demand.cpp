// bins_on_demand: GAP's delta-stepping relaxation (bench/programs/deltastep.cpp): distances lowered by CAS, each lowered vertex appended to the bin of its new distance, a thread's vector of bins grown on demand (`if (b >= bins.size()) bins.resize(b + 1); bins[b].push_back(v)`). The bins fill in iteration order; at -O2 resize's shrinking path stores into the vector's end pointer with no value read from it, and the start pointer that indexes the appends is written only inside the growth's call (issue 17, item 11).
#include "common.h"
#include <vector>

struct Edge {
  int32_t v, w;
};

__attribute__((noinline)) static void relax(const std::vector<int32_t> &frontier, const int64_t *offsets,
                                            const Edge *edges, int32_t *dist, int32_t delta,
                                            std::vector<std::vector<int32_t>> &bins) {
#pragma memcoro parallel(N)
  for (size_t i = 0; i < frontier.size(); i++) {
    int32_t u = frontier[i];
    for (int64_t e = offsets[u]; e < offsets[u + 1]; e++) {
      int32_t v = edges[e].v, new_dist = dist[u] + edges[e].w, old_dist = dist[v];
      while (new_dist < old_dist) {
        if (__sync_bool_compare_and_swap(&dist[v], old_dist, new_dist)) {
          size_t b = new_dist / delta;
          if (b >= bins.size())
            bins.resize(b + 1);
          bins[b].push_back(v);
          break;
        }
        old_dist = dist[v];
      }
    }
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // Every edge its own target, so no two iterations lower one distance and
  // the serial bins are the only answer.
  enum { Degree = 3 };
  int32_t sources = n + 1, targets = sources * Degree;
  std::vector<int64_t> offsets(sources + 1);
  std::vector<Edge> edges(targets);
  std::vector<int32_t> perm(targets);
  for (int32_t t = 0; t < targets; t++) perm[t] = sources + t;
  for (int32_t t = targets - 1; t > 0; t--) std::swap(perm[t], perm[diff_rand() % (t + 1)]);
  for (int32_t s = 0; s <= sources; s++) offsets[s] = (int64_t)s * Degree;
  for (int32_t t = 0; t < targets; t++) edges[t] = {perm[t], (int32_t)(diff_rand() % 4000)};
  std::vector<int32_t> dist(sources + targets, 1 << 30);
  for (int32_t s = 0; s < sources; s++) dist[s] = (int32_t)(diff_rand() % 1000);
  // Distinct vertices, as a frontier holds them.
  std::vector<int32_t> frontier(sources);
  for (int32_t s = 0; s < sources; s++) frontier[s] = s;
  for (int32_t s = sources - 1; s > 0; s--) std::swap(frontier[s], frontier[diff_rand() % (s + 1)]);
  frontier.resize(n);
  std::vector<std::vector<int32_t>> bins(2);
  relax(frontier, offsets.data(), edges.data(), dist.data(), 100, bins);
  uint64_t h = diff_hash_i32(dist.data(), dist.size());
  size_t appended = 0;
  for (auto &bin : bins) {
    h = (h ^ diff_hash_i32(bin.data(), bin.size())) * 1099511628211ull;
    appended += bin.size();
  }
  printf("%zu bins, %zu appended, %llx\n", bins.size(), appended, (unsigned long long)h);
  return 0;
}
