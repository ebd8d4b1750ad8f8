// SPDX-License-Identifier: Apache-2.0
// The controller of the run-time switch between a prefetching loop and the
// loop as written (switch.h; compiler/split/PrefetchSwitch.cpp):
//
//   check   windows alternate between the two copies, the loop as written
//           first, until each has run at least CHECK_CYCLES in
//           MIN_WINDOWS / 2 windows; cycles per unit of work decide
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
#include <stdlib.h>

enum { FRESH, CHECK, RUN };

// A window shorter than this is timed mostly by the cycle counter itself
// (which may trap to the hypervisor): the next ones grow.
enum { MIN_WINDOW_CYCLES = 16384, FIRST_WINDOW = 2048, MAX_WINDOW = 1 << 20 };
// What a check measures of each copy: a few windows and some tens of
// microseconds, so that a hub's edge list in one window does not decide.
enum { CHECK_CYCLES = 32768, MIN_WINDOWS = 4 };
// The loop as written only when the prefetching loop is a quarter slower.
// Both win in turn as the loop runs (bfs at 1 GiB: the prefetches cost
// instructions on hubs' edge lists, cached, and save a miss on every vertex
// of the levels of leaves), and a decision holds for a while after its
// phase: choosing the loop as written where it was 3-20% faster cost the
// search 1.2x where the prefetches save 1.5x. On cache-resident data the
// prefetching loop is 1.4-1.9x slower (bfs at 1 MiB).
enum { SLOWER_NUM = 5, SLOWER_DEN = 4 };
// A decision's budget is at least this many times what its check cost beyond
// running the chosen copy throughout: checks cost a few percent at most.
enum { BUDGET_PER_CHECK = 32 };
#define RECHECK_FIRST (16u * 1024)
#define RECHECK_LAST (4u * 1024 * 1024)
// And it stands for at most this many cycles (about 45 ms at 3 GHz).
#define MAX_BUDGET_CYCLES (1ull << 27)

static bool tracing(void) {
  static int on = -1;
  if (on < 0)
    on = getenv("MEMCORO_ADAPT_TRACE") != NULL;
  return on;
}

static void start_check(struct memcoro_switch *s) {
  s->phase = CHECK;
  s->budget = 0;
  s->which = 0;
  s->windows = 0;
  s->units[0] = s->units[1] = 0;
  s->cycles[0] = s->cycles[1] = 0;
}

static uint64_t per_1024(const struct memcoro_switch *s, int c) { return s->cycles[c] * 1024 / s->units[c]; }

static void decide(struct memcoro_switch *s) {
  uint64_t plain = per_1024(s, 0), ahead = per_1024(s, 1);
  bool prefetch = ahead * SLOWER_DEN <= plain * SLOWER_NUM;
  if (s->flags & MEMCORO_SWITCH_FORCE_PLAIN)
    prefetch = false;
  if (s->flags & MEMCORO_SWITCH_FORCE_PREFETCH)
    prefetch = true;
  bool confirmed = s->last == (uint64_t)prefetch + 1;
  s->recheck = !confirmed ? RECHECK_FIRST : s->recheck >= RECHECK_LAST ? RECHECK_LAST : 2 * s->recheck;
  // The check's cost beyond running the chosen copy, in its units.
  uint64_t chosen = prefetch ? ahead : plain;
  uint64_t units = s->units[0] + s->units[1], cycles = s->cycles[0] + s->cycles[1];
  uint64_t spent = chosen * units / 1024;
  uint64_t extra = chosen && cycles > spent ? (cycles - spent) * 1024 / chosen : 0;
  uint64_t budget = BUDGET_PER_CHECK * extra > s->recheck ? BUDGET_PER_CHECK * extra : s->recheck;
  uint64_t longest = chosen ? MAX_BUDGET_CYCLES * 1024 / chosen : budget;
  s->budget = budget < longest ? budget : longest;
  if (s->budget == 0)
    s->budget = 1;
  s->run = s->last = (uint64_t)prefetch + 1;
  s->phase = RUN;
  if (tracing())
    fprintf(stderr,
            "memcoro-switch %p: %s (as written %" PRIu64 ", prefetching %" PRIu64
            " cycles per 1024 units of work), budget %" PRIu64 "\n",
            (void *)s, prefetch ? "prefetching" : "as written", plain, ahead, s->budget);
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
  s->units[s->which] += units;
  s->cycles[s->which] += c;
  if (c < MIN_WINDOW_CYCLES && units >= s->window && s->window < MAX_WINDOW)
    s->window *= 2;
  ++s->windows;
  s->which ^= 1;
  if (s->windows >= MIN_WINDOWS && s->units[0] && s->units[1] && s->cycles[0] >= CHECK_CYCLES &&
      s->cycles[1] >= CHECK_CYCLES)
    decide(s);
  return decision(s);
}
