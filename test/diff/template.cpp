// template: a C++ function template instantiated for two element types.
#include "common.h"
#include <vector>
template <typename T>
static T gather_sum(const std::vector<T> &table, const std::vector<uint32_t> &idx) {
  T sum = 0;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < idx.size(); ++i)
    sum += table[idx[i]];
  return sum;
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<uint64_t> wide(1 << 15);
  std::vector<int32_t> narrow(1 << 15);
  for (auto &v : wide) v = diff_rand();
  for (auto &v : narrow) v = (int32_t)(diff_rand() % 100000);
  std::vector<uint32_t> idx(n);
  for (auto &i : idx) i = diff_rand() % (1 << 15);
  printf("%llx %d\n", (unsigned long long)gather_sum(wide, idx), gather_sum(narrow, idx));
  return 0;
}
