// local_array_sort: a fixed-size array declared in the body, filled from
// gathers and sorted with std::sort (its insertion sort inlined, walking the
// array through phis of element addresses): the array is each iteration's
// own, but its accesses through the phis, and a cleanup of an inlined call
// no edge reaches any more, made it look shared ("writes one location in
// every iteration").
#include "common.h"
#include <algorithm>
#include <vector>

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<uint64_t> table(4096);
  std::vector<uint32_t> idx((size_t)n * 8 + 1);
  for (auto &t : table) t = diff_rand();
  for (auto &k : idx) k = (uint32_t)(diff_rand() % table.size());
  uint64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint64_t loc[8];
    for (int j = 0; j < 8; ++j) loc[j] = table[table[idx[i * 8 + j]] % table.size()];
    std::sort(loc, loc + 8);
    sum += loc[3] ^ loc[4];
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
