// try_catch_locals: a typed try/catch in the body of a loop in a function
// that owns two vectors. What the catch does not handle would leave through
// the vectors' destructors to a resume other code shares; that path was not
// turned into std::terminate, and the loop, read as having an early exit that
// writes memory (__cxa_begin_catch), stayed serial.
#include "common.h"
#include <stdexcept>
#include <vector>

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<uint64_t> table(4096);
  std::vector<uint32_t> idx(n + 1);
  for (auto &t : table) t = diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = (uint32_t)(diff_rand() % table.size());
  uint64_t sum = 0, bad = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    try {
      uint64_t v = table.at(idx[i] + (i % 7 == 3 ? table.size() : 0));
      sum += table[v % table.size()];
    } catch (const std::out_of_range &) {
      ++bad;
    }
  }
  printf("%llu %llu\n", (unsigned long long)sum, (unsigned long long)bad);
  return 0;
}
