/* SPDX-License-Identifier: Apache-2.0 */
/* The run-time switch between a prefetching loop and the loop as written
 * (compiler/split/PrefetchSwitch.cpp): the interface between the loop's
 * windows and the controller in switch.c. Windows count work (an iteration
 * and its inner loops' trips), not iterations. Programs never call these
 * themselves. Private to the runtime: not installed. */
#ifndef MEMCORO_RUNTIME_ADAPT_SWITCH_H
#define MEMCORO_RUNTIME_ADAPT_SWITCH_H

#include <stdint.h>

/* The flags argument of __memcoro_switch_begin. */
enum {
  MEMCORO_SWITCH_FORCE_PLAIN = 4,    /* after the measurements, always the loop as written (tests) */
  MEMCORO_SWITCH_FORCE_PREFETCH = 8, /* after the measurements, always the prefetching loop (tests) */
  MEMCORO_SWITCH_OVERLAPPED = 16,          /* the prefetching loop only when it measures 10% faster (switch.c) */
  MEMCORO_SWITCH_FLAT = 32,                /* no phases (a flat loop, a serial copy): as written when the prefetches are 5% slower */
};

/* One loop's state on one thread, a zero-initialised thread-local [16 x i64]
 * emitted by the compiler. The loop reads the first two words: with `run`
 * set and `budget` left, an execution runs `run` - 1 (0: as written, 1:
 * prefetching) for up to `budget` units of work without calling here, and
 * takes what it ran off the budget itself. */
struct memcoro_switch {
  uint64_t budget;     /* units of work left before the next check */
  uint64_t run;        /* the decision + 1, 0 before the first; kept through checks */
  uint32_t phase;      /* FRESH, CHECK, RUN */
  uint32_t flags;
  uint32_t which;      /* the copy the window under way runs */
  uint32_t pairs;      /* ratios measured in this check */
  uint64_t acc_units[2];  /* of the pair under way, per copy */
  uint64_t acc_cycles[2];
  uint64_t ratio[3];   /* per pair: the prefetching loop's cycles per unit over the loop as written's, x1024 */
  uint64_t units[2];   /* of this check, per copy */
  uint64_t window;     /* units of a measuring window */
  uint64_t recheck;    /* the budget the last decision got */
  uint64_t overhead;   /* cycles the two cycle-counter reads of a window add */
};
_Static_assert(sizeof(struct memcoro_switch) == 16 * sizeof(uint64_t), "the compiler emits [16 x i64]");

/* Decisions are encoded as in adapt.h: units << 8 | copy. */
uint64_t __memcoro_switch_begin(struct memcoro_switch *state, uint32_t flags);
/* The last window ran `units` of work in `cycles` cycles (0: unmeasured). */
uint64_t __memcoro_switch_next(struct memcoro_switch *state, uint64_t units, uint64_t cycles);

#endif
