// STL lookups and appends in a marked loop, each beside the same loop left
// serial, in one process (issue 17, items 10 and 11): std::map::find,
// std::unordered_map::find, and an append of the hits into a reserved
// std::vector. Each variant's answer is checked against the serial loop's.
// Thread CPU time per key, best of the trials.
//
//   build/bin/memcoro-c++ -O2 -DPAR=32 bench/stl/lookup.cpp -o lookup
//   ./lookup [entries = 4M] [keys = 300K] [trials = 7]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <unordered_map>
#include <vector>
#ifndef PAR
#define PAR 32
#endif

using Hash = std::unordered_map<uint64_t, int64_t>;
using Tree = std::map<uint64_t, int64_t>;

static uint64_t state = 88172645463325252ull;
static uint64_t rnd() {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
static double cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

template <class Map> __attribute__((noinline)) int64_t find_serial(const Map &m, const std::vector<uint64_t> &keys) {
  int64_t sum = 0;
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      sum += it->second;
  return sum;
}
template <class Map> __attribute__((noinline)) int64_t find_memcoro(const Map &m, const std::vector<uint64_t> &keys) {
  int64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      sum += it->second;
  return sum;
}
__attribute__((noinline)) void append_serial(const Hash &m, const std::vector<uint64_t> &keys, std::vector<int64_t> &out) {
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      out.push_back(it->second);
}
__attribute__((noinline)) void append_memcoro(const Hash &m, const std::vector<uint64_t> &keys, std::vector<int64_t> &out) {
#pragma memcoro parallel(PAR)
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      out.push_back(it->second);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? atol(argv[1]) : (4u << 20);
  size_t q = argc > 2 ? atol(argv[2]) : 300000;
  int trials = argc > 3 ? atoi(argv[3]) : 7;
  std::vector<uint64_t> all(n);
  for (auto &x : all) x = rnd();
  Hash hash;
  hash.reserve(n);
  Tree tree;
  for (size_t i = 0; i < n; ++i) {
    hash[all[i]] = (int64_t)i;
    tree[all[i]] = (int64_t)i;
  }
  std::vector<uint64_t> keys(q);
  for (auto &k : keys) k = (rnd() & 1) ? all[rnd() % n] : rnd();
  const char *names[3] = {"unordered_map::find", "map::find", "find + vector::push_back"};
  double best[3][2];
  for (auto &b : best) b[0] = b[1] = 1e30;
  bool ok = true;
  std::vector<int64_t> out_s, out_m;
  out_s.reserve(q);
  out_m.reserve(q);
  for (int t = 0; t < trials; ++t) {
    for (int v = 0; v < 3; ++v) {
      int64_t r[2];
      for (int memcoro = 0; memcoro < 2; ++memcoro) {
        double a = cpu();
        if (v == 0)
          r[memcoro] = memcoro ? find_memcoro(hash, keys) : find_serial(hash, keys);
        else if (v == 1)
          r[memcoro] = memcoro ? find_memcoro(tree, keys) : find_serial(tree, keys);
        else {
          auto &out = memcoro ? out_m : out_s;
          out.clear();
          memcoro ? append_memcoro(hash, keys, out) : append_serial(hash, keys, out);
          r[memcoro] = (int64_t)out.size();
        }
        double s = cpu() - a;
        best[v][memcoro] = s < best[v][memcoro] ? s : best[v][memcoro];
      }
      ok &= r[0] == r[1] && (v != 2 || out_s == out_m);
    }
  }
  printf("%zu entries, %zu keys, parallel(%d), best of %d, thread CPU ns per key\n", n, q, PAR, trials);
  for (int v = 0; v < 3; ++v)
    printf("%-26s serial %7.1f  memcoro %7.1f  %.2fx\n", names[v], best[v][0] * 1e9 / q, best[v][1] * 1e9 / q,
           best[v][0] / best[v][1]);
  printf("verified: %s\n", ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
