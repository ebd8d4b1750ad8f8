// SPDX-License-Identifier: Apache-2.0
// update: t[ix[i]] ^= i, the plainest scattered update: a sequential index
// array picks random u64 entries of a table as large as --bytes and xors the
// iteration number into them (indices repeat; xor commutes, so any order of
// the updates gives the same table). One op = one entry updated.
#include "../harness.h"

namespace update {
using SerialFn = void (*)(uint64_t *t, const uint32_t *ix, size_t len);
} // namespace update
using namespace update;

namespace {

// The loop as a user writes it.
void update_serial(uint64_t *t, const uint32_t *ix, size_t len) {
#pragma memcoro MEMCORO_PARALLEL remote(t)
  for (size_t i = 0; i < len; ++i)
    t[ix[i]] ^= i;
}
BENCH_REGISTER_SERIAL(SerialFn, update_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

bench::Task update_worker(uint64_t *t, const uint32_t *ix, size_t len, size_t &cursor) {
  for (size_t i; (i = cursor++) < len;) {
    co_await bench::prefetch_write{&t[ix[i]]};
    t[ix[i]] ^= i;
  }
}

void update_coro(uint64_t *t, const uint32_t *ix, size_t len, int n) {
  size_t cursor = 0;
  bench::run_interleaved(n, [&](int) { return update_worker(t, ix, len, cursor); });
}

// amac, pfd or group (bench/harness.h) of the loop above.
void update_hand(bench::Hand form, uint64_t *t, const uint32_t *ix, size_t len, int width) {
  bench::hand_loop<true>(form, len, width, [=](size_t i) { return &t[ix[i]]; },
                         [](size_t i, uint64_t *p) { *p ^= i; });
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  bench::IndexedTable data = bench::indexed_table(o);
  const size_t size = data.table.size, len = data.index.size();

  uint64_t *t = data.table.data;
  const uint32_t *ix = data.index.data();
  auto rebuild = [=] {
    for (size_t e = 0; e < size; ++e)
      t[e] = e;
  };
  rebuild();
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(t, ix, len); }, [=](int n) { update_coro(t, ix, len, n); }, nullptr);
  bench::add_hand_variants(variants, o, [=](bench::Hand form, int w) {
    update_hand(form, t, ix, len, w);
  });

  bench::Kernel k;
  k.name = "update";
  k.ops = len;
  // xor undoes itself: applying every update once more, in index order, must
  // give back t[k] = k everywhere. An update lost, doubled or sent to the
  // wrong entry leaves some entry changed. A verified run leaves the table
  // clean; after any other run (the untimed warm-up, a failure) it is rebuilt.
  bool clean = true;
  k.reset = [&] {
    if (!clean)
      rebuild();
    clean = false;
  };
  k.verify = [&](std::string &why) {
    for (size_t i = 0; i < len; ++i)
      t[ix[i]] ^= i;
    uint64_t bad = 0;
    for (size_t e = 0; e < size; ++e)
      bad |= t[e] ^ e;
    if (!bad)
      return clean = true;
    for (size_t e = 0; e < size; ++e)
      if (t[e] != e) {
        why = "entry " + std::to_string(e) + " holds " + std::to_string(t[e]) +
              " after the updates were undone";
        break;
      }
    return false;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
