// pr: GAP-style PageRank, pull direction, written the way GAP's pr.cc writes
// it: each vertex sums the contributions of its in-neighbours (a range-for
// over its neighbourhood), the loop bound is the graph's num_nodes(), and the
// error is an OpenMP reduction over doubles. Verified as GAP verifies it:
// one more pull step from the final scores must change the total by less
// than the tolerance (the scores are a fixed point), and the scores sum to 1.
// One pragma line marks the pull loop; nothing else is edited.
#include "graph.h"
#include <cmath>

typedef float ScoreT;
static const float kDamp = 0.85f;

static pvector<ScoreT> PageRankPull(const CSRGraph &g, int max_iters, double epsilon, double &seconds) {
  const ScoreT init_score = 1.0f / g.num_nodes();
  const ScoreT base_score = (1.0f - kDamp) / g.num_nodes();
  pvector<ScoreT> scores(g.num_nodes(), init_score);
  pvector<ScoreT> outgoing_contrib(g.num_nodes());
  auto t0 = std::chrono::steady_clock::now();
  for (int iter = 0; iter < max_iters; iter++) {
    double error = 0;
#pragma omp parallel for
    for (NodeID n = 0; n < g.num_nodes(); n++)
      outgoing_contrib[n] = scores[n] / g.out_degree(n);
#pragma omp parallel for reduction(+ : error) schedule(dynamic, 16384)
#pragma memcoro
    for (NodeID u = 0; u < g.num_nodes(); u++) {
      ScoreT incoming_total = 0;
      for (NodeID v : g.in_neigh(u))
        incoming_total += outgoing_contrib[v];
      ScoreT old_score = scores[u];
      scores[u] = base_score + kDamp * incoming_total;
      error += fabs(scores[u] - old_score);
    }
    if (error < epsilon)
      break;
  }
  seconds = seconds_since(t0);
  return scores;
}

// GAP's PRVerifier: one more (serial) pull step must leave the scores within
// the tolerance.
static bool PRVerifier(const CSRGraph &g, const pvector<ScoreT> &scores, double target_error) {
  const ScoreT base_score = (1.0f - kDamp) / g.num_nodes();
  pvector<ScoreT> incoming_sums(g.num_nodes(), 0);
  double error = 0;
  for (NodeID u = 0; u < g.num_nodes(); u++) {
    ScoreT outgoing_contrib = scores[u] / g.out_degree(u);
    for (NodeID v : g.out_neigh(u))
      incoming_sums[v] += outgoing_contrib;
  }
  double total = 0;
  for (NodeID n = 0; n < g.num_nodes(); n++) {
    error += fabs(base_score + kDamp * incoming_sums[n] - scores[n]);
    total += scores[n];
  }
  return error < target_error && std::fabs(total - 1.0) < 1e-3;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  auto edges = uniform_edges(scale, 16, 27491095);
  CSRGraph g(int64_t(1) << scale, edges);
  edges.clear();
  edges.shrink_to_fit();
  double seconds = 0;
  pvector<ScoreT> scores = PageRankPull(g, 20, 1e-4, seconds);
  bool ok = PRVerifier(g, scores, 1e-4);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges\n", scale, (long long)g.num_edges());
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
