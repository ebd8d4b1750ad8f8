// SPDX-License-Identifier: Apache-2.0
// ptrchase: many independent linked lists of 64-byte cells laid out in random
// order over one large array (the workload of the Rust async-prefetch post).
// One op = one cell visited. Each list's sum of cell values is the output.
#include "../harness.h"

// Types are in a named namespace: the registry is keyed by the serial
// function's type, which must be the same type in every object file.
namespace ptrchase {

struct alignas(64) Cell {
  uint64_t next;  // index of the next cell, or kEnd
  uint64_t value;
  uint64_t pad[6];
};
static_assert(sizeof(Cell) == 64, "one cell per cache line");

constexpr uint64_t kEnd = ~0ull;

using SerialFn = void (*)(const Cell *cells, const uint64_t *heads, size_t nlists, uint64_t *sums);

} // namespace ptrchase
using namespace ptrchase;

namespace {

// The loop as a user writes it.
void ptrchase_serial(const Cell *cells, const uint64_t *heads, size_t nlists, uint64_t *sums) {
#pragma memcoro MEMCORO_PARALLEL remote(cells)
  for (size_t l = 0; l < nlists; ++l) {
    uint64_t sum = 0;
    for (uint64_t c = heads[l]; c != kEnd; c = cells[c].next)
      sum += cells[c].value;
    sums[l] = sum;
  }
}
BENCH_REGISTER_SERIAL(SerialFn, ptrchase_serial);

} // namespace

#ifndef MEMCORO_ONLY
namespace {

struct Data {
  bench::RemoteArray<Cell> cells;
  std::vector<uint64_t> heads;
  std::vector<uint64_t> lengths;
  size_t nlists = 0; // lists walked per run
  std::vector<uint64_t> sums, expected;
};

// Cuts a random permutation of all cells into lists of random length in
// [avg/2, 3*avg/2), so that lists end at different times (as in the post).
void build(Data &d, size_t ncells, uint64_t ops, uint64_t seed) {
  bench::Rng rng(seed);
  d.cells = bench::RemoteArray<Cell>(ncells);
  std::vector<uint32_t> order(ncells);
  for (size_t i = 0; i < ncells; ++i)
    order[i] = (uint32_t)i;
  bench::shuffle(order.data(), ncells, rng);
  const uint64_t avg = std::max<uint64_t>(8, std::min<uint64_t>(512, ncells / 64));
  size_t pos = 0;
  uint64_t walked = 0;
  while (pos < ncells) {
    uint64_t len = std::min<uint64_t>(ncells - pos, avg / 2 + rng.below(avg));
    d.heads.push_back(order[pos]);
    d.lengths.push_back(len);
    for (uint64_t k = 0; k < len; ++k) {
      Cell &c = d.cells[order[pos + k]];
      c.next = k + 1 < len ? order[pos + k + 1] : kEnd;
      c.value = bench::mix64(order[pos + k]);
    }
    pos += len;
    if (walked < ops) {
      walked += len;
      d.nlists = d.heads.size();
    }
  }
  // The expected sums, from the construction rather than from a walk.
  d.expected.assign(d.nlists, 0);
  pos = 0;
  for (size_t l = 0; l < d.nlists; ++l)
    for (uint64_t k = 0; k < d.lengths[l]; ++k)
      d.expected[l] += bench::mix64(order[pos++]);
  d.sums.assign(d.nlists, 0);
}

// AMAC: a ring of n in-flight lists; each visit prefetches the next cell and
// moves on; a finished list's slot is refilled with the next list at once.
void ptrchase_amac(const Cell *cells, const uint64_t *heads, size_t nlists, uint64_t *sums, int n) {
  struct Slot {
    uint64_t cell;
    uint64_t sum;
    size_t list;
  } slot[64];
  size_t next_list = 0;
  int live = 0;
  for (; live < n && next_list < nlists; ++live, ++next_list) {
    slot[live] = {heads[next_list], 0, next_list};
    __builtin_prefetch(&cells[slot[live].cell]);
  }
  while (live > 0) {
    for (int s = 0; s < live;) {
      Slot &sl = slot[s];
      const Cell &c = cells[sl.cell];
      sl.sum += c.value;
      sl.cell = c.next;
      if (sl.cell == kEnd) {
        sums[sl.list] = sl.sum;
        if (next_list < nlists) {
          sl = {heads[next_list], 0, next_list};
          ++next_list;
        } else {
          sl = slot[--live];
          continue;
        }
      }
      __builtin_prefetch(&cells[sl.cell]);
      ++s;
    }
  }
}

// Group prefetching: g lists advance in lockstep, one cell each per round,
// until the whole group is done. The yardstick for AMAC's quality.
void ptrchase_group(const Cell *cells, const uint64_t *heads, size_t nlists, uint64_t *sums, int g) {
  for (size_t base = 0; base < nlists; base += g) {
    const int width = (int)std::min<size_t>(g, nlists - base);
    uint64_t cell[64], sum[64];
    for (int j = 0; j < width; ++j) {
      cell[j] = heads[base + j];
      sum[j] = 0;
    }
    bool any = true;
    while (any) {
      any = false;
      for (int j = 0; j < width; ++j) {
        if (cell[j] == kEnd)
          continue;
        const Cell &c = cells[cell[j]];
        sum[j] += c.value;
        cell[j] = c.next;
        if (cell[j] != kEnd) {
          __builtin_prefetch(&cells[cell[j]]);
          any = true;
        }
      }
    }
    for (int j = 0; j < width; ++j)
      sums[base + j] = sum[j];
  }
}

// C++20 coroutines: n workers, each claiming the next list when done.
bench::Task ptrchase_worker(const Cell *cells, const uint64_t *heads, size_t nlists,
                            uint64_t *sums, size_t &cursor) {
  for (size_t l; (l = cursor++) < nlists;) {
    uint64_t sum = 0;
    for (uint64_t c = heads[l]; c != kEnd;) {
      co_await bench::prefetch{&cells[c]};
      sum += cells[c].value;
      c = cells[c].next;
    }
    sums[l] = sum;
  }
}

void ptrchase_coro(const Cell *cells, const uint64_t *heads, size_t nlists, uint64_t *sums, int n) {
  size_t cursor = 0;
  bench::run_interleaved(n, [&](int) { return ptrchase_worker(cells, heads, nlists, sums, cursor); });
}

} // namespace

