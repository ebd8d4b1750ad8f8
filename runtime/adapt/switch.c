// SPDX-License-Identifier: Apache-2.0
// The controller of the run-time switch between a prefetching loop and the
// loop as written (switch.h; compiler/split/PrefetchSwitch.cpp):
//
//   check   windows alternate between the two copies, the loop as written
//           first; a pair is both copies' windows up to MIN_WINDOW_CYCLES
//           each, and gives the ratio of their cycles per unit of work; the
//           median of three pairs (or two that agree) decides
//   run     the faster one, for a budget of work the loop spends without
//           calling here; a check that confirms the decision doubles the
//           budget (16 Ki to 4 Mi units)
//
// adapt.c measures its serial sample, then its trials, one after the other.
// Here the cost of a unit drifts as the loop runs (a BFS's middle levels
// miss on nearly every edge, its last ones barely prefetch at all), and a
// sample and a trial taken at different times compared two phases instead of
// two copies: bfs at 1 GiB chose the loop as written for whole searches.
// Alternating windows measure both copies on the same phase.
#include "switch.h"

#include "adapt.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

enum { FRESH, CHECK, RUN };

// A window shorter than this is timed mostly by the cycle counter itself
// (which may trap to the hypervisor): the next ones grow. Each copy's
// windows of a pair add up to at least as many cycles.
enum { MIN_WINDOW_CYCLES = 16384, FIRST_WINDOW = 2048, MAX_WINDOW = 1 << 20 };
// The loop as written only when the prefetching loop is half as slow again.
// Both win in turn as the loop runs (bfs at 1 GiB: the prefetches cost
// instructions on hubs' edge lists, cached, and save a miss on every vertex
// of the levels of leaves), and a decision holds for a while after its
// phase: choosing the loop as written where it was 3-20% faster cost the
// search 1.2x where the prefetches save 1.5x. A prefetching window also
// starts without its prefetches in flight, which the window before it (the
// loop as written's) does not pay. On cache-resident data the prefetching
// loop's windows are 1.9-2.1x slower (bfs at 1 MiB).
enum { SLOWER_NUM = 3, SLOWER_DEN = 2 };
// A decision's budget is at least this many times what its check cost beyond
// running the chosen copy throughout: checks cost a few percent at most.
enum { BUDGET_PER_CHECK = 32 };
// And it stands for at most this many cycles (about 45 ms at 3 GHz).
#define MAX_BUDGET_CYCLES (1ull << 27)

static void start_check(struct memcoro_switch *s) {
  s->phase = CHECK;
  s->budget = 0;
  s->which = 0;
  s->pairs = 0;
  s->acc_units[0] = s->acc_units[1] = s->acc_cycles[0] = s->acc_cycles[1] = 0;
  s->units[0] = s->units[1] = 0;
}

// A flat loop's windows all do the same kind of work (an iteration has no
// inner loop whose trips differ), so it has no phases to wait out, and an
// adapting loop's serial copy runs only the windows adaptation gives it: the
// loop as written when the prefetching loop measures 5% slower, as a gather
// at 1 MiB needs (its prefetching loop 1.3x slower than the loop as written).
// Not at a tie: alternate windows understate what the prefetches save, as
// above. COO SpMV beyond the cache measured 0.96-1.04 in pairs of 2048
// iterations, 0.93 as whole runs; choosing by the pair, it lost the gain.
enum { FLAT_NUM = 21, FLAT_DEN = 20 };
// A loop whose inner loads the core already overlaps (PrefetchEdges.cpp)
// has no phases that favour the prefetches: the loop as written unless the
// prefetching loop measures 10% faster. On cache-resident CSR rows it costs
// 1.25-1.35x and nothing is won back later, so a pair a preemption spoilt
// must not choose it; beyond the cache it measures 0.70-0.80x.
enum { OVERLAPPED_NUM = 9, OVERLAPPED_DEN = 10 };
static bool slower(const struct memcoro_switch *s, uint64_t ratio) {
  if (s->flags & MEMCORO_SWITCH_FLAT)
    return ratio * FLAT_DEN > 1024u * FLAT_NUM;
  if (s->flags & MEMCORO_SWITCH_OVERLAPPED)
    return ratio * OVERLAPPED_DEN > 1024u * OVERLAPPED_NUM;
  return ratio * SLOWER_DEN > 1024u * SLOWER_NUM;
}

