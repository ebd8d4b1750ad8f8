// member_counter_reset: a member counter reset before the loop (`hits = 0;`)
// and incremented on a hit. GVN forwards the 0 into the loop, and the
// increment's store stays on the hit path: the reduction entered as the
// value stored, not as a read of its place, and the loop stayed serial.
#include "common.h"
#include <vector>

struct Index {
  std::vector<uint64_t> table;
  std::vector<uint32_t> keys;
  uint64_t hits = 7;
  __attribute__((noinline)) uint64_t probe_all() {
    hits = 0;
    uint64_t s = 0;
#pragma memcoro parallel(N)
    for (size_t i = 0; i < keys.size(); ++i) {
      uint64_t v = table[keys[i]];
      v = table[v % table.size()];
      if (v & 1) {
        s += v >> 8;
        ++hits;
      }
    }
    return s;
  }
};

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  Index ix;
  ix.table.resize(4096);
  ix.keys.resize(n);
  for (auto &t : ix.table) t = diff_rand();
  for (auto &k : ix.keys) k = (uint32_t)(diff_rand() % ix.table.size());
  uint64_t s = ix.probe_all();
  printf("%llu %llu\n", (unsigned long long)s, (unsigned long long)ix.hits);
  return 0;
}
