// member_bound: bounds re-read through memory a store in the body may alias, written as graph and queue code is (a member-function bound, a pointer-iterator range): evaluated once, as OpenMP does, and interleaved (issue 17, item 1).
#include <cstdint>
#include "common.h"

struct Graph {
  int64_t n_;
  const int64_t *offsets_;
  int64_t num_nodes() const { return n_; }
};

struct Queue { // a sliding queue's window, as in frontier-based graph kernels
  int64_t *begin_, *end_;
  int64_t *begin() const { return begin_; }
  int64_t *end() const { return end_; }
};

static int64_t T[4096];

__attribute__((noinline)) void degrees(const Graph &g, int64_t *deg) {
#pragma memcoro parallel(N)
  for (int64_t u = 0; u < g.num_nodes(); u++)
    deg[u] = T[g.offsets_[u] & 4095] + u; // an int64 store: may alias g.n_
}

__attribute__((noinline)) void visit(const Queue &q, int64_t *seen) {
#pragma memcoro parallel(N)
  for (int64_t *it = q.begin(); it < q.end(); it++)
    seen[it - q.begin()] = T[*it & 4095] ^ *it;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *offsets = static_cast<int64_t *>(diff_alloc(sizeof(int64_t) * (n + 1)));
  int64_t *out = static_cast<int64_t *>(diff_alloc(sizeof(int64_t) * (n + 1)));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)diff_rand();
  for (int i = 0; i < n; ++i) offsets[i] = (int64_t)(diff_rand() % 100000);
  Graph g{n, offsets};
  degrees(g, out);
  printf("%llx\n", (unsigned long long)diff_hash_u64(reinterpret_cast<uint64_t *>(out), n));
  Queue q{offsets, offsets + n};
  visit(q, out);
  printf("%llx\n", (unsigned long long)diff_hash_u64(reinterpret_cast<uint64_t *>(out), n));
  return 0;
}
