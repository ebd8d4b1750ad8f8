// range_for: a C++ range-for over a vector of indices.
#include "common.h"
#include <vector>
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<int64_t> table(1 << 15);
  for (auto &v : table) v = (int64_t)(diff_rand() % 1000000);
  std::vector<uint32_t> idx(n);
  for (auto &i : idx) i = diff_rand() % (1 << 15);
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (uint32_t i : idx)
    sum += table[i];
  printf("%lld\n", (long long)sum);
  return 0;
}
