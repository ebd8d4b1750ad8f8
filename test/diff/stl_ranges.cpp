// flags: -O2 -std=c++20
// stl_ranges: C++ as users write it: range-for over std::array and std::span, an iterator loop, a lambda called in the body, remote() on a std::vector and on a member vector (issue 17, item 10).
#include "common.h"
#include <array>
#include <span>
#include <vector>
struct Graph {
  std::vector<int64_t> weight;
};
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<int64_t> table(1 << 15);
  for (auto &v : table) v = (int64_t)(diff_rand() % 1000000);
  Graph g{table};
  std::vector<uint32_t> idx(n);
  for (auto &i : idx) i = diff_rand() % (1 << 15);
  std::array<uint32_t, 600> fixed;
  for (auto &i : fixed) i = diff_rand() % (1 << 15);
  std::span<const uint32_t> view(idx);
  int64_t a = 0, s = 0, it_sum = 0, lam = 0, rv = 0, member = 0;
#pragma memcoro parallel(N)
  for (uint32_t i : fixed)
    a += table[i];
#pragma memcoro parallel(N)
  for (uint32_t i : view)
    s += table[i];
#pragma memcoro parallel(N)
  for (auto it = idx.begin(); it != idx.end(); ++it)
    it_sum ^= table[*it] * 3;
  auto weigh = [&](uint32_t i) { return table[i] % 7 + table[(i * 5) % table.size()]; };
#pragma memcoro parallel(N)
  for (uint32_t i : idx)
    lam += weigh(i);
#pragma memcoro parallel(N) remote(table)
  for (size_t k = 0; k < idx.size(); ++k)
    rv += table[idx[k]];
#pragma memcoro parallel(N) remote(g.weight)
  for (uint32_t i : idx)
    member += g.weight[i] & 0xff;
  printf("%lld %lld %lld %lld %lld %lld\n", (long long)a, (long long)s, (long long)it_sum, (long long)lam,
         (long long)rv, (long long)member);
  return 0;
}
