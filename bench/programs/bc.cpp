// bc: GAP-style betweenness centrality (Brandes' algorithm), written the way
// GAP's bc.cc writes it: from each source a level-synchronous BFS counts
// shortest paths (a compare-and-swap claims a vertex's depth, an atomic add
// sums the path counts, a bitmap over the edges records which neighbours are
// successors), then the dependencies are accumulated backwards depth by depth,
// each depth's vertices walked with an iterator between two positions of the
// BFS queue. Verified as GAP's BCVerifier does: a serial Brandes from the
// same sources, the normalised scores equal to within a float's epsilon.
// One pragma line marks each of the two hot loops; nothing else is edited.
#include "graph.h"
#include <cmath>
#include <limits>

typedef float ScoreT;
typedef double CountT;

template <typename T> static bool compare_and_swap(T &x, const T &old_val, const T &new_val) {
  return __sync_bool_compare_and_swap(&x, old_val, new_val);
}

// GAP's SourcePicker: reproducible sources with at least one neighbour.
class SourcePicker {
public:
  explicit SourcePicker(const CSRGraph &g) : g_(g), s_(2654435761u) {}
  NodeID PickNext() {
    NodeID source;
    do {
      s_ ^= s_ << 13;
      s_ ^= s_ >> 7;
      s_ ^= s_ << 17;
      source = s_ % g_.num_nodes();
    } while (g_.out_degree(source) == 0);
    return source;
  }

private:
  const CSRGraph &g_;
  uint64_t s_;
};

static void PBFS(const CSRGraph &g, NodeID source, pvector<CountT> &path_counts, Bitmap &succ,
                 std::vector<SlidingQueue<NodeID>::iterator> &depth_index, SlidingQueue<NodeID> &queue) {
  pvector<NodeID> depths(g.num_nodes(), -1);
  depths[source] = 0;
  path_counts[source] = 1;
  queue.push_back(source);
  depth_index.push_back(queue.begin());
  queue.slide_window();
  const NodeID *g_out_start = g.out_neigh(0).begin();
#pragma omp parallel
  {
    NodeID depth = 0;
    QueueBuffer<NodeID> lqueue(queue);
    while (!queue.empty()) {
      depth++;
#pragma omp for schedule(dynamic, 64) nowait
#pragma memcoro
      for (auto q_iter = queue.begin(); q_iter < queue.end(); q_iter++) {
        NodeID u = *q_iter;
        for (NodeID &v : g.out_neigh(u)) {
          if ((depths[v] == -1) && (compare_and_swap(depths[v], static_cast<NodeID>(-1), depth))) {
            lqueue.push_back(v);
          }
          if (depths[v] == depth) {
            succ.set_bit_atomic(&v - g_out_start);
#pragma omp atomic
            path_counts[v] += path_counts[u];
          }
        }
      }
      lqueue.flush();
#pragma omp barrier
#pragma omp single
      {
        depth_index.push_back(queue.begin());
        queue.slide_window();
      }
    }
  }
  depth_index.push_back(queue.begin());
}

static pvector<ScoreT> Brandes(const CSRGraph &g, SourcePicker &sp, NodeID num_iters, double &seconds) {
  pvector<ScoreT> scores(g.num_nodes(), 0);
  pvector<CountT> path_counts(g.num_nodes());
  Bitmap succ(g.num_edges());
  std::vector<SlidingQueue<NodeID>::iterator> depth_index;
  SlidingQueue<NodeID> queue(g.num_nodes());
  const NodeID *g_out_start = g.out_neigh(0).begin();
  seconds = 0;
  for (NodeID iter = 0; iter < num_iters; iter++) {
    NodeID source = sp.PickNext();
    auto t0 = std::chrono::steady_clock::now();
    path_counts.fill(0);
    depth_index.resize(0);
    queue.reset();
    succ.reset();
    PBFS(g, source, path_counts, succ, depth_index, queue);
    pvector<ScoreT> deltas(g.num_nodes(), 0);
    for (int d = depth_index.size() - 2; d >= 0; d--) {
#pragma omp parallel for schedule(dynamic, 64)
#pragma memcoro
      for (auto it = depth_index[d]; it < depth_index[d + 1]; it++) {
        NodeID u = *it;
        ScoreT delta_u = 0;
        for (NodeID &v : g.out_neigh(u)) {
          if (succ.get_bit(&v - g_out_start)) {
            delta_u += (path_counts[u] / path_counts[v]) * (1 + deltas[v]);
          }
        }
        deltas[u] = delta_u;
        scores[u] += delta_u;
      }
    }
    seconds += seconds_since(t0);
  }
  // Normalise the scores.
  ScoreT biggest_score = 0;
#pragma omp parallel for reduction(max : biggest_score)
  for (NodeID n = 0; n < g.num_nodes(); n++)
    biggest_score = std::max(biggest_score, scores[n]);
#pragma omp parallel for
  for (NodeID n = 0; n < g.num_nodes(); n++)
    scores[n] = scores[n] / biggest_score;
  return scores;
}

