// vector_bool_assign: each iteration assigns its own std::vector<bool>
// element a bit computed from a gather, through a permutation and in order;
// 64 elements share a word, read on each side of the bit's test and stored
// after it. A suspension before the store let other iterations set bits of
// the same word in between, and the store put their old values back.
#include "common.h"
#include <vector>

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<uint64_t> table(4096);
  std::vector<uint32_t> idx(n), perm(n);
  for (auto &t : table) t = diff_rand();
  for (int i = 0; i < n; ++i) {
    idx[i] = (uint32_t)(diff_rand() % table.size());
    perm[i] = (uint32_t)i;
  }
  for (int i = n - 1; i > 0; --i) std::swap(perm[i], perm[diff_rand() % (i + 1)]);
  std::vector<bool> shuffled(n), in_order(n);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    shuffled[perm[i]] = (table[idx[i]] & 3) == 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    in_order[i] = (table[idx[i]] & 5) == 1;
  uint64_t h = 0, ones = 0;
  for (int i = 0; i < n; ++i) {
    h = h * 3 + shuffled[i] * 2 + in_order[i];
    ones += shuffled[i] + in_order[i];
  }
  printf("%llx %llu\n", (unsigned long long)h, (unsigned long long)ones);
  return 0;
}
