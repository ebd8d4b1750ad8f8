// counter_members: statistics counters as classes keep them, `if (hit) { hits++; } else misses++;` on members in an out-of-line member function, and `g_probes++` on a global, each starting from a value an earlier call left. GVN carries each counter in a register from a read before the loop and stores it where it counts; they are reductions whose place is stored once after the loop (before, "a value is carried" kept the loop serial). The counters, and what the loop returns, equal the serial loop's.
#include <cstddef>
#include <cstdint>
#include <vector>
#include "common.h"

long g_probes;

struct Index {
  std::vector<uint64_t> slots;
  std::vector<uint32_t> next;
  long hits = 0, misses = 0;
  long probe(size_t n, const uint64_t *queries);
};

__attribute__((noinline)) long Index::probe(size_t n, const uint64_t *queries) {
  long found = 0;
  const size_t mask = slots.size() - 1;
  const uint64_t *s = slots.data();
  const uint32_t *nx = next.data();
#pragma memcoro parallel(N)
  for (size_t i = 0; i < n; i++) {
    uint64_t q = queries[i];
    if (s[nx[q & mask] & mask] == q) {
      hits++;
      found += (long)(q & 7);
    } else {
      misses++;
    }
  }
  return found;
}

__attribute__((noinline)) long count_probes(size_t n, const uint64_t *queries, const uint32_t *nx, size_t mask) {
#pragma memcoro parallel(N)
  for (size_t i = 0; i < n; i++)
    if (nx[queries[i] & mask] & 1)
      g_probes++;
  return g_probes;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  Index index;
  const size_t size = 1024;
  index.slots.resize(size);
  index.next.resize(size);
  for (size_t k = 0; k < size; k++) {
    index.slots[k] = diff_rand();
    index.next[k] = (uint32_t)diff_rand();
  }
  std::vector<uint64_t> queries(n + 1);
  for (int i = 0; i < n; i++)
    queries[i] = diff_rand() % 3 == 0 ? index.slots[index.next[i % size] & (size - 1)] : diff_rand();
  index.hits = 5;
  index.misses = 7;
  g_probes = 11;
  long found = index.probe((size_t)n, queries.data());
  long again = index.probe((size_t)n / 2, queries.data());
  long probes = count_probes((size_t)n, queries.data(), index.next.data(), size - 1);
  printf("%ld %ld %ld %ld %ld %ld\n", found, again, index.hits, index.misses, probes, g_probes);
  return 0;
}