// GAP's BCVerifier: a serial Brandes, depths and path counts by a plain BFS,
// dependencies accumulated from the farthest depth back.
static bool BCVerifier(const CSRGraph &g, SourcePicker &sp, NodeID num_iters,
                       const pvector<ScoreT> &scores_to_test) {
  pvector<ScoreT> scores(g.num_nodes(), 0);
  for (int iter = 0; iter < num_iters; iter++) {
    NodeID source = sp.PickNext();
    pvector<int> depths(g.num_nodes(), -1);
    depths[source] = 0;
    std::vector<CountT> path_counts(g.num_nodes(), 0);
    path_counts[source] = 1;
    std::vector<NodeID> to_visit;
    to_visit.reserve(g.num_nodes());
    to_visit.push_back(source);
    for (size_t i = 0; i < to_visit.size(); i++) {
      NodeID u = to_visit[i];
      for (NodeID v : g.out_neigh(u)) {
        if (depths[v] == -1) {
          depths[v] = depths[u] + 1;
          to_visit.push_back(v);
        }
        if (depths[v] == depths[u] + 1)
          path_counts[v] += path_counts[u];
      }
    }
    std::vector<std::vector<NodeID>> verts_at_depth;
    for (NodeID n = 0; n < g.num_nodes(); n++) {
      if (depths[n] != -1) {
        if (depths[n] >= static_cast<int>(verts_at_depth.size()))
          verts_at_depth.resize(depths[n] + 1);
        verts_at_depth[depths[n]].push_back(n);
      }
    }
    pvector<ScoreT> deltas(g.num_nodes(), 0);
    for (int depth = verts_at_depth.size() - 1; depth >= 0; depth--) {
      for (NodeID u : verts_at_depth[depth]) {
        for (NodeID v : g.out_neigh(u)) {
          if (depths[v] == depths[u] + 1)
            deltas[u] += (path_counts[u] / path_counts[v]) * (1 + deltas[v]);
        }
        scores[u] += deltas[u];
      }
    }
  }
  ScoreT biggest_score = *std::max_element(scores.begin(), scores.end());
  for (NodeID n = 0; n < g.num_nodes(); n++)
    scores[n] = scores[n] / biggest_score;
  bool all_ok = true;
  for (NodeID n = 0; n < g.num_nodes(); n++) {
    ScoreT delta = std::fabs(scores_to_test[n] - scores[n]);
    if (delta > std::numeric_limits<ScoreT>::epsilon()) {
      if (all_ok)
        printf("%d: %f != %f\n", n, scores_to_test[n], scores[n]);
      all_ok = false;
    }
  }
  return all_ok;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 20;
  int num_iters = argc > 2 ? atoi(argv[2]) : 4;
  auto edges = uniform_edges(scale, 8, 27491095);
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  SourcePicker sp(g), vsp(g);
  double seconds = 0;
  pvector<ScoreT> scores = Brandes(g, sp, num_iters, seconds);
  bool ok = BCVerifier(g, vsp, num_iters, scores);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %d sources\n", scale, (long long)g.num_edges(), num_iters);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
