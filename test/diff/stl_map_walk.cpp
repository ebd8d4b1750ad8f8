// stl_map_walk: range-for over a std::map and a std::set, the iterator's step (libstdc++'s out-of-line _Rb_tree_increment) run at launch in iteration order, the body's gathers interleaved (issue 17, items 9 and 10).
#include "common.h"
#include <map>
#include <set>
#include <vector>
enum { TABLE = 1 << 14 };
__attribute__((noinline)) static int64_t weigh(const std::map<uint64_t, uint32_t> &m, const int64_t *t,
                                               int64_t *heaviest) {
  int64_t total = 0, most = 0;
  // No store in the loop: the step's call reads the tree, which a store
  // alias analysis cannot tell apart would keep the loop serial.
#pragma memcoro parallel(N)
  for (const auto &kv : m) {
    int64_t w = t[kv.second] * (int64_t)(kv.first % 7);
    total += w;
    most = w > most ? w : most;
  }
  *heaviest = most;
  return total;
}
__attribute__((noinline)) static int64_t count_odd(const std::set<uint32_t> &s, const int64_t *t) {
  int64_t odd = 0;
#pragma memcoro parallel(N)
  for (uint32_t k : s)
    odd += t[k] & 1;
  return odd;
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<int64_t> t(TABLE);
  for (auto &v : t) v = (int64_t)(diff_rand() % 100003);
  std::map<uint64_t, uint32_t> m;
  std::set<uint32_t> s;
  for (int i = 0; i < n; i++) {
    m[diff_rand() % (1u << 30)] = (uint32_t)(((uint64_t)i * 2654435761u) % TABLE);
    s.insert((uint32_t)(diff_rand() % TABLE));
  }
  int64_t heaviest = 0;
  int64_t total = weigh(m, t.data(), &heaviest);
  printf("map %zu total %lld heaviest %lld\nset %zu odd %lld\n", m.size(), (long long)total, (long long)heaviest,
         s.size(), (long long)count_odd(s, t.data()));
  return 0;
}
