// Appends into a std::vector local to the marked loop's function (issue 17,
// item 11), each beside the same loop left serial, in one process: a hash
// join's probe collecting (probe row, build row) pairs into a vector without
// reserve(), a filter `if (pred(a[ix[i]])) out.push_back(i)` with reserve(),
// and a BFS step's next frontier (first writer wins on parent). The vectors
// are returned by value, as such code returns them; each memcoro vector is
// compared with the serial one, element by element. Thread CPU time per
// iteration, best of the trials.
//
//   build/bin/memcoro-c++ -O2 -DPAR=32 bench/stl/local_vector.cpp -o local_vector
//   ./local_vector [table entries = 16M] [iterations = 1M] [trials = 5]
#include "../standalone.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>
#ifndef PAR
#define PAR 32
#endif

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

// The build side: slot h of `slot` names the build row whose key hashed to h.
#define JOIN_BODY                                                                                                    \
  for (size_t i = 0; i < probe.size(); ++i) {                                                                        \
    uint32_t b = slot[(probe[i] * 2654435761u) & mask];                                                              \
    if (bkey[b] == probe[i])                                                                                         \
      out.push_back({(uint32_t)i, b});                                                                               \
  }
__attribute__((noinline)) Pairs join_serial(const std::vector<uint32_t> &probe, const std::vector<uint32_t> &slot,
                                            const std::vector<uint32_t> &bkey) {
  Pairs out;
  size_t mask = slot.size() - 1;
  JOIN_BODY
  return out;
}
__attribute__((noinline)) Pairs join_memcoro(const std::vector<uint32_t> &probe, const std::vector<uint32_t> &slot,
                                             const std::vector<uint32_t> &bkey) {
  Pairs out;
  size_t mask = slot.size() - 1;
#pragma memcoro parallel(PAR)
  JOIN_BODY
  return out;
}

#define FILTER_BODY                                                                                                  \
  for (size_t i = 0; i < ix.size(); ++i)                                                                             \
    if (a[ix[i]] % 3 == 0)                                                                                           \
      out.push_back(i);
__attribute__((noinline)) std::vector<size_t> filter_serial(const std::vector<int64_t> &a,
                                                            const std::vector<uint32_t> &ix) {
  std::vector<size_t> out;
  out.reserve(ix.size() / 4);
  FILTER_BODY
  return out;
}
__attribute__((noinline)) std::vector<size_t> filter_memcoro(const std::vector<int64_t> &a,
                                                             const std::vector<uint32_t> &ix) {
  std::vector<size_t> out;
  out.reserve(ix.size() / 4);
#pragma memcoro parallel(PAR)
  FILTER_BODY
  return out;
}

#define STEP_BODY                                                                                                    \
  for (size_t i = 0; i < frontier.size(); ++i) {                                                                     \
    uint32_t u = frontier[i];                                                                                        \
    uint32_t v = adj[u];                                                                                             \
    if (parent[v] < 0) {                                                                                             \
      parent[v] = (int32_t)u;                                                                                        \
      next.push_back(v);                                                                                             \
    }                                                                                                                \
  }
__attribute__((noinline)) std::vector<uint32_t> step_serial(const std::vector<uint32_t> &frontier,
                                                            const std::vector<uint32_t> &adj,
                                                            std::vector<int32_t> &parent) {
  std::vector<uint32_t> next;
  STEP_BODY
  return next;
}
__attribute__((noinline)) std::vector<uint32_t> step_memcoro(const std::vector<uint32_t> &frontier,
                                                             const std::vector<uint32_t> &adj,
                                                             std::vector<int32_t> &parent) {
  std::vector<uint32_t> next;
#pragma memcoro parallel(PAR) remote(parent)
  STEP_BODY
  return next;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? atol(argv[1]) : (16u << 20);
  size_t q = argc > 2 ? atol(argv[2]) : (1u << 20);
  int trials = argc > 3 ? atoi(argv[3]) : 5;
  size_t pow2 = 1;
  while (pow2 < n)
    pow2 <<= 1;
  std::vector<uint32_t> slot(pow2), bkey(pow2), probe(q), ix(q), frontier(q), adj(n);
  std::vector<int64_t> a(n);
  // Probe keys anywhere; a quarter of them find their key in the build row
  // their slot names.
  for (auto &s : slot) s = (uint32_t)(rnd() % pow2);
  for (auto &k : bkey) k = (uint32_t)rnd();
  for (auto &p : probe) {
    p = (uint32_t)rnd();
    if (rnd() % 4 == 0)
      bkey[slot[(p * 2654435761u) & (pow2 - 1)]] = p;
  }
  for (auto &x : a) x = (int64_t)(rnd() % 1000000);
  for (auto &i : ix) i = (uint32_t)(rnd() % n);
  for (auto &f : frontier) f = (uint32_t)(rnd() % n);
  for (auto &e : adj) e = (uint32_t)(rnd() % n);
  const char *names[3] = {"hash join probe -> pairs", "filter a[ix[i]] -> i", "BFS step -> next frontier"};
  double best[3][2];
  for (auto &b : best) b[0] = b[1] = 1e30;
  bool ok = true;
  size_t sizes[3] = {0, 0, 0};
  for (int t = 0; t < trials; ++t) {
    for (int v = 0; v < 3; ++v) {
      double s[2];
      // Runs the serial and the memcoro copy, timed, and compares their
      // vectors (and what else they wrote, through \p same).
      auto both = [&](auto serial, auto memcoro, auto same) {
        double c = cpu();
        auto x = serial();
        s[0] = cpu() - c;
        c = cpu();
        auto y = memcoro();
        s[1] = cpu() - c;
        ok &= x == y && same();
        sizes[v] = x.size();
      };
      std::vector<int32_t> ps(v == 2 ? n : 0, -1), pm(v == 2 ? n : 0, -1);
      auto always = [] { return true; };
      if (v == 0)
        both([&] { return join_serial(probe, slot, bkey); }, [&] { return join_memcoro(probe, slot, bkey); }, always);
      else if (v == 1)
        both([&] { return filter_serial(a, ix); }, [&] { return filter_memcoro(a, ix); }, always);
      else
        both([&] { return step_serial(frontier, adj, ps); }, [&] { return step_memcoro(frontier, adj, pm); },
             [&] { return ps == pm; });
      for (int m = 0; m < 2; ++m)
        best[v][m] = s[m] < best[v][m] ? s[m] : best[v][m];
    }
  }
  printf("%zu entries, %zu iterations, parallel(%d), best of %d, thread CPU ns per iteration\n", n, q, PAR, trials);
  for (int v = 0; v < 3; ++v)
    printf("%-27s %8zu appended  serial %6.1f  memcoro %6.1f  %.2fx\n", names[v], sizes[v], best[v][0] * 1e9 / q,
           best[v][1] * 1e9 / q, best[v][0] / best[v][1]);
  printf("verified: %s\n", ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