int main(int argc, char **argv) {
  bench::Options o = bench::parse_options(argc, argv, 1ull << 30);
  const size_t ncells = o.bytes / sizeof(Cell);
  const uint64_t ops = o.ops ? o.ops : 2u << 20;
  Data d;
  build(d, ncells, ops, o.seed);
  uint64_t walked = 0;
  for (size_t l = 0; l < d.nlists; ++l)
    walked += d.lengths[l];

  const Cell *cells = d.cells.data;
  const uint64_t *heads = d.heads.data();
  const size_t nlists = d.nlists;
  uint64_t *sums = d.sums.data();
  auto variants = bench::standard_variants<SerialFn>(
      o, [=](SerialFn fn) { fn(cells, heads, nlists, sums); },
      [=](int n) { ptrchase_coro(cells, heads, nlists, sums, n); },
      [=](int n) { ptrchase_amac(cells, heads, nlists, sums, n); });
  bench::add_swept(variants, o, "group", o.ns,
                   [=](int g) { ptrchase_group(cells, heads, nlists, sums, g); });

  bench::Kernel k;
  k.name = "ptrchase";
  k.ops = walked;
  k.repeat = (int)std::max<uint64_t>(1, ops / walked);
  k.reset = [&] { std::fill(d.sums.begin(), d.sums.end(), 0); };
  k.verify = [&](std::string &why) {
    for (size_t l = 0; l < d.nlists; ++l)
      if (d.sums[l] != d.expected[l]) {
        why = "list " + std::to_string(l) + " sum differs from the constructed one";
        return false;
      }
    return true;
  };
  return bench::run_all(o, k, variants);
}
#endif // MEMCORO_ONLY
