// String-keyed lookups in a marked loop, each beside the same loop left
// serial, in one process (issue 17, items 7 and 10):
// std::unordered_map<std::string, uint32_t>::find, std::map<std::string,
// uint32_t>::find, and a hand-written open-addressing table of strings
// (hash beside each slot, linear probing). Keys are 8 to 32 characters,
// about half the probes missing. Each variant's answer is checked against
// the serial loop's. Thread CPU time per key, best of the trials.
//
//   build/bin/memcoro-c++ -O2 -DPAR=32 bench/stl/string_lookup.cpp -o string_lookup
//   ./string_lookup [entries = 2M] [keys = 300K] [trials = 5]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
#include "../splitmix64.h"
#ifndef PAR
#define PAR 32
#endif

static std::string key_of(uint64_t i) {
  uint64_t h = mix64(i);
  std::string s(8 + h % 25, 'a');
  for (size_t j = 0; j + 6 < s.size(); j++) s[j] = (char)('a' + (h >> (8 + 2 * (j % 24))) % 26);
  for (size_t j = s.size() - 6; j < s.size(); j++, i /= 26) s[j] = (char)('a' + i % 26);
  return s;
}
static double cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

struct Open {
  struct Slot {
    uint64_t hash = 0;
    std::string key;
    uint32_t value = 0;
  };
  std::vector<Slot> slots;
  uint64_t mask;
  explicit Open(size_t n) : slots(n), mask(n - 1) {}
  static uint64_t hash_of(const std::string &s) { return std::hash<std::string>{}(s) | 1; }
  void insert(const std::string &k, uint32_t v) {
    uint64_t h = hash_of(k), i = h & mask;
    while (slots[i].hash) i = (i + 1) & mask;
    slots[i].hash = h;
    slots[i].key = k;
    slots[i].value = v;
  }
  const uint32_t *find(const std::string &k) const {
    uint64_t h = hash_of(k);
    for (uint64_t i = h & mask; slots[i].hash; i = (i + 1) & mask)
      if (slots[i].hash == h && slots[i].key == k)
        return &slots[i].value;
    return nullptr;
  }
};

template <class Map> __attribute__((noinline)) uint64_t find_serial(const Map &m, const std::vector<std::string> &keys) {
  uint64_t sum = 0;
  for (size_t i = 0; i < keys.size(); i++)
    if (auto it = m.find(keys[i]); it != m.end())
      sum += it->second;
  return sum;
}
template <class Map> __attribute__((noinline)) uint64_t find_memcoro(const Map &m, const std::vector<std::string> &keys) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (size_t i = 0; i < keys.size(); i++)
    if (auto it = m.find(keys[i]); it != m.end())
      sum += it->second;
  return sum;
}
__attribute__((noinline)) uint64_t open_serial(const Open &t, const std::vector<std::string> &keys) {
  uint64_t sum = 0;
  for (const std::string &k : keys)
    if (const uint32_t *v = t.find(k))
      sum += *v;
  return sum;
}
__attribute__((noinline)) uint64_t open_memcoro(const Open &t, const std::vector<std::string> &keys) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (const std::string &k : keys)
    if (const uint32_t *v = t.find(k))
      sum += *v;
  return sum;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? atol(argv[1]) : (2u << 20);
  size_t q = argc > 2 ? atol(argv[2]) : 300000;
  int trials = argc > 3 ? atoi(argv[3]) : 5;
  std::unordered_map<std::string, uint32_t> hash;
  hash.reserve(n);
  std::map<std::string, uint32_t> tree;
  size_t slots = 1;
  while (slots < 2 * n) slots *= 2;
  Open open(slots);
  for (size_t i = 0; i < n; ++i) {
    std::string k = key_of(i);
    hash.emplace(k, (uint32_t)i);
    tree.emplace(k, (uint32_t)i);
    open.insert(k, (uint32_t)i);
  }
  std::vector<std::string> keys(q);
  for (size_t j = 0; j < q; j++) keys[j] = key_of(mix64(j + 7) % (2 * n));
  const char *names[3] = {"unordered_map<string>::find", "map<string>::find", "open addressing, strings"};
  double best[3][2];
  for (auto &b : best) b[0] = b[1] = 1e30;
  bool ok = true;
  for (int t = 0; t < trials; ++t)
    for (int v = 0; v < 3; ++v) {
      uint64_t r[2];
      for (int memcoro = 0; memcoro < 2; ++memcoro) {
        double a = cpu();
        if (v == 0)
          r[memcoro] = memcoro ? find_memcoro(hash, keys) : find_serial(hash, keys);
        else if (v == 1)
          r[memcoro] = memcoro ? find_memcoro(tree, keys) : find_serial(tree, keys);
        else
          r[memcoro] = memcoro ? open_memcoro(open, keys) : open_serial(open, keys);
        double s = cpu() - a;
        best[v][memcoro] = s < best[v][memcoro] ? s : best[v][memcoro];
      }
      ok &= r[0] == r[1];
    }
  printf("%zu entries, %zu keys, parallel(%d), best of %d, thread CPU ns per key\n", n, q, PAR, trials);
  for (int v = 0; v < 3; ++v)
    printf("%-28s serial %7.1f  memcoro %7.1f  %.2fx\n", names[v], best[v][0] * 1e9 / q, best[v][1] * 1e9 / q,
           best[v][0] / best[v][1]);
  printf("verified: %s\n", ok ? "yes" : "NO");
  return ok ? 0 : 1;
}
