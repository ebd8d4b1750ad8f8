// strdict: a batch of string lookups in a dictionary, written the way an
// analytics engine encodes a string column against its dictionary (or a
// text pipeline looks words up in a vocabulary): a std::unordered_map from
// each distinct string to its code, built once, then an OpenMP loop over a
// std::vector<std::string> of probes, with a reduction of the hits and of
// the codes found. Keys are 8 to 32 characters (some inside the string
// object, most on the heap), about half the probes are missing.
//
// Key i is a run of letters drawn from i's hash, '_', and i in base 36, so
// that keys are distinct and the program checks itself: a probe hits exactly
// when its number is below the dictionary's size, and its code is known.
// One pragma line marks the lookup loop; nothing else is edited.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

static std::string key_of(uint64_t i) {
  uint64_t h = mix(i);
  char digits[16];
  int nd = 0;
  for (uint64_t v = i; nd == 0 || v; v /= 36) digits[nd++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
  int len = 8 + (int)(h % 25);
  std::string s;
  s.reserve(len);
  for (int j = 0; j < len - nd - 1; j++) s += (char)('a' + (h >> (8 + 2 * (j % 24))) % 26);
  s += '_';
  while (nd) s += digits[--nd];
  return s;
}

static uint32_t code_of(uint64_t i) { return (uint32_t)(mix(i + 1) >> 40) + 1; }

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 2u << 20;
  uint64_t nq = argc > 2 ? strtoull(argv[2], nullptr, 10) : 2u << 20;
  std::unordered_map<std::string, uint32_t> dict;
  dict.reserve(n);
  for (uint64_t i = 0; i < n; i++) dict.emplace(key_of(i), code_of(i));
  std::vector<std::string> probes(nq);
  uint64_t expected_hits = 0, expected_sum = 0, s = 0x9E3779B97F4A7C15ull;
  for (auto &p : probes) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    uint64_t i = s % (2 * n);
    p = key_of(i);
    if (i < n) {
      expected_hits++;
      expected_sum += code_of(i);
    }
  }

  uint64_t hits = 0, sum = 0;
  auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for reduction(+ : hits, sum)
#pragma memcoro
  for (size_t i = 0; i < probes.size(); i++) {
    auto it = dict.find(probes[i]);
    if (it != dict.end()) {
      hits++;
      sum += it->second;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bool ok = hits == expected_hits && sum == expected_sum;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu keys, %llu probes, %llu hits\n", (unsigned long long)n, (unsigned long long)nq,
         (unsigned long long)hits);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
