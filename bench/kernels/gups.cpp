// SPDX-License-Identifier: Apache-2.0
// gups: HPCC RandomAccess. 128 independent streams of the HPCC LFSR
// (x^64 + x^2 + x + 1 over GF(2)) xor their values into random entries of a
// 2^k-entry u64 table. One op = one table update.
#include "../harness.h"

namespace gups {

constexpr uint64_t kPoly = 0x7;
constexpr size_t kStreams = 128; // as in HPCC

inline uint64_t lfsr_step(uint64_t r) { return (r << 1) ^ ((int64_t)r < 0 ? kPoly : 0); }

using SerialFn = void (*)(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds);

} // namespace gups
using namespace gups;

namespace {

// The loop as HPCC writes it; the pragma marks the loop over the streams.
void gups_serial(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds) {
  for (size_t i = 0; i < rounds; ++i) {
#pragma memcoro MEMCORO_PARALLEL remote(table)
    for (size_t j = 0; j < kStreams; ++j) {
      ran[j] = (ran[j] << 1) ^ ((int64_t)ran[j] < 0 ? kPoly : 0);
      table[ran[j] & mask] ^= ran[j];
    }
  }
}
BENCH_REGISTER_SERIAL(SerialFn, gups_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

// x^n mod the LFSR polynomial, by square and multiply in GF(2)[x]: the value
// the LFSR started at 1 holds after n steps (what HPCC_starts computes).
uint64_t gf2_mulmod(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  for (int bit = 63; bit >= 0; --bit) {
    r = lfsr_step(r);
    if ((b >> bit) & 1)
      r ^= a;
  }
  return r;
}

uint64_t lfsr_jump(uint64_t n) {
  uint64_t result = 1, power = 2; // power = x
  for (; n; n >>= 1) {
    if (n & 1)
      result = gf2_mulmod(result, power);
    power = gf2_mulmod(power, power);
  }
  return result;
}

// The expert's form: a software pipeline over the flattened update sequence.
// A look-ahead stage runs `distance` updates ahead on its own copy of the
// streams, prefetching each target line for writing; the update stage then
// finds its line in the cache. No batch boundaries, no branches but the loop.
void gups_amac(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds, int distance) {
  const size_t total = rounds * kStreams;
  uint64_t pending[128]; // > the largest distance: a slot is consumed before it is refilled
  size_t ahead = 0;
  for (; ahead < (size_t)distance && ahead < total; ++ahead) {
    const size_t j = ahead % kStreams;
    ran[j] = lfsr_step(ran[j]);
    pending[ahead % 128] = ran[j];
    __builtin_prefetch(&table[ran[j] & mask], 1, 3);
  }
  for (size_t done = 0; done < total; ++done) {
    if (ahead < total) {
      const size_t j = ahead % kStreams;
      ran[j] = lfsr_step(ran[j]);
      pending[ahead % 128] = ran[j];
      __builtin_prefetch(&table[ran[j] & mask], 1, 3);
      ++ahead;
    }
    const uint64_t v = pending[done % 128];
    table[v & mask] ^= v;
  }
}

// The first edit a user makes to the loop above: prefetch the update `d`
// ahead in the flattened sequence. Stream (j + d) % 128's next value is one
// LFSR step from what ran[] holds now: this round's for a stream not yet
// updated, the next round's for one already updated.
void gups_pfd(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds, int d) {
  for (size_t i = 0; i < rounds; ++i) {
    for (size_t j = 0; j < kStreams; ++j) {
      __builtin_prefetch(&table[lfsr_step(ran[(j + d) % kStreams]) & mask], 1, 3);
      ran[j] = lfsr_step(ran[j]);
      table[ran[j] & mask] ^= ran[j];
    }
  }
}

// Group prefetching: per round, step g streams and prefetch their lines, then
// update the g lines.
void gups_group(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds, int g) {
  for (size_t i = 0; i < rounds; ++i) {
    for (size_t base = 0; base < kStreams; base += (size_t)g) {
      const size_t end = std::min(kStreams, base + (size_t)g);
      for (size_t j = base; j < end; ++j) {
        ran[j] = lfsr_step(ran[j]);
        __builtin_prefetch(&table[ran[j] & mask], 1, 3);
      }
      for (size_t j = base; j < end; ++j)
        table[ran[j] & mask] ^= ran[j];
    }
  }
}

// C++20 coroutines: worker s owns the streams j = s, s+n, s+2n, ... for all
// rounds (streams are independent and xor commutes, so any interleaving gives
// the same table).
bench::Task gups_worker(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds, int first,
                        int n) {
  for (size_t i = 0; i < rounds; ++i) {
    for (size_t j = (size_t)first; j < kStreams; j += (size_t)n) {
      const uint64_t r = ran[j] = lfsr_step(ran[j]);
      co_await bench::prefetch_write{&table[r & mask]};
      table[r & mask] ^= r;
    }
  }
}

void gups_coro(uint64_t *table, uint64_t mask, uint64_t *ran, size_t rounds, int n) {
  bench::run_interleaved(n, [&](int s) { return gups_worker(table, mask, ran, rounds, s, n); });
}

// Cheap, vectorisable, position-sensitive: a value written to the wrong entry
// changes it.
uint64_t weighted_sum(const uint64_t *t, size_t n) {
  uint64_t h = 0;
  for (size_t i = 0; i < n; ++i)
    h += t[i] * (2 * i + 1);
  return h;
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  unsigned log_size = 0;
  while ((16ull << log_size) <= o.bytes)
    ++log_size;
  const size_t size = 1ull << log_size, mask = size - 1;
  const uint64_t ops = o.ops ? o.ops : 4u << 20;
  const size_t rounds = std::max<uint64_t>(1, ops / kStreams);

  uint64_t probe = 1;
  for (int s = 0; s < 1000; ++s)
    probe = lfsr_step(probe);
  if (lfsr_jump(1000) != probe)
    bench::die("internal error: the LFSR jump-ahead disagrees with stepping");
  uint64_t starts[kStreams];
  for (size_t j = 0; j < kStreams; ++j)
    starts[j] = lfsr_jump(rounds * j);

  bench::RemoteArray<uint64_t> table(size);
  auto reset = [&](uint64_t *t, uint64_t *ran) {
    for (size_t i = 0; i < size; ++i)
      t[i] = i;
    std::copy(starts, starts + kStreams, ran);
  };
  // The expected table, from the updates applied stream by stream (a different
  // order than any variant) into a scratch table.
  uint64_t expected_sum;
  {
    bench::RemoteArray<uint64_t> scratch(size);
    uint64_t ran[kStreams];
    reset(scratch.data, ran);
    for (size_t j = 0; j < kStreams; ++j)
      for (size_t i = 0; i < rounds; ++i) {
        ran[j] = lfsr_step(ran[j]);
        scratch[ran[j] & mask] ^= ran[j];
      }
    expected_sum = weighted_sum(scratch.data, size);
  }

  static uint64_t ran[kStreams];
  uint64_t *t = table.data;
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(t, mask, ran, rounds); },
      [=](int n) { gups_coro(t, mask, ran, rounds, n); },
      [=](int n) { gups_amac(t, mask, ran, rounds, n); });
  // One LFSR step reaches the update d ahead only for d < 128 (see gups_pfd).
  std::vector<int> ds;
  for (int d : o.ds)
    if (d < (int)kStreams)
      ds.push_back(d);
  bench::add_swept(variants, o, "pfd", ds, [=](int d) { gups_pfd(t, mask, ran, rounds, d); });
  bench::add_swept(variants, o, "group", o.ns, [=](int g) { gups_group(t, mask, ran, rounds, g); });

  bench::Kernel k;
  k.name = "gups";
  k.ops = rounds * kStreams;
  k.reset = [&] { reset(t, ran); };
  k.verify = [&](std::string &why) {
    if (weighted_sum(t, size) == expected_sum)
      return true;
    why = "the table differs from the one the updates should produce";
    return false;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
