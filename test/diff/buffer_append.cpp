// buffer_append: appends through a buffer object, as GAP's QueueBuffer writes them (a member counter, a capacity, a full buffer flushed into a shared queue by a call), and std::vector::push_back into a reserved result vector: the appends run in iteration order, the flush in place (issue 17, item 11).
#include "common.h"
#include <algorithm>
#include <vector>
template <typename T> struct SlidingQueue {
  T *shared;
  size_t shared_in = 0;
  explicit SlidingQueue(size_t n) : shared(new T[n]) {}
  ~SlidingQueue() { delete[] shared; }
};
template <typename T> class QueueBuffer {
  size_t in;
  T *local_queue;
  SlidingQueue<T> &sq;
  const size_t local_size;

public:
  explicit QueueBuffer(SlidingQueue<T> &master, size_t given_size = 16) : sq(master), local_size(given_size) {
    in = 0;
    local_queue = new T[local_size];
  }
  ~QueueBuffer() { delete[] local_queue; }
  void push_back(T to_add) {
    if (in == local_size)
      flush();
    local_queue[in++] = to_add;
  }
  // Not inlined, as a flush that takes a lock or an atomic ticket is not.
  __attribute__((noinline)) void flush() {
    T *shared_queue = sq.shared;
    size_t copy_start = sq.shared_in;
    sq.shared_in += in;
    std::copy(local_queue, local_queue + in, shared_queue + copy_start);
    in = 0;
  }
};
// The frontier step of a top-down BFS: unvisited neighbours of u get u as
// parent and go to the next frontier through the thread's buffer.
static void step(const std::vector<uint32_t> &frontier, const uint32_t *adj, const uint32_t *start,
                 std::vector<int64_t> &parent, QueueBuffer<uint32_t> &lq) {
#pragma memcoro parallel(N) remote(parent)
  for (uint32_t u : frontier) {
    uint32_t v = adj[start[u]];
    if (parent[v] < 0) {
      parent[v] = u;
      lq.push_back(v);
    }
  }
}
// A function of its own that fills a result vector it is given (inlined into
// main, the vector would live in registers: see docs/compiler.md).
__attribute__((noinline)) static void collect(const std::vector<uint32_t> &idx, const std::vector<int64_t> &table, std::vector<int64_t> &out) {
#pragma memcoro parallel(N)
  for (uint32_t i : idx)
    if (table[i] % 3 == 0)
      out.push_back(table[i]);
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 1 << 14 };
  std::vector<uint32_t> adj(V), start(V), frontier(n);
  for (auto &a : adj) a = diff_rand() % V;
  for (uint32_t i = 0; i < V; ++i) start[i] = (uint32_t)(diff_rand() % V);
  for (auto &f : frontier) f = diff_rand() % V;
  std::vector<int64_t> parent(V, -1);
  SlidingQueue<uint32_t> queue(n + 1);
  QueueBuffer<uint32_t> lq(queue);
  step(frontier, adj.data(), start.data(), parent, lq);
  lq.flush();
  std::vector<int64_t> table(V);
  for (auto &t : table) t = (int64_t)(diff_rand() % 1000000);
  std::vector<int64_t> out;
  out.reserve(n / 2);
  collect(frontier, table, out);
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < queue.shared_in; ++k) h = (h ^ queue.shared[k]) * 1099511628211ull;
  for (int64_t p : parent) h = (h ^ (uint64_t)p) * 1099511628211ull;
  for (int64_t o : out) h = (h ^ (uint64_t)o) * 1099511628211ull;
  printf("%zu %zu %llx\n", queue.shared_in, out.size(), (unsigned long long)h);
  return 0;
}
