// vector_per_iteration: LDBC label propagation's vertex loop as C++ writes it: a std::vector declared in the body gathers the neighbours' labels (operator new, push_back's growth), std::sort orders them, and the most frequent, smallest on ties, is written to the vertex's own slot. Every call that may throw is an invoke whose exception now ends the program (TerminateOnThrow.cpp); the labels equal the serial loop's.
#include <algorithm>
#include <vector>

#include "common.h"

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 4096 };
  std::vector<int64_t> off(V + 1);
  for (int v = 0; v < V; ++v) off[v + 1] = off[v] + (v % 89 == 0 ? 60 + diff_rand() % 60 : diff_rand() % 9);
  std::vector<uint32_t> adj(off[V] + 1);
  for (int64_t e = 0; e < off[V]; ++e) adj[e] = diff_rand() % V;
  std::vector<uint64_t> labels(V), next(V);
  for (int v = 0; v < V; ++v) labels[v] = diff_rand() % 17;
  int count = n < V ? n : V;
#pragma memcoro parallel(N) remote(adj, labels)
  for (int v = 0; v < count; ++v) {
    std::vector<uint64_t> seen;
    for (int64_t e = off[v]; e < off[v + 1]; ++e)
      seen.push_back(labels[adj[e]]);
    if (seen.empty()) {
      next[v] = labels[v];
      continue;
    }
    std::sort(seen.begin(), seen.end());
    uint64_t best = seen[0];
    size_t best_count = 0;
    for (size_t i = 0; i < seen.size();) {
      size_t j = i;
      while (j < seen.size() && seen[j] == seen[i]) ++j;
      if (j - i > best_count) best_count = j - i, best = seen[i];
      i = j;
    }
    next[v] = best;
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64(next.data(), V));
  return 0;
}
