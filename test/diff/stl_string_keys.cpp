// stl_string_keys: string-keyed lookups as database and text code writes them: std::unordered_map<std::string, T>::find and count, std::map<std::string, T>::find, and a hand-written open-addressing table of strings, the first under an OpenMP reduction (also built with -fopenmp); strings compared by content, keys inside the string object and on the heap (issue 17, items 7 and 10).
#include "common.h"
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

// Open addressing as absl-style tables are written by hand: a power-of-two
// array of slots with the key's hash beside it, linear probing, an empty
// slot ends the probe.
struct Slot {
  uint64_t hash;
  std::string key;
  uint32_t value;
};
struct OpenTable {
  std::vector<Slot> slots;
  uint64_t mask;
  explicit OpenTable(size_t n) : slots(n), mask(n - 1) {}
  static uint64_t hash_of(const std::string &s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h | 1;
  }
  void insert(const std::string &k, uint32_t v) {
    uint64_t h = hash_of(k);
    uint64_t i = h & mask;
    while (slots[i].hash) i = (i + 1) & mask;
    slots[i] = {h, k, v};
  }
  const uint32_t *find(const std::string &k) const {
    uint64_t h = hash_of(k);
    for (uint64_t i = h & mask; slots[i].hash; i = (i + 1) & mask)
      if (slots[i].hash == h && slots[i].key == k)
        return &slots[i].value;
    return nullptr;
  }
};

// Keys of 3 to 40 characters (short ones inside the string object, long
// ones on the heap); some share a long prefix so that the comparison reads
// past the first bytes.
static std::string make_key(uint64_t r) {
  static const char *const prefixes[] = {"", "customer#", "lineitem.l_shipinstruct.", "w"};
  std::string s = prefixes[r % 4];
  size_t len = 3 + (r >> 8) % 16;
  for (size_t j = 0; j < len; j++) s += (char)('a' + (r >> (12 + j)) % 26);
  return s;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<std::string> present(1 << 12);
  std::unordered_map<std::string, uint32_t> hashed;
  std::map<std::string, int64_t> ordered;
  OpenTable open(1 << 14);
  for (auto &k : present) {
    k = make_key(diff_rand());
    uint32_t v = (uint32_t)(diff_rand() % 1000);
    if (hashed.emplace(k, v).second) {
      ordered[k] = (int64_t)v - 500;
      open.insert(k, v + 1);
    }
  }
  std::vector<std::string> keys(n);
  for (auto &k : keys) k = diff_rand() % 2 ? present[diff_rand() % present.size()] : make_key(diff_rand());

  uint64_t hits = 0, codes = 0, counted = 0, open_sum = 0;
  int64_t in_map = 0;
#pragma omp parallel for reduction(+ : hits, codes) num_threads(2)
#pragma memcoro parallel(N)
  for (size_t i = 0; i < keys.size(); i++) {
    auto it = hashed.find(keys[i]);
    if (it != hashed.end()) {
      hits++;
      codes += it->second;
    }
  }
#pragma memcoro parallel(N)
  for (const std::string &k : keys)
    counted += hashed.count(k);
#pragma memcoro parallel(N)
  for (const auto &k : keys)
    if (auto it = ordered.find(k); it != ordered.end())
      in_map += it->second;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < keys.size(); i++)
    if (const uint32_t *v = open.find(keys[i]))
      open_sum += *v;
  printf("%llu %llu %llu %lld %llu\n", (unsigned long long)hits, (unsigned long long)codes,
         (unsigned long long)counted, (long long)in_map, (unsigned long long)open_sum);
  return 0;
}
