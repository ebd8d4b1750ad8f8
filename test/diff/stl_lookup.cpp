// stl_lookup: std::map::find and std::unordered_map::find in the body, keys in a vector, as users write a lookup loop: the walk yields once per node it fetches (issue 17, item 10).
#include "common.h"
#include <map>
#include <unordered_map>
#include <vector>
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<uint64_t> present(1 << 13);
  std::map<uint64_t, int64_t> ordered;
  std::unordered_map<uint64_t, int64_t> hashed;
  for (auto &k : present) {
    k = diff_rand() % (1u << 20);
    ordered[k] = (int64_t)(diff_rand() % 1000);
    hashed[k] = ordered[k] - 500;
  }
  std::vector<uint64_t> keys(n);
  for (auto &k : keys) k = diff_rand() % 2 ? present[diff_rand() % present.size()] : diff_rand() % (1u << 20);
  int64_t in_map = 0, in_hash = 0, misses = 0;
#pragma memcoro parallel(N)
  for (auto k : keys)
    if (auto it = ordered.find(k); it != ordered.end())
      in_map += it->second;
#pragma memcoro parallel(N)
  for (auto k : keys) {
    if (auto it = hashed.find(k); it != hashed.end())
      in_hash += it->second;
    else
      ++misses;
  }
  printf("%lld %lld %lld\n", (long long)in_map, (long long)in_hash, (long long)misses);
  return 0;
}
