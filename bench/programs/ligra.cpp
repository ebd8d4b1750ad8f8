// ligra: Ligra's BFS, written the way Ligra writes it: a graph of vertex
// structs (neighbour pointer and degree), a vertexSubset frontier, and
// edgeMap choosing between edgeMapSparse (push: each frontier vertex's
// out-edges written to its slice of an output array found by a prefix sum of
// degrees, a destination claimed with a compare-and-swap through the
// functor's updateAtomic, then the output filtered) and edgeMapDense (pull:
// every unvisited vertex scans its in-neighbours for one in the frontier and
// stops at the first, through the functor's non-atomic update); parallel_for
// is an OpenMP parallel for. Verified as Ligra's BFS is checked: every
// reached vertex's parent is a neighbour one level closer to the root, and
// exactly the root's component is reached. One pragma line marks each of
// edgeMap's two edge loops; nothing else is edited.
#include "graph.h"

#include <climits>
#include <cstring>

typedef uint32_t uintE;
typedef uint64_t uintT;
#define UINT_E_MAX UINT_MAX
#define newA(type, n) (type *)malloc(sizeof(type) * (n))
#define parallel_for _Pragma("omp parallel for") for

template <class ET> inline bool CAS(ET *ptr, ET oldv, ET newv) {
  return __sync_bool_compare_and_swap(ptr, oldv, newv);
}

struct symmetricVertex {
  uintE *neighbors;
  uintT degree;
  uintE getInNeighbor(uintT j) const { return neighbors[j]; }
  uintE getOutNeighbor(uintT j) const { return neighbors[j]; }
  uintT getInDegree() const { return degree; }
  uintT getOutDegree() const { return degree; }
};

struct graph {
  symmetricVertex *V;
  long n;
  uintT m;
  uintE *edges;
};

struct vertexSubset {
  long n, m;
  uintE *s;   // sparse: the vertices
  bool *d;    // dense: one flag per vertex
  bool isDense;
  vertexSubset(long n_, uintE v) : n(n_), m(1), s(newA(uintE, 1)), d(nullptr), isDense(false) { s[0] = v; }
  vertexSubset(long n_, long m_, uintE *s_) : n(n_), m(m_), s(s_), d(nullptr), isDense(false) {}
  vertexSubset(long n_, long m_, bool *d_) : n(n_), m(m_), s(nullptr), d(d_), isDense(true) {}
  uintE vtx(long i) const { return s[i]; }
  bool isIn(uintE v) const { return d[v]; }
  bool isEmpty() const { return m == 0; }
  void toDense() {
    if (isDense)
      return;
    d = newA(bool, n);
    memset(d, 0, n);
    for (long i = 0; i < m; i++)
      d[s[i]] = true;
    free(s);
    s = nullptr;
    isDense = true;
  }
  void toSparse() {
    if (!isDense)
      return;
    s = newA(uintE, m);
    long k = 0;
    for (long i = 0; i < n; i++)
      if (d[i])
        s[k++] = i;
    free(d);
    d = nullptr;
    isDense = false;
  }
  void del() {
    free(s);
    free(d);
    s = nullptr;
    d = nullptr;
  }
};

namespace sequence {
template <class T> T plusScan(T *out, const T *in, long n) {
  T acc = 0;
  for (long i = 0; i < n; i++) {
    T x = in[i];
    out[i] = acc;
    acc += x;
  }
  return acc;
}
template <class T, class P> long filter(const T *in, T *out, long n, P pred) {
  long k = 0;
  for (long i = 0; i < n; i++)
    if (pred(in[i]))
      out[k++] = in[i];
  return k;
}
} // namespace sequence

struct nonMaxF {
  bool operator()(uintE a) const { return a != UINT_E_MAX; }
};

template <class F> vertexSubset edgeMapSparse(graph &G, vertexSubset &indices, F &f) {
  long m = indices.m;
  uintT *offsets = newA(uintT, m);
  parallel_for(long i = 0; i < m; i++) offsets[i] = G.V[indices.vtx(i)].getOutDegree();
  uintT outEdgeCount = sequence::plusScan(offsets, offsets, m);
  uintE *outEdges = newA(uintE, outEdgeCount);
  symmetricVertex *V = G.V;
#pragma memcoro
  parallel_for(long i = 0; i < m; i++) {
    uintT v = indices.vtx(i), o = offsets[i];
    symmetricVertex vert = V[v];
    uintT d = vert.getOutDegree();
    for (uintT j = 0; j < d; j++) {
      uintE ngh = vert.getOutNeighbor(j);
      if (f.cond(ngh) && f.updateAtomic(v, ngh))
        outEdges[o + j] = ngh;
      else
        outEdges[o + j] = UINT_E_MAX;
    }
  }
  uintE *nextIndices = newA(uintE, outEdgeCount);
  long nextM = sequence::filter(outEdges, nextIndices, outEdgeCount, nonMaxF());
  free(outEdges);
  free(offsets);
  return vertexSubset(G.n, nextM, nextIndices);
}

