// SPDX-License-Identifier: Apache-2.0
// is: NPB IS-style key counting, the memory-bound heart of its bucket sort /
// key ranking: keys drawn as in NPB (the mean of four uniforms, so they bunch
// in the middle of the range) increment a count table far larger than the
// LLC. One op = one key counted.
#include "../harness.h"

namespace is {
using SerialFn = void (*)(const uint32_t *keys, size_t nkeys, uint32_t *counts);
} // namespace is
using namespace is;

namespace {

// The loop as NPB writes it (rank(): key_buff_ptr[key_buff_ptr2[i]]++).
void is_serial(const uint32_t *keys, size_t nkeys, uint32_t *counts) {
#pragma memcoro MEMCORO_PARALLEL remote(counts)
  for (size_t i = 0; i < nkeys; ++i)
    counts[keys[i]]++;
}
BENCH_REGISTER_SERIAL(SerialFn, is_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// amac (a ring of n counts in flight), pfd (prefetch the count d keys ahead:
// the keys are read sequentially, so the address is known early) or group
// (bench/harness.h).
void is_hand(bench::Hand form, const uint32_t *keys, size_t nkeys, uint32_t *counts, int width) {
  bench::hand_loop<true>(form, nkeys, width, [=](size_t i) { return &counts[keys[i]]; },
                         [](size_t, uint32_t *count) { ++*count; });
}

bench::Task is_worker(const uint32_t *keys, size_t nkeys, uint32_t *counts, size_t &cursor) {
  for (size_t i; (i = cursor++) < nkeys;) {
    uint32_t *count = &counts[keys[i]];
    co_await bench::prefetch_write{count};
    ++*count;
  }
}

void is_coro(const uint32_t *keys, size_t nkeys, uint32_t *counts, int n) {
  size_t cursor = 0;
  bench::run_interleaved(n, [&](int) { return is_worker(keys, nkeys, counts, cursor); });
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  // The count table is the remote structure: half of --bytes.
  size_t max_key = 1;
  while (max_key * 2 * sizeof(uint32_t) <= o.bytes / 2)
    max_key *= 2;
  const size_t nkeys = o.ops ? o.ops : 4u << 20;
  bench::Rng rng(o.seed);
  std::vector<uint32_t> keys(nkeys);
  for (auto &key : keys) {
    const double mean = (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform()) / 4;
    key = (uint32_t)(mean * (double)max_key);
  }
  // Expected counts from sorting a copy: independent of any counting loop.
  std::vector<uint32_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());

  bench::RemoteArray<uint32_t> counts(max_key);
  const uint32_t *k = keys.data();
  uint32_t *c = counts.data;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(k, nkeys, c); }, [=](int n) { is_coro(k, nkeys, c, n); }, nullptr);
  bench::add_hand_variants(variants, o,
                           [=](bench::Hand form, int w) { is_hand(form, k, nkeys, c, w); });

  bench::Kernel kernel;
  kernel.name = "is";
  kernel.ops = nkeys;
  // Only the entries the keys touch can be non-zero after a correct run.
  kernel.reset = [&] {
    for (uint32_t key : keys)
      c[key] = 0;
  };
  kernel.verify = [&](std::string &why) {
    for (size_t i = 0; i < nkeys;) {
      size_t j = i;
      while (j < nkeys && sorted[j] == sorted[i])
        ++j;
      if (c[sorted[i]] != j - i) {
        why = "key " + std::to_string(sorted[i]) + " counted " + std::to_string(c[sorted[i]]) +
              " times, occurs " + std::to_string(j - i) + " times";
        return false;
      }
      i = j;
    }
    uint64_t total = 0; // catches counts written where no key points
    for (size_t i = 0; i < max_key; ++i)
      total += c[i];
    if (total != nkeys) {
      why = "the counts add up to " + std::to_string(total) + ", not " + std::to_string(nkeys);
      return false;
    }
    return true;
  };
  return bench::run_all(o, kernel, variants);
}
#endif // MEMCORO_ONLY