// The median of the pairs' ratios: a window that a preemption spoilt (the
// cycle counter runs on while the thread does not) spoils one pair.
static uint64_t median_ratio(const struct memcoro_switch *s) {
  if (s->pairs < 3)
    return (s->ratio[0] + s->ratio[1]) / 2;
  uint64_t a = s->ratio[0], b = s->ratio[1], c = s->ratio[2];
  return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

// `cpi`: the chosen copy's cycles per 1024 units in the last pair.
static void decide(struct memcoro_switch *s, uint64_t cpi[2]) {
  uint64_t r = median_ratio(s);
  bool prefetch = !slower(s, r);
  if (s->flags & MEMCORO_SWITCH_FORCE_PLAIN)
    prefetch = false;
  if (s->flags & MEMCORO_SWITCH_FORCE_PREFETCH)
    prefetch = true;
  bool confirmed = s->run == (uint64_t)prefetch + 1;
  s->recheck = !confirmed                                   ? MEMCORO_ADAPT_RECHECK_FIRST
               : s->recheck >= MEMCORO_ADAPT_RECHECK_LAST ? MEMCORO_ADAPT_RECHECK_LAST
                                                          : 2 * s->recheck;
  // What the check's windows of the other copy cost beyond the chosen one's, in units.
  uint64_t extra = prefetch ? (r < 1024 ? s->units[0] * (1024 - r) / (r ? r : 1) : 0)
                            : (r > 1024 ? s->units[1] * (r - 1024) / 1024 : 0);
  uint64_t budget = BUDGET_PER_CHECK * extra > s->recheck ? BUDGET_PER_CHECK * extra : s->recheck;
  uint64_t chosen = cpi[prefetch];
  uint64_t longest = chosen ? MAX_BUDGET_CYCLES * 1024 / chosen : budget;
  s->budget = budget < longest ? budget : longest;
  if (s->budget == 0)
    s->budget = 1;
  s->run = (uint64_t)prefetch + 1;
  s->phase = RUN;
  if (__memcoro_adapt_tracing())
    fprintf(stderr,
            "memcoro-switch %p: %s (prefetching / as written %" PRIu64 "/1024 over %u pairs; last pair %" PRIu64
            " and %" PRIu64 " cycles per 1024 units of work), budget %" PRIu64 "\n",
            (void *)s, prefetch ? "prefetching" : "as written", r, s->pairs, cpi[0], cpi[1], s->budget);
}

static uint64_t decision(const struct memcoro_switch *s) {
  if (s->phase == CHECK)
    return (s->window << 8) | s->which;
  return (s->budget << 8) | (s->run - 1);
}

uint64_t __memcoro_switch_begin(struct memcoro_switch *s, uint32_t flags) {
  if (s->phase == FRESH || s->flags != flags) {
    *s = (struct memcoro_switch){.flags = flags, .window = FIRST_WINDOW, .overhead = __memcoro_counter_overhead()};
    start_check(s);
  } else if (s->phase == RUN && s->budget == 0) {
    start_check(s);
  }
  return decision(s);
}

uint64_t __memcoro_switch_next(struct memcoro_switch *s, uint64_t units, uint64_t cycles) {
  if (s->phase != CHECK) {
    s->budget -= units < s->budget ? units : s->budget;
    if (s->budget == 0)
      start_check(s);
    return decision(s);
  }
  uint64_t c = cycles > s->overhead ? cycles - s->overhead : 0;
  uint32_t w = s->which;
  s->acc_units[w] += units;
  s->acc_cycles[w] += c;
  s->units[w] += units;
  if (c < MIN_WINDOW_CYCLES && units >= s->window && s->window < MAX_WINDOW)
    s->window *= 2;
  s->which ^= 1;
  if (s->acc_cycles[0] < MIN_WINDOW_CYCLES || s->acc_cycles[1] < MIN_WINDOW_CYCLES || !s->acc_units[0] ||
      !s->acc_units[1])
    return decision(s);
  // A pair: both copies measured over about the same stretch of the loop.
  uint64_t cpi[2] = {s->acc_cycles[0] * 1024 / s->acc_units[0], s->acc_cycles[1] * 1024 / s->acc_units[1]};
  s->ratio[s->pairs++] = cpi[0] ? cpi[1] * 1024 / cpi[0] : 1024;
  s->acc_units[0] = s->acc_units[1] = s->acc_cycles[0] = s->acc_cycles[1] = 0;
  // Two pairs that agree decide; else a third.
  if (s->pairs == 3 || (s->pairs == 2 && slower(s, s->ratio[0]) == slower(s, s->ratio[1])))
    decide(s, cpi);
  return decision(s);
}
