// SPDX-License-Identifier: Apache-2.0
// gather: s += t[ix[i]], the plainest gather: a sequential index array picks
// random u64 entries of a table as large as --bytes, and their sum is the
// result. One independent miss per op, nothing else to hide it behind: the
// loop a user tries memcoro on first. One op = one entry gathered.
#include "../harness.h"

namespace gather {
using SerialFn = void (*)(const uint64_t *t, const uint32_t *ix, size_t len, uint64_t *out);
} // namespace gather
using namespace gather;

namespace {

// The loop as a user writes it.
void gather_serial(const uint64_t *t, const uint32_t *ix, size_t len, uint64_t *out) {
  uint64_t s = 0;
#pragma memcoro MEMCORO_PARALLEL remote(t)
  for (size_t i = 0; i < len; ++i)
    s += t[ix[i]];
  *out = s;
}
BENCH_REGISTER_SERIAL(SerialFn, gather_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

bench::Task gather_worker(const uint64_t *t, const uint32_t *ix, size_t len, size_t &cursor,
                          uint64_t &total) {
  uint64_t s = 0;
  for (size_t i; (i = cursor++) < len;) {
    co_await bench::prefetch{&t[ix[i]]};
    s += t[ix[i]];
  }
  total += s;
}

void gather_coro(const uint64_t *t, const uint32_t *ix, size_t len, uint64_t *out, int n) {
  size_t cursor = 0;
  uint64_t total = 0;
  bench::run_interleaved(n, [&](int) { return gather_worker(t, ix, len, cursor, total); });
  *out = total;
}

// amac, pfd or group (bench/harness.h) of the loop above.
void gather_hand(bench::Hand form, const uint64_t *t, const uint32_t *ix, size_t len,
                 uint64_t *out, int width) {
  uint64_t s = 0;
  bench::hand_loop<false>(form, len, width, [=](size_t i) { return &t[ix[i]]; },
                          [&](size_t, const uint64_t *p) { s += *p; });
  *out = s;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  bench::IndexedTable data = bench::indexed_table(o);
  const size_t size = data.table.size, len = data.index.size();
  for (size_t k = 0; k < size; ++k)
    data.table[k] = bench::mix64(k);
  // The expected sum, from the index values alone: mix64 of each.
  uint64_t expected = 0;
  for (uint32_t x : data.index)
    expected += bench::mix64(x);

  const uint64_t *t = data.table.data;
  const uint32_t *ix = data.index.data();
  uint64_t result = 0;
  uint64_t *r = &result;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(t, ix, len, r); }, [=](int n) { gather_coro(t, ix, len, r, n); },
      nullptr);
  bench::add_hand_variants(variants, o, [=](bench::Hand form, int w) {
    gather_hand(form, t, ix, len, r, w);
  });

  bench::Kernel k;
  k.name = "gather";
  k.ops = len;
  k.reset = [&] { result = ~expected; };
  k.verify = [&](std::string &why) {
    if (result == expected)
      return true;
    why = "sum " + std::to_string(result) + ", expected " + std::to_string(expected);
    return false;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
