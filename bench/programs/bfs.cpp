// bfs: GAP's breadth-first search, written the way GAP's bfs.cc writes it.
// The top-down step walks the frontier, a sliding queue, with an iterator
// whose bound is a member, each vertex's neighbourhood a range-for, a vertex
// claimed with compare-and-swap on its parent and appended through a
// thread's QueueBuffer. With `do` (GAP's direction-optimizing search, its
// alpha = 15 and beta = 18), large frontiers switch to bottom-up steps: every
// unvisited vertex looks through its neighbours for one in the frontier
// bitmap, takes the first as its parent and sets its own bit in the next
// frontier. Verified as GAP verifies a BFS tree: every reached vertex's parent
// is a neighbour one level closer to the source, and exactly the vertices a
// serial BFS reaches are reached. One pragma line marks each step's loop;
// nothing else is edited.
#include <string>

#include "graph.h"

template <typename T> static bool compare_and_swap(T &x, const T &old_val, const T &new_val) {
  return __sync_bool_compare_and_swap(&x, old_val, new_val);
}

static int64_t TDStep(const CSRGraph &g, pvector<NodeID> &parent, SlidingQueue<NodeID> &queue) {
  int64_t scout_count = 0;
#pragma omp parallel
  {
    QueueBuffer<NodeID> lqueue(queue);
#pragma omp for reduction(+ : scout_count) nowait
#pragma memcoro
    for (auto q_iter = queue.begin(); q_iter < queue.end(); q_iter++) {
      NodeID u = *q_iter;
      for (NodeID v : g.out_neigh(u)) {
        NodeID curr_val = parent[v];
        if (curr_val < 0) {
          if (compare_and_swap(parent[v], curr_val, u)) {
            lqueue.push_back(v);
            scout_count += -curr_val;
          }
        }
      }
    }
    lqueue.flush();
  }
  return scout_count;
}

static int64_t BUStep(const CSRGraph &g, pvector<NodeID> &parent, Bitmap &front, Bitmap &next) {
  int64_t awake_count = 0;
  next.reset();
#pragma omp parallel for reduction(+ : awake_count) schedule(dynamic, 1024)
#pragma memcoro
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    if (parent[u] < 0) {
      for (NodeID v : g.in_neigh(u)) {
        if (front.get_bit(v)) {
          parent[u] = v;
          awake_count++;
          next.set_bit(u);
          break;
        }
      }
    }
  }
  return awake_count;
}

static void QueueToBitmap(const SlidingQueue<NodeID> &queue, Bitmap &bm) {
#pragma omp parallel for
  for (auto q_iter = queue.begin(); q_iter < queue.end(); q_iter++) {
    NodeID u = *q_iter;
    bm.set_bit_atomic(u);
  }
}

static void BitmapToQueue(const CSRGraph &g, const Bitmap &bm, SlidingQueue<NodeID> &queue) {
#pragma omp parallel
  {
    QueueBuffer<NodeID> lqueue(queue);
#pragma omp for
    for (NodeID n = 0; n < g.num_nodes(); n++)
      if (bm.get_bit(n))
        lqueue.push_back(n);
    lqueue.flush();
  }
  queue.slide_window();
}

static double DOBFS(const CSRGraph &g, NodeID source, pvector<NodeID> &parent, bool bottom_up, int alpha = 15,
                    int beta = 18) {
  for (int64_t n = 0; n < g.num_nodes(); n++)
    parent[n] = g.out_degree(n) != 0 ? -g.out_degree(n) : -1;
  parent[source] = source;
  SlidingQueue<NodeID> queue(g.num_nodes());
  queue.push_back(source);
  queue.slide_window();
  Bitmap curr(g.num_nodes());
  curr.reset();
  Bitmap front(g.num_nodes());
  front.reset();
  int64_t edges_to_check = g.num_edges();
  int64_t scout_count = g.out_degree(source);
  auto t0 = std::chrono::steady_clock::now();
  while (!queue.empty()) {
    if (bottom_up && scout_count > edges_to_check / alpha) {
      int64_t awake_count, old_awake_count;
      QueueToBitmap(queue, front);
      awake_count = queue.size();
      queue.slide_window();
      do {
        old_awake_count = awake_count;
        awake_count = BUStep(g, parent, front, curr);
        front.swap(curr);
      } while ((awake_count >= old_awake_count) || (awake_count > g.num_nodes() / beta));
      BitmapToQueue(g, front, queue);
      scout_count = 1;
    } else {
      edges_to_check -= scout_count;
      scout_count = TDStep(g, parent, queue);
      queue.slide_window();
    }
  }
  return seconds_since(t0);
}

// GAP's BFSVerifier: depths from a serial BFS, then every parent checked.
static bool BFSVerifier(const CSRGraph &g, NodeID source, pvector<NodeID> &parent) {
  pvector<int64_t> depth(g.num_nodes(), -1);
  depth[source] = 0;
  std::vector<NodeID> to_visit{source};
  for (size_t i = 0; i < to_visit.size(); i++) {
    NodeID u = to_visit[i];
    for (NodeID v : g.out_neigh(u))
      if (depth[v] == -1) {
        depth[v] = depth[u] + 1;
        to_visit.push_back(v);
      }
  }
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    if ((depth[u] == -1) != (parent[u] < 0))
      return false;
    if (depth[u] != -1) {
      if (u == source) {
        if (!(parent[u] == u && depth[u] == 0))
          return false;
        continue;
      }
      bool parent_found = false;
      for (NodeID v : g.in_neigh(u))
        if (v == parent[u]) {
          if (depth[v] != depth[u] - 1)
            return false;
          parent_found = true;
          break;
        }
      if (!parent_found)
        return false;
    }
  }
  return true;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int trials = argc > 2 ? atoi(argv[2]) : 4;
  bool bottom_up = argc > 3 && std::string(argv[3]) == "do";
  auto edges = uniform_edges(scale, 16, 27491095);
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  pvector<NodeID> parent(g.num_nodes());
  double seconds = 0;
  bool ok = true;
  for (int t = 0; t < trials; t++) {
    NodeID source = (NodeID)((t * 2654435761u) % g.num_nodes());
    while (g.out_degree(source) == 0)
      source = (source + 1) % g.num_nodes();
    seconds += DOBFS(g, source, parent, bottom_up);
    ok = ok && BFSVerifier(g, source, parent);
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %d trials\n", scale, (long long)g.num_edges(), trials);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
