// SPDX-License-Identifier: Apache-2.0
// The controller of the switch between a prefetching loop and the loop as
// written (runtime/adapt/switch.c), driven as the generated windows drive it
// (compiler/split/PrefetchSwitch.cpp), with synthetic cycle counts.
extern "C" {
#include "../../runtime/adapt/switch.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>

namespace {

// Cycles per unit of work of the loop as written (0) or the prefetching loop
// (1), at the unit the loop has reached.
using Cost = std::function<uint64_t(int copy, uint64_t at)>;

struct Tally {
  uint64_t units[2] = {};
  uint64_t switches = 0;
};

// One execution of `units` units of work as the generated code runs it: a
// decided execution within its budget neither calls nor reads the clock.
void execute(memcoro_switch &s, uint32_t flags, uint64_t units, const Cost &cost, uint64_t &at, Tally &t) {
  uint64_t left = units;
  bool timed = !(s.run && s.budget);
  uint64_t d = timed ? __memcoro_switch_begin(&s, flags) : (s.budget << 8) | (s.run - 1);
  int last = -1;
  while (left) {
    uint64_t len = std::min(std::max<uint64_t>(d >> 8, 1), left);
    int copy = int(d & 255);
    t.switches += last >= 0 && copy != last;
    last = copy;
    t.units[copy] += len;
    uint64_t cycles = len * cost(copy, at) + s.overhead;
    at += len;
    left -= len;
    if (!left && !timed) {
      s.budget -= std::min(len, s.budget);
      break;
    }
    d = __memcoro_switch_next(&s, len, timed ? cycles : 0);
    timed = true;
  }
}

Tally simulate(uint32_t flags, uint64_t units, uint64_t executions, const Cost &cost) {
  memcoro_switch s = {};
  Tally t;
  uint64_t at = 0;
  for (uint64_t e = 0; e < executions; ++e)
    execute(s, flags, units, cost, at, t);
  return t;
}

TEST(Switch, CachedDataRunsTheLoopAsWritten) {
  // bfs at 1 MiB: the prefetching loop's windows take 1.9x as long and save
  // nothing. The checks' prefetching windows cost the whole run at most 6%.
  Tally t = simulate(0, 2000, 200, [](int copy, uint64_t) { return copy ? 57 : 30; });
  EXPECT_GT(t.units[0], 12 * t.units[1]);
}

TEST(Switch, FarDataRunsThePrefetchingLoop) {
  Tally t = simulate(0, 100000, 40, [](int copy, uint64_t) { return copy ? 100 : 150; });
  EXPECT_GT(t.units[1], 20 * t.units[0]);
}

TEST(Switch, SlightlySlowerPrefetchesAreKept) {
  // A phase where the prefetches cost a third more is not worth leaving them for.
  Tally t = simulate(0, 100000, 40, [](int copy, uint64_t) { return copy ? 130 : 100; });
  EXPECT_GT(t.units[1], 20 * t.units[0]);
}

TEST(Switch, AlternatingWindowsSeeTheSamePhase) {
  // The cost of a unit rises steeply as the loop runs. Measured after the
  // loop as written, the prefetching loop would look no faster; in
  // alternate windows it is a third faster, as it is throughout.
  Tally t = simulate(0, 50000, 40, [](int copy, uint64_t at) {
    uint64_t base = 100 + std::min<uint64_t>(at / 100, 100000);
    return copy ? base * 2 / 3 : base;
  });
  EXPECT_GT(t.units[1], 4 * t.units[0]);
}

TEST(Switch, APreemptedWindowDoesNotDecide) {
  // The cycle counter runs on while the thread is preempted: one window of
  // the prefetching loop now and then takes a million cycles more.
  uint64_t windows = 0;
  Tally t = simulate(0, 100000, 40, [&](int copy, uint64_t) { return copy && ++windows % 7 == 3 ? 100000 : copy ? 100 : 150; });
  EXPECT_GT(t.units[1], 10 * t.units[0]);
}

TEST(Switch, WindowsSwitchWithinAnExecution) {
  Tally t = simulate(0, 1000000, 1, [](int copy, uint64_t) { return copy ? 100 : 150; });
  EXPECT_GT(t.switches, 2u);
  EXPECT_GT(t.units[1], t.units[0]);
}

TEST(Switch, OverlappedLoopsKeepTheLoopAsWrittenUnlessClearlySlower) {
  // CSR rows in the cache: the prefetch loop costs a quarter more, which a
  // bfs-like loop keeps; a loop whose inner loads the core overlaps has no
  // phase that wins it back. Nor is 5% faster enough to leave it.
  Tally kept = simulate(MEMCORO_SWITCH_OVERLAPPED, 100000, 40, [](int copy, uint64_t) { return copy ? 125 : 100; });
  EXPECT_GT(kept.units[0], 20 * kept.units[1]);
  Tally noise = simulate(MEMCORO_SWITCH_OVERLAPPED, 100000, 40, [](int copy, uint64_t) { return copy ? 95 : 100; });
  EXPECT_GT(noise.units[0], 20 * noise.units[1]);
  Tally far = simulate(MEMCORO_SWITCH_OVERLAPPED, 100000, 40, [](int copy, uint64_t) { return copy ? 75 : 100; });
  EXPECT_GT(far.units[1], 20 * far.units[0]);
}

TEST(Switch, FlatLoopsRunTheFasterCopy) {
  // A gather at 1 MiB: its prefetching loop costs a third more, which a
  // loop with phases keeps (SlightlySlowerPrefetchesAreKept); every window
  // of a flat loop does the same work, so the loop as written runs. A
  // tie keeps the prefetches (alternate windows understate them), and a
  // tenth faster is enough for them.
  Tally cached = simulate(MEMCORO_SWITCH_FLAT, 100000, 40, [](int copy, uint64_t) { return copy ? 130 : 100; });
  EXPECT_GT(cached.units[0], 20 * cached.units[1]);
  Tally tie = simulate(MEMCORO_SWITCH_FLAT, 100000, 40, [](int copy, uint64_t) { return copy ? 102 : 100; });
  EXPECT_GT(tie.units[1], 20 * tie.units[0]);
  Tally far = simulate(MEMCORO_SWITCH_FLAT, 100000, 40, [](int copy, uint64_t) { return copy ? 90 : 100; });
  EXPECT_GT(far.units[1], 20 * far.units[0]);
}

TEST(Switch, ForcedDecisionsHoldAfterTheMeasurements) {
  Tally plain = simulate(MEMCORO_SWITCH_FORCE_PLAIN, 100000, 40, [](int copy, uint64_t) { return copy ? 50 : 150; });
  EXPECT_GT(plain.units[0], 10 * plain.units[1]);
  Tally ahead = simulate(MEMCORO_SWITCH_FORCE_PREFETCH, 2000, 200, [](int copy, uint64_t) { return copy ? 90 : 30; });
  EXPECT_GT(ahead.units[1], 10 * ahead.units[0]);
}

} // namespace
