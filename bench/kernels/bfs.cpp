// SPDX-License-Identifier: Apache-2.0
// bfs: Graph500-style breadth-first search. A Kronecker graph (A, B, C = 0.57,
// 0.19, 0.19, edge factor 16, vertex labels permuted) in CSR form; top-down
// BFS with a frontier queue, from a different root in every run. The serial
// loop and memcoro must give exactly the serial parents (memcoro runs the
// test-and-set and the frontier append in iteration order); the hand-written
// baselines, which claim vertices in whatever order their coroutines run,
// are checked with the Graph500 validation rules. One op = one edge
// examined (an entry of the adjacency array).
#include "../harness.h"

namespace bfs {

struct Graph {
  const uint64_t *offsets; // adjacency of u: adj[offsets[u] .. offsets[u+1])
  const uint32_t *adj;
  size_t nvertices;
};

// A run searches from each of `nroots` roots; root r writes parents[r * nvertices ...].
using SerialFn = void (*)(Graph g, const uint32_t *roots, size_t nroots, int64_t *parents,
                          uint32_t *frontier, uint32_t *next);

} // namespace bfs
using namespace bfs;

namespace {

// The loop as a user writes it; the parent arrays must be all -1 on entry.
void bfs_serial(Graph g, const uint32_t *roots, size_t nroots, int64_t *parents,
                uint32_t *frontier, uint32_t *next) {
  const uint64_t *offsets = g.offsets;
  const uint32_t *adj = g.adj;
  for (size_t r = 0; r < nroots; ++r) {
    int64_t *parent = parents + r * g.nvertices;
    parent[roots[r]] = roots[r];
    frontier[0] = roots[r];
    size_t nfrontier = 1;
    while (nfrontier > 0) {
      size_t nnext = 0;
#pragma memcoro MEMCORO_PARALLEL remote(offsets, adj, parent)
      for (size_t i = 0; i < nfrontier; ++i) {
        const uint32_t u = frontier[i];
        for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
          const uint32_t v = adj[e];
          if (parent[v] < 0) {
            parent[v] = u;
            next[nnext++] = v;
          }
        }
      }
      std::swap(frontier, next);
      nfrontier = nnext;
    }
  }
}
BENCH_REGISTER_SERIAL(SerialFn, bfs_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// AMAC: a ring of n frontier vertices. A vertex goes through: its offsets
// (prefetched when it enters), its adjacency line, then chunks of up to
// kChunk neighbours whose parent entries are all prefetched together and
// checked on the next visit (several independent misses per switch).
size_t bfs_amac_level(Graph g, int64_t *parent, const uint32_t *frontier, size_t nfrontier,
                      uint32_t *next, int n) {
  constexpr uint64_t kChunk = 8;
  enum : uint8_t { kOffsets, kAdjacency, kParents };
  struct Slot {
    uint64_t e, end;
    uint32_t u;
    uint8_t state;
  } slot[64];
  size_t nnext = 0, claimed = 0;
  int live = 0;
  auto start = [&](Slot &sl) {
    sl.u = frontier[claimed++];
    sl.state = kOffsets;
    __builtin_prefetch(&g.offsets[sl.u]);
  };
  for (; live < n && claimed < nfrontier; ++live)
    start(slot[live]);
  while (live > 0) {
    for (int s = 0; s < live;) {
      Slot &sl = slot[s];
      if (sl.state == kOffsets) {
        sl.e = g.offsets[sl.u];
        sl.end = g.offsets[sl.u + 1];
        sl.state = kAdjacency;
        __builtin_prefetch(&g.adj[sl.e]);
        ++s;
        continue;
      }
      if (sl.state == kParents) {
        const uint64_t stop = std::min(sl.e + kChunk, sl.end);
        for (; sl.e < stop; ++sl.e) {
          const uint32_t v = g.adj[sl.e];
          if (parent[v] < 0) {
            parent[v] = sl.u;
            next[nnext++] = v;
          }
        }
      }
      if (sl.e < sl.end) {
        const uint64_t stop = std::min(sl.e + kChunk, sl.end);
        for (uint64_t e = sl.e; e < stop; ++e)
          __builtin_prefetch(&parent[g.adj[e]]);
        __builtin_prefetch(&g.adj[stop + 8]);
        sl.state = kParents;
        ++s;
      } else if (claimed < nfrontier) {
        start(sl);
        ++s;
      } else {
        sl = slot[--live];
      }
    }
  }
  return nnext;
}

// The user's loop with prefetches added, d ahead: the offsets of frontier
// vertex i + d, the adjacency start of vertex i + d/2 (its offsets came in
// d/2 vertices ago), and within a vertex the parent of neighbour e + d. The
// vertices are visited in the serial order, so the parents are the serial ones.
size_t bfs_pfd_level(Graph g, int64_t *parent, const uint32_t *frontier, size_t nfrontier,
                     uint32_t *next, int d) {
  size_t nnext = 0;
  for (size_t i = 0; i < nfrontier; ++i) {
    if (i + (size_t)d < nfrontier)
      __builtin_prefetch(&g.offsets[frontier[i + d]]);
    if (i + (size_t)d / 2 < nfrontier)
      __builtin_prefetch(&g.adj[g.offsets[frontier[i + d / 2]]]);
    const uint32_t u = frontier[i];
    const uint64_t end = g.offsets[u + 1];
    for (uint64_t e = g.offsets[u]; e < end; ++e) {
      if (e + (uint64_t)d < end)
        __builtin_prefetch(&parent[g.adj[e + d]]);
      const uint32_t v = g.adj[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
  return nnext;
}

// C++20 coroutines, one level at a time: n workers claim frontier vertices;
// prefetch + suspend before the offsets, the adjacency and every parent.
bench::Task bfs_worker(Graph g, int64_t *parent, const uint32_t *frontier, size_t nfrontier,
                       size_t &cursor, uint32_t *next, size_t &nnext) {
  for (size_t i; (i = cursor++) < nfrontier;) {
    const uint32_t u = frontier[i];
    co_await bench::prefetch{&g.offsets[u]};
    const uint64_t begin = g.offsets[u], end = g.offsets[u + 1];
    co_await bench::prefetch{&g.adj[begin]};
    for (uint64_t e = begin; e < end; ++e) {
      const uint32_t v = g.adj[e];
      co_await bench::prefetch{&parent[v]};
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
}

size_t bfs_coro_level(Graph g, int64_t *parent, const uint32_t *frontier, size_t nfrontier,
                      uint32_t *next, int n) {
  size_t nnext = 0, cursor = 0;
  bench::run_interleaved(
      n, [&](int) { return bfs_worker(g, parent, frontier, nfrontier, cursor, next, nnext); });
  return nnext;
}

// Top-down BFS from every root with `level`, one of the *_level functions
// above: it expands a frontier into `next` and returns the size of `next`.
using Level = size_t (*)(Graph g, int64_t *parent, const uint32_t *frontier, size_t nfrontier,
                         uint32_t *next, int width);
void bfs_hand(Level level, Graph g, const uint32_t *roots, size_t nroots, int64_t *parents,
              uint32_t *frontier, uint32_t *next, int width) {
  for (size_t r = 0; r < nroots; ++r) {
    int64_t *parent = parents + r * g.nvertices;
    parent[roots[r]] = roots[r];
    frontier[0] = roots[r];
    for (size_t nfrontier = 1; nfrontier > 0; std::swap(frontier, next))
      nfrontier = level(g, parent, frontier, nfrontier, next, width);
  }
}

struct Csr {
  bench::RemoteArray<uint64_t> offsets;
  bench::RemoteArray<uint32_t> adj;
};

// Graph500's Kronecker generator; 16 bits of randomness per level decision.
Csr kronecker(unsigned scale, unsigned edge_factor, uint64_t seed) {
  const size_t nv = 1ull << scale, ne = nv * edge_factor;
  bench::Rng rng(seed);
  std::vector<uint32_t> label(nv);
  for (size_t i = 0; i < nv; ++i)
    label[i] = (uint32_t)i;
  bench::shuffle(label.data(), nv, rng);
  constexpr uint32_t a = (uint32_t)(0.57 * 65536), ab = (uint32_t)(0.76 * 65536),
                     abc = (uint32_t)(0.95 * 65536);
  std::vector<uint32_t> src(ne), dst(ne);
  for (size_t k = 0; k < ne; ++k) {
    uint32_t u = 0, v = 0;
    uint64_t bits = rng.next();
    for (unsigned l = 0; l < scale; ++l) {
      if (l % 4 == 0 && l)
        bits = rng.next();
      const uint32_t r = (uint32_t)(bits >> (16 * (l % 4))) & 0xffff;
      u |= (uint32_t)(r >= ab) << l;
      v |= (uint32_t)((r >= a && r < ab) || r >= abc) << l;
    }
    src[k] = label[u];
    dst[k] = label[v];
  }
  Csr g{bench::RemoteArray<uint64_t>(nv + 1), bench::RemoteArray<uint32_t>(2 * ne)};
  std::vector<uint64_t> fill(nv + 1, 0);
  for (size_t k = 0; k < ne; ++k)
    if (src[k] != dst[k]) { // self loops carry no BFS information
      ++fill[src[k] + 1];
      ++fill[dst[k] + 1];
    }
  for (size_t i = 0; i < nv; ++i)
    fill[i + 1] += fill[i];
  std::copy(fill.begin(), fill.end(), g.offsets.data);
  for (size_t k = 0; k < ne; ++k)
    if (src[k] != dst[k]) {
      g.adj[fill[src[k]]++] = dst[k];
      g.adj[fill[dst[k]]++] = src[k];
    }
  return g;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  constexpr unsigned kEdgeFactor = 16;
  constexpr size_t kRoots = 2;
  // Bytes per vertex: 8 offsets + 2 * 16 * 4 adjacency + 8 parent per root.
  // The graph gets a quarter of --bytes (scale 20 at 1G: 128 MiB of
  // adjacency): a search examines every edge, 5-20 ns each when serial, and a
  // full run of the suite must stay under 20 minutes.
  const uint64_t per_vertex = 8 + 2 * kEdgeFactor * 4 + 8 * kRoots;
  unsigned scale = 6;
  while ((per_vertex << (scale + 1)) <= o.bytes / 4 && scale < 30)
    ++scale;
  std::printf("bfs: generating a scale-%u Kronecker graph\n", scale);
  std::fflush(stdout);
  Csr csr = kronecker(scale, kEdgeFactor, o.seed);
  const size_t nv = 1ull << scale;
  const Graph g{csr.offsets.data, csr.adj.data, nv};
  bench::RemoteArray<int64_t> parents(kRoots * nv);
  std::vector<uint32_t> queue_a(nv), queue_b(nv);

  // Roots: random vertices with at least one edge, as Graph500 picks them.
  bench::Rng rng(o.seed ^ 0x5eed);
  std::vector<uint32_t> roots;
  while (roots.size() < kRoots) {
    const uint32_t r = (uint32_t)rng.below(nv);
    if (g.offsets[r + 1] > g.offsets[r])
      roots.push_back(r);
  }
  // Reference levels for every root, from a plain queue BFS (not a variant).
  // A FIFO queue visits the vertices in the order of the level-by-level
  // frontiers, so its first discoverer of each vertex is the serial parent.
  std::vector<std::vector<int32_t>> levels(kRoots);
  std::vector<std::vector<int64_t>> serial_parents(kRoots);
  uint64_t edges_examined = 0;
  for (size_t r = 0; r < kRoots; ++r) {
    std::vector<int32_t> &level = levels[r];
    std::vector<int64_t> &sp = serial_parents[r];
    level.assign(nv, -1);
    sp.assign(nv, -1);
    std::vector<uint32_t> q{roots[r]};
    level[roots[r]] = 0;
    sp[roots[r]] = roots[r];
    for (size_t head = 0; head < q.size(); ++head) {
      const uint32_t u = q[head];
      edges_examined += g.offsets[u + 1] - g.offsets[u];
      for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
        if (level[g.adj[e]] < 0) {
          level[g.adj[e]] = level[u] + 1;
          sp[g.adj[e]] = u;
          q.push_back(g.adj[e]);
        }
    }
  }

  int64_t *p = parents.data;
  uint32_t *qa = queue_a.data(), *qb = queue_b.data();
  const uint32_t *rs = roots.data();
  // Whether the last run was the serial loop or memcoro's compilation of it.
  bool exact = true;
  bool *last_exact = &exact;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { *last_exact = true; fn(g, rs, kRoots, p, qa, qb); },
      [=](int n) { *last_exact = false; bfs_hand(bfs_coro_level, g, rs, kRoots, p, qa, qb, n); },
      [=](int n) { *last_exact = false; bfs_hand(bfs_amac_level, g, rs, kRoots, p, qa, qb, n); });
  bench::add_swept(variants, o, "pfd", o.ds, [=](int d) {
    *last_exact = true; // the serial order: exactly the serial parents
    bfs_hand(bfs_pfd_level, g, rs, kRoots, p, qa, qb, d);
  });

  bench::Kernel k;
  k.name = "bfs";
  k.ops = edges_examined;
  k.reset = [&] { std::fill(p, p + kRoots * nv, -1); };
  // Graph500 validation against the reference levels, for every root: the
  // root is its own parent; a vertex has a parent iff the reference reached
  // it; every tree edge exists in the graph and joins consecutive levels.
  k.verify = [&](std::string &why) {
    if (exact) {
      for (size_t r = 0; r < kRoots; ++r)
        for (size_t v = 0; v < nv; ++v)
          if (p[r * nv + v] != serial_parents[r][v]) {
            why = "root " + std::to_string(roots[r]) + ": vertex " + std::to_string(v) + " has parent " +
                  std::to_string(p[r * nv + v]) + ", the serial loop gives " +
                  std::to_string(serial_parents[r][v]);
            return false;
          }
      return true;
    }
    for (size_t r = 0; r < kRoots; ++r) {
      const int64_t *parent = p + r * nv;
      const std::vector<int32_t> &level = levels[r];
      const std::string tree = "root " + std::to_string(roots[r]) + ": ";
      if (parent[roots[r]] != roots[r]) {
        why = tree + "the root is not its own parent";
        return false;
      }
      for (size_t v = 0; v < nv; ++v) {
        if ((parent[v] >= 0) != (level[v] >= 0)) {
          why = tree + "vertex " + std::to_string(v) +
                (parent[v] >= 0 ? " has a parent but is unreachable" : " was not reached");
          return false;
        }
        if (parent[v] < 0 || v == roots[r])
          continue;
        const uint64_t u = (uint64_t)parent[v];
        if (u >= nv || level[u] != level[v] - 1) {
          why = tree + "tree edge " + std::to_string(u) + "->" + std::to_string(v) + " skips a level";
          return false;
        }
        bool found = false;
        for (uint64_t e = g.offsets[v]; e < g.offsets[v + 1] && !found; ++e)
          found = g.adj[e] == u;
        if (!found) {
          why = tree + "tree edge " + std::to_string(u) + "->" + std::to_string(v) +
                " is not in the graph";
          return false;
        }
      }
    }
    return true;
  };
  std::printf("bfs: %zu vertices, %llu adjacency entries, %zu roots, %llu edges examined per run\n",
              nv, (unsigned long long)g.offsets[nv], kRoots, (unsigned long long)edges_examined);
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
