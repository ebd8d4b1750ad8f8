// throwing_calls: a C++ loop whose calls may throw (a helper of another unit that is not noexcept, a vector's growth, at()'s out-of-range report on std::vector and std::unordered_map) interleaves, with the serial answer: as in an OpenMP parallel for, an exception that left the loop would end the program, so nothing waits on an unwind edge.
// also: tu/throwing_scale.cpp
#include "common.h"
#include <cstdint>
#include <unordered_map>
#include <vector>
std::int64_t checked_scale(std::int64_t v);
struct Row {
  std::int64_t key, value;
};
// A function of its own, as in buffer_append.cpp: inlined into main, the
// vector's pointers would live in registers (docs/compiler.md).
__attribute__((noinline)) static void select_rows(std::vector<Row> &out, const std::vector<Row> &rows, const std::vector<std::uint32_t> &idx,
                        std::int64_t limit) {
#pragma memcoro parallel(N)
  for (std::uint32_t k : idx)
    if (rows[k].value < limit)
      out.push_back(rows[k]);
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { ROWS = 1 << 13 };
  std::vector<Row> rows(ROWS);
  for (int i = 0; i < ROWS; ++i)
    rows[i] = {i, static_cast<std::int64_t>(diff_rand() % 1000)};
  std::vector<std::uint32_t> idx(n);
  for (int i = 0; i < n; ++i)
    idx[i] = static_cast<std::uint32_t>(diff_rand() % ROWS);
  std::vector<std::int64_t> scaled(n);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    scaled[i] = checked_scale(rows[idx[i]].value);
  std::unordered_map<std::int64_t, std::int64_t> by_key;
  for (int i = 0; i < ROWS; i += 2)
    by_key[i] = rows[i].value;
  std::vector<std::int64_t> found(n);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    found[i] = by_key.at(idx[i] & ~1u) + rows.at(idx[i]).value;
  std::vector<Row> picked;
  select_rows(picked, rows, idx, 500);
  std::uint64_t h = picked.size();
  for (const Row &r : picked)
    h = h * 31 + static_cast<std::uint64_t>(r.key * 1000 + r.value);
  for (std::int64_t v : scaled)
    h = h * 7 + static_cast<std::uint64_t>(v);
  for (std::int64_t v : found)
    h = h * 5 + static_cast<std::uint64_t>(v);
  printf("%llx\n", static_cast<unsigned long long>(h));
  return 0;
}