template <class F> vertexSubset edgeMapDense(graph &G, vertexSubset &frontier, F &f) {
  long n = G.n;
  symmetricVertex *V = G.V;
  bool *next = newA(bool, n);
#pragma memcoro
  parallel_for(long v = 0; v < n; v++) {
    next[v] = 0;
    if (f.cond(v)) {
      symmetricVertex vert = V[v];
      uintT d = vert.getInDegree();
      for (uintT j = 0; j < d; j++) {
        uintE ngh = vert.getInNeighbor(j);
        if (frontier.isIn(ngh) && f.update(ngh, v))
          next[v] = 1;
        if (!f.cond(v))
          break;
      }
    }
  }
  long m = 0;
  for (long v = 0; v < n; v++)
    m += next[v];
  return vertexSubset(n, m, next);
}

// Ligra's direction choice: dense when the frontier's out-edges exceed a
// twentieth of the edges.
template <class F> vertexSubset edgeMap(graph &G, vertexSubset &vs, F f) {
  uintT outDegrees = 0;
  if (!vs.isDense)
    for (long i = 0; i < vs.m; i++)
      outDegrees += G.V[vs.vtx(i)].getOutDegree();
  else
    outDegrees = G.m;
  if (vs.m + outDegrees > G.m / 20) {
    vs.toDense();
    return edgeMapDense(G, vs, f);
  }
  vs.toSparse();
  return edgeMapSparse(G, vs, f);
}

struct BFS_F {
  uintE *Parents;
  BFS_F(uintE *_Parents) : Parents(_Parents) {}
  inline bool update(uintE s, uintE d) {
    if (Parents[d] == UINT_E_MAX) {
      Parents[d] = s;
      return 1;
    }
    return 0;
  }
  inline bool updateAtomic(uintE s, uintE d) { return CAS(&Parents[d], UINT_E_MAX, s); }
  inline bool cond(uintE d) { return Parents[d] == UINT_E_MAX; }
};

static void Compute(graph &GA, uintE start, uintE *Parents) {
  long n = GA.n;
  parallel_for(long i = 0; i < n; i++) Parents[i] = UINT_E_MAX;
  Parents[start] = start;
  vertexSubset Frontier(n, start);
  while (!Frontier.isEmpty()) {
    vertexSubset output = edgeMap(GA, Frontier, BFS_F(Parents));
    Frontier.del();
    Frontier = output;
  }
  Frontier.del();
}

static bool verify(graph &G, uintE root, const uintE *Parents) {
  std::vector<int64_t> depth(G.n, -1);
  depth[root] = 0;
  std::vector<uintE> q{root};
  for (size_t i = 0; i < q.size(); i++) {
    uintE u = q[i];
    for (uintT j = 0; j < G.V[u].degree; j++) {
      uintE w = G.V[u].neighbors[j];
      if (depth[w] < 0) {
        depth[w] = depth[u] + 1;
        q.push_back(w);
      }
    }
  }
  for (long v = 0; v < G.n; v++) {
    if ((depth[v] < 0) != (Parents[v] == UINT_E_MAX))
      return false;
    if (depth[v] <= 0)
      continue;
    bool found = false;
    for (uintT j = 0; j < G.V[v].degree && !found; j++)
      found = G.V[v].neighbors[j] == Parents[v] && depth[Parents[v]] == depth[v] - 1;
    if (!found)
      return false;
  }
  return Parents[root] == root;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int rounds = argc > 2 ? atoi(argv[2]) : 4;
  int degree = argc > 3 ? atoi(argv[3]) : 4;
  auto edges = uniform_edges(scale, degree, 1234567);
  graph G;
  G.n = int64_t(1) << scale;
  G.m = edges.size();
  std::sort(edges.begin(), edges.end());
  G.edges = newA(uintE, G.m);
  G.V = newA(symmetricVertex, G.n);
  for (long v = 0; v < G.n; v++)
    G.V[v].degree = 0;
  for (auto &e : edges) {
    G.edges[&e - &edges[0]] = e.second;
    G.V[e.first].degree++;
  }
  uintT o = 0;
  for (long v = 0; v < G.n; v++) {
    G.V[v].neighbors = G.edges + o;
    o += G.V[v].degree;
  }
  edges.clear();
  edges.shrink_to_fit();
  uintE *Parents = newA(uintE, G.n);
  double seconds = 0;
  bool ok = true;
  int64_t reached = 0;
  for (int r = 0; r < rounds; r++) {
    uintE root = (uintE)((r * 2654435761u) % G.n);
    while (G.V[root].degree == 0)
      root = (root + 1) % G.n;
    auto t0 = std::chrono::steady_clock::now();
    Compute(G, root, Parents);
    seconds += seconds_since(t0);
    ok = ok && verify(G, root, Parents);
    for (long v = 0; v < G.n; v++)
      reached += Parents[v] != UINT_E_MAX;
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %llu edges, %d roots, %lld vertices reached\n", scale, (unsigned long long)G.m, rounds,
         (long long)reached);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(Parents);
  free(G.V);
  free(G.edges);
  return ok ? 0 : 1;
}
