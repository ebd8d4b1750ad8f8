// buffer_register: appends through a buffer object whose flush is inlined, as GAP's QueueBuffer is in its BFS: SROA keeps the counter in a register, reset to 0 when the full buffer is copied out; the appends run in iteration order, the flush in place, and the queue equals the serial loop's (issue 17, item 11).
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
  size_t local_size;
  SlidingQueue<T> &sq;
  T *local_queue;

public:
  explicit QueueBuffer(SlidingQueue<T> &master, size_t given_size = 16)
      : in(0), local_size(given_size), sq(master), local_queue(new T[given_size]) {}
  ~QueueBuffer() { delete[] local_queue; }
  void push_back(T to_add) {
    if (in == local_size)
      flush();
    local_queue[in++] = to_add;
  }
  void flush() {
    std::copy(local_queue, local_queue + in, sq.shared + sq.shared_in);
    sq.shared_in += in;
    in = 0;
  }
};
// GAP's top-down step: each frontier vertex's neighbours (a range-for), the
// unvisited ones claimed and appended through the thread's buffer. The
// buffer is the step's own object, so everything inlines.
static int64_t step(const std::vector<uint32_t> &frontier, const std::vector<uint32_t> &adj,
                    const std::vector<uint32_t> &start, std::vector<int64_t> &parent, SlidingQueue<uint32_t> &queue) {
  int64_t scout_count = 0;
  QueueBuffer<uint32_t> lq(queue);
#pragma memcoro parallel(N) remote(parent)
  for (uint32_t u : frontier) {
    for (uint32_t e = start[u]; e < start[u] + 3; e++) {
      uint32_t v = adj[e];
      if (parent[v] < 0) {
        parent[v] = u;
        lq.push_back(v);
        scout_count += 1;
      }
    }
  }
  lq.flush();
  return scout_count;
}
// A filter into a result buffer of the loop's own function.
static size_t select(const std::vector<uint32_t> &idx, const std::vector<int64_t> &table,
                     SlidingQueue<uint32_t> &out) {
  QueueBuffer<uint32_t> lq(out, 8);
#pragma memcoro parallel(N) remote(table)
  for (size_t i = 0; i < idx.size(); i++)
    if (table[idx[i]] % 3 == 0)
      lq.push_back((uint32_t)i);
  lq.flush();
  return out.shared_in;
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 1 << 14 };
  std::vector<uint32_t> adj(V + 8), start(V), frontier(n);
  for (auto &a : adj) a = diff_rand() % V;
  for (uint32_t i = 0; i < V; ++i) start[i] = (uint32_t)(diff_rand() % V);
  for (auto &f : frontier) f = diff_rand() % V;
  std::vector<int64_t> parent(V, -1);
  SlidingQueue<uint32_t> queue(3 * (size_t)n + 1);
  int64_t scouts = step(frontier, adj, start, parent, queue);
  std::vector<int64_t> table(V);
  for (auto &t : table) t = (int64_t)(diff_rand() % 1000000);
  SlidingQueue<uint32_t> out(n + 1);
  size_t selected = select(frontier, table, out);
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < queue.shared_in; ++k) h = (h ^ queue.shared[k]) * 1099511628211ull;
  for (int64_t p : parent) h = (h ^ (uint64_t)p) * 1099511628211ull;
  for (size_t k = 0; k < out.shared_in; ++k) h = (h ^ out.shared[k]) * 1099511628211ull;
  printf("%zu %lld %zu %llx\n", queue.shared_in, (long long)scouts, selected, (unsigned long long)h);
  return 0;
}
