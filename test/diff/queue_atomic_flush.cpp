// queue_atomic_flush: GAP's top-down BFS step as GAP writes it, with the suite's GAP SlidingQueue and QueueBuffer (bench/programs/graph.h): the frontier walked with an iterator up to the queue's member end, appends through a thread's QueueBuffer whose flush claims its slice of the shared queue with an atomic add. The atomic makes the compiler re-read queue.end() in the loop; its bound is evaluated once, as OpenMP does, the flush runs in place and the appends in iteration order (issue 17, items 1, 8, 11). A tiny buffer flushes often. The claim is a first-writer-wins test, not GAP's compare-and-swap, so that the queue and the parents equal the serial loop's exactly (docs/compiler.md, "what the serial answer is for GAP's BFS step").
#include "common.h"
#include "../../bench/programs/graph.h"
static int64_t TDStep(const std::vector<int32_t> &start, const std::vector<int32_t> &adj, std::vector<int32_t> &parent, SlidingQueue<int32_t> &queue) {
  int64_t scout_count = 0;
  QueueBuffer<int32_t> lqueue(queue, 5);
#pragma memcoro parallel(N) remote(parent)
  for (auto q_iter = queue.begin(); q_iter < queue.end(); q_iter++) {
    int32_t u = *q_iter;
    for (int32_t e = start[u]; e < start[u + 1]; e++) {
      int32_t v = adj[e];
      int32_t curr_val = parent[v];
      if (curr_val < 0) {
        parent[v] = u;
        lqueue.push_back(v);
        scout_count += -curr_val;
      }
    }
  }
  lqueue.flush();
  return scout_count;
}
enum { V = 1 << 13 };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // A graph in CSR form, out-degrees 0 to 3.
  std::vector<int32_t> start(V + 1), adj, parent(V, -1);
  for (int32_t u = 0; u < V; ++u) {
    start[u] = (int32_t)adj.size();
    for (uint64_t d = diff_rand() % 4; d > 0; --d)
      adj.push_back((int32_t)(diff_rand() % V));
  }
  start[V] = (int32_t)adj.size();
  // The first frontier has n vertices, so the marked loop runs n iterations first.
  SlidingQueue<int32_t> queue((size_t)V + n);
  for (int i = 0; i < n; ++i) {
    int32_t s = (int32_t)(diff_rand() % V);
    if (parent[s] < 0) {
      parent[s] = s;
      queue.push_back(s);
    }
  }
  queue.slide_window();
  uint64_t h = 1469598103934665603ull, scouts = 0;
  while (!queue.empty()) {
    scouts += (uint64_t)TDStep(start, adj, parent, queue);
    for (auto it = queue.begin(); it < queue.end(); it++)
      h = (h ^ (uint64_t)*it) * 1099511628211ull;
    queue.slide_window();
  }
  for (int32_t p : parent) h = (h ^ (uint64_t)(uint32_t)p) * 1099511628211ull;
  printf("%llu %llx\n", (unsigned long long)scouts, (unsigned long long)h);
  return 0;
}
