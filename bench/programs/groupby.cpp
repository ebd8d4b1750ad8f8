// groupby: hash aggregation, `SELECT k, COUNT(*), SUM(v) ... GROUP BY k`, written
// the way analytics engines write their aggregation hash table: a class
// template over the aggregate state, an open-addressing table of {key, state}
// slots probed linearly from a multiplicative hash, the first row of a group
// claiming an empty slot (the key written over the empty marker) and
// initialising its state, every row updating the state of its group. The rows
// are a fact table's foreign keys, drawn from a few million groups, with
// random values. The program checks itself against a sort-based aggregation
// of the same rows: the same groups, each with the same count, sum, minimum
// and maximum. One pragma line marks the aggregation loop.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr uint64_t kEmptyKey = ~0ull;

struct CountSumMinMax {
  uint64_t count;
  int64_t sum;
  int64_t min;
  int64_t max;
  void init(int64_t v) {
    count = 1;
    sum = v;
    min = v;
    max = v;
  }
  void update(int64_t v) {
    count++;
    sum += v;
    min = std::min(min, v);
    max = std::max(max, v);
  }
};

template <typename Aggregate> class AggregateHashTable {
public:
  struct Slot {
    uint64_t key;
    Aggregate state;
  };

  explicit AggregateHashTable(size_t expected_groups) {
    size_t capacity = 16;
    while (capacity < expected_groups * 2)
      capacity <<= 1;
    slots_.assign(capacity, Slot{kEmptyKey, {}});
    mask_ = capacity - 1;
    shift_ = 64 - __builtin_ctzll(capacity);
  }

  size_t bucket(uint64_t key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }

  void add(uint64_t key, int64_t value) {
    for (size_t pos = bucket(key);; pos = (pos + 1) & mask_) {
      Slot &slot = slots_[pos];
      if (slot.key == key) {
        slot.state.update(value);
        return;
      }
      if (slot.key == kEmptyKey) {
        slot.key = key;
        slot.state.init(value);
        return;
      }
    }
  }

  template <typename F> void for_each(F f) const {
    for (const Slot &slot : slots_)
      if (slot.key != kEmptyKey)
        f(slot.key, slot.state);
  }

  size_t capacity() const { return slots_.size(); }

private:
  std::vector<Slot> slots_;
  size_t mask_;
  int shift_;
};

struct Row {
  uint64_t key;
  int64_t value;
};

uint64_t splitmix(uint64_t &s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

} // namespace

int main(int argc, char **argv) {
  size_t nrows = argc > 1 ? strtoull(argv[1], nullptr, 10) : 8u << 20;
  size_t ngroups = argc > 2 ? strtoull(argv[2], nullptr, 10) : 2u << 20;
  std::vector<uint64_t> group_keys(ngroups);
  uint64_t s = 42;
  for (auto &k : group_keys)
    k = splitmix(s) >> 1; // never the empty marker
  std::vector<Row> rows(nrows);
  for (auto &r : rows) {
    r.key = group_keys[splitmix(s) % ngroups];
    r.value = (int64_t)(splitmix(s) % 2000001) - 1000000;
  }

  AggregateHashTable<CountSumMinMax> table(ngroups);
  auto t0 = std::chrono::steady_clock::now();
#pragma memcoro
  for (const Row &r : rows)
    table.add(r.key, r.value);
  auto t1 = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(t1 - t0).count();

  // Verification: a sort-based aggregation of the same rows.
  std::vector<Row> sorted(rows);
  std::sort(sorted.begin(), sorted.end(), [](const Row &a, const Row &b) { return a.key < b.key; });
  std::vector<std::pair<uint64_t, CountSumMinMax>> expected;
  for (const Row &r : sorted) {
    if (expected.empty() || expected.back().first != r.key) {
      expected.push_back({r.key, {}});
      expected.back().second.init(r.value);
    } else {
      expected.back().second.update(r.value);
    }
  }
  std::vector<std::pair<uint64_t, CountSumMinMax>> got;
  table.for_each([&](uint64_t k, const CountSumMinMax &a) { got.push_back({k, a}); });
  std::sort(got.begin(), got.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  bool ok = got.size() == expected.size();
  uint64_t checksum = 0;
  for (size_t i = 0; ok && i < got.size(); i++) {
    const auto &g = got[i].second, &e = expected[i].second;
    ok = got[i].first == expected[i].first && g.count == e.count && g.sum == e.sum && g.min == e.min &&
         g.max == e.max;
    checksum = checksum * 31 + g.count * 7 + (uint64_t)g.sum;
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%zu rows, %zu groups, %zu slots: checksum %016llx\n", nrows, got.size(), table.capacity(),
         (unsigned long long)checksum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
