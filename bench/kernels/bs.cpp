// SPDX-License-Identifier: Apache-2.0
// bs: many independent branch-free lower_bound lookups into one large sorted
// array of u64. The length is deliberately not a power of two, because probes
// into a power-of-two array alias the same cache sets. One op = one lookup.
#include "../harness.h"

#include <algorithm>

namespace bs {
using SerialFn = void (*)(const uint64_t *sorted, size_t n, const uint64_t *keys, size_t nkeys,
                          uint32_t *out);
} // namespace bs
using namespace bs;

namespace {

// The loop as a user writes it, branch-free: the select must compile to cmov,
// so that the search has no mispredictions, only a chain of dependent loads.
// Without __builtin_unpredictable clang's x86 cmov-conversion pass turns it
// back into a (50% mispredicted) branch inside the loop, in every variant.
void bs_serial(const uint64_t *sorted, size_t n, const uint64_t *keys, size_t nkeys, uint32_t *out) {
#pragma memcoro MEMCORO_PARALLEL remote(sorted)
  for (size_t i = 0; i < nkeys; ++i) {
    const uint64_t key = keys[i];
    const uint64_t *base = sorted;
    size_t len = n;
    while (len > 1) {
      const size_t half = len / 2;
      base = __builtin_unpredictable(base[half] < key) ? base + half : base;
      len -= half;
    }
    out[i] = (uint32_t)(base - sorted) + (*base < key);
  }
}
BENCH_REGISTER_SERIAL(SerialFn, bs_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// AMAC: a ring of n searches; each step reads the probe that was prefetched on
// the previous visit, narrows the range with a select, and prefetches the
// next probe. A finished slot takes the next key at once.
void bs_amac(const uint64_t *sorted, size_t n, const uint64_t *keys, size_t nkeys, uint32_t *out,
             int width) {
  struct Slot {
    const uint64_t *base;
    size_t len;
    uint64_t key;
    size_t index;
  } slot[64];
  size_t next = 0;
  int live = 0;
  for (; live < width && next < nkeys; ++live, ++next) {
    slot[live] = {sorted, n, keys[next], next};
    __builtin_prefetch(&sorted[n / 2]);
  }
  while (live > 0) {
    for (int s = 0; s < live;) {
      Slot &sl = slot[s];
      if (sl.len > 1) {
        const size_t half = sl.len / 2;
        sl.base = __builtin_unpredictable(sl.base[half] < sl.key) ? sl.base + half : sl.base;
        sl.len -= half;
        __builtin_prefetch(&sl.base[sl.len / 2]);
        ++s;
        continue;
      }
      out[sl.index] = (uint32_t)(sl.base - sorted) + (*sl.base < sl.key);
      if (next < nkeys) {
        sl = {sorted, n, keys[next], next};
        ++next;
        __builtin_prefetch(&sorted[n / 2]);
        ++s;
      } else {
        sl = slot[--live];
      }
    }
  }
}

bench::Task bs_worker(const uint64_t *sorted, size_t n, const uint64_t *keys, size_t nkeys,
                      uint32_t *out, size_t &cursor) {
  for (size_t i; (i = cursor++) < nkeys;) {
    const uint64_t key = keys[i];
    const uint64_t *base = sorted;
    size_t len = n;
    while (len > 1) {
      const size_t half = len / 2;
      co_await bench::prefetch{&base[half]};
      base = __builtin_unpredictable(base[half] < key) ? base + half : base;
      len -= half;
    }
    out[i] = (uint32_t)(base - sorted) + (*base < key);
  }
}

void bs_coro(const uint64_t *sorted, size_t n, const uint64_t *keys, size_t nkeys, uint32_t *out,
             int width) {
  size_t cursor = 0;
  bench::run_interleaved(width, [&](int) { return bs_worker(sorted, n, keys, nkeys, out, cursor); });
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  // About 15/16 of the requested bytes, and never a power of two.
  const size_t n = o.bytes / 8 - o.bytes / 8 / 16 + 1;
  const size_t nkeys = o.ops ? o.ops : 1u << 18;
  if (n > UINT32_MAX)
    bench::die("--bytes too large for 32-bit result indices");
  bench::Rng rng(o.seed);
  bench::RemoteArray<uint64_t> sorted(n);
  for (size_t i = 0; i < n; ++i)
    sorted[i] = 3 * i + rng.below(3);
  std::vector<uint64_t> keys(nkeys);
  for (auto &k : keys)
    k = rng.below(3 * n + 3);
  std::vector<uint32_t> out(nkeys), expected(nkeys);
  for (size_t i = 0; i < nkeys; ++i)
    expected[i] = (uint32_t)(std::lower_bound(sorted.data, sorted.data + n, keys[i]) - sorted.data);

  const uint64_t *a = sorted.data, *k = keys.data();
  uint32_t *r = out.data();
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(a, n, k, nkeys, r); },
      [=](int w) { bs_coro(a, n, k, nkeys, r, w); }, [=](int w) { bs_amac(a, n, k, nkeys, r, w); });

  bench::Kernel kernel;
  kernel.name = "bs";
  kernel.ops = nkeys;
  kernel.reset = [&] { std::fill(out.begin(), out.end(), UINT32_MAX); };
  kernel.verify = [&](std::string &why) {
    for (size_t i = 0; i < nkeys; ++i)
      if (out[i] != expected[i]) {
        why = "lookup " + std::to_string(i) + " returned " + std::to_string(out[i]) +
              ", std::lower_bound says " + std::to_string(expected[i]);
        return false;
      }
    return true;
  };
  return bench::run_all(o, kernel, variants);
}
#endif // MEMCORO_ONLY
