/* SPDX-License-Identifier: Apache-2.0 */
/* Run-time adaptation of interleaved loops (docs/compiler.md, "Run-time
 * adaptation"): the interface between memcoro-split's window loop
 * (compiler/split/Adaptation.cpp) and the controller in adapt.c. A loop that
 * adapts runs its iterations in windows; before each window it asks the
 * controller how many iterations to run and how (serially, or interleaved
 * with n coroutines), and after it says how many cycles they took. Programs
 * never call these themselves. Private to the runtime: not installed. */
#ifndef MEMCORO_RUNTIME_ADAPT_ADAPT_H
#define MEMCORO_RUNTIME_ADAPT_ADAPT_H

#include <stdbool.h>
#include <stdint.h>

/* What the compiler asks for (the flags argument of __memcoro_adapt_begin). */
enum {
  MEMCORO_ADAPT_SAMPLE = 1,            /* sample serial iterations; stay serial when cheaper */
  MEMCORO_ADAPT_N = 2,                 /* choose n by hill climbing (no parallel(N) clause) */
  MEMCORO_ADAPT_FORCE_SERIAL = 4,      /* after the samples, always choose serial (tests) */
  MEMCORO_ADAPT_FORCE_INTERLEAVED = 8, /* after the samples, always interleave (tests) */
  MEMCORO_ADAPT_PIPELINE = 16,         /* interleaved windows are pipelines: each fills and drains */
};

/* Iterations per measurement: a serial sample, an interleaved trial of one n
 * (at least MEMCORO_ADAPT_TRIAL, and 64 iterations per slot), and the
 * iterations between two checks (doubling from the first to the last while
 * the decision holds). */
enum {
  MEMCORO_ADAPT_SAMPLE_ITERS = 256,
  MEMCORO_ADAPT_TRIAL = 1024,
};
#define MEMCORO_ADAPT_RECHECK_FIRST (16u * 1024)
#define MEMCORO_ADAPT_RECHECK_LAST (4u * 1024 * 1024)

/* One marked loop's state on one thread: the compiler emits it as a
 * zero-initialised thread-local [18 x i64], so what one execution of the loop
 * learnt carries over to the next (a loop with few iterations, run often,
 * is measured across its executions). The loop itself reads the first two
 * words: an execution of at most `budget` iterations (or of fewer than
 * -memcoro-adapt-min-trips) runs as decided, `run` - 1 coroutines (0: serially;
 * run == 0: no decision yet, the pragma's N), without calling here or reading
 * the cycle counter, and takes its iterations off the budget. */
struct memcoro_adapt {
  uint64_t budget; /* iterations left before the next check */
  uint64_t run;    /* n + 1 of the decision, 0 before the first */
  uint16_t phase;
  uint16_t flags;
  uint32_t retry_cpi; /* a trial measured again: its first measurement (saturated) */
  uint32_t n0, nmax; /* the first n tried, and the slots the loop has */
  uint32_t best;     /* the n interleaving runs at */
  uint32_t trial;    /* the n being measured */
  uint32_t start;    /* the n the hill climb started from */
  uint8_t serial;    /* the decision: 1 serial, 0 interleaved */
  uint8_t flat;      /* the climb's steps down since its last better one */
  uint8_t jumped;    /* the check under way has tried the foot of the ladder */
  uint8_t foot_wait; /* checks to go before the foot is tried again */
  uint64_t iters, cycles; /* of the measurement under way */
  uint64_t serial_cpi;    /* cycles per 1024 iterations, serially */
  uint64_t best_cpi;      /* the same, interleaved at n = best */
  uint64_t recheck;       /* the budget the last decision got */
  uint64_t overhead;      /* cycles the two cycle-counter reads of a window add */
  uint64_t check_iters;   /* iterations the check under way has measured */
  uint64_t check_cycles;  /* and their cycles */
  uint64_t last_cpi;      /* best_cpi of the check before */
  uint32_t unsampled;     /* checks since the last serial sample */
  uint16_t reversing;     /* the decision reversed the one before, unconfirmed */
  uint16_t retried;       /* which trials the check under way measured again */
  uint64_t paired_iters;  /* serial iterations of the paired measurement under way */
  uint64_t paired_cycles; /* and their cycles */
};
_Static_assert(sizeof(struct memcoro_adapt) == 18 * sizeof(uint64_t), "the compiler emits [18 x i64]");

/* A decision: the low 8 bits are n (0: run serially), the rest the number
 * of iterations to run so. */
#define MEMCORO_ADAPT_DECISION(iters, n) (((uint64_t)(iters) << 8) | (uint64_t)(n))

/* A new execution of the loop: the first window. n0 is the pragma's N (or
 * memcoro's default), nmax the slots the loop has. */
uint64_t __memcoro_adapt_begin(struct memcoro_adapt *state, uint32_t flags, uint32_t n0, uint32_t nmax);
/* The last window ran `iters` iterations in `cycles` cycles: the next one. */
uint64_t __memcoro_adapt_next(struct memcoro_adapt *state, uint64_t iters, uint64_t cycles);

/* What two back-to-back reads of the cycle counter measure (the least of a
 * few): taken off every measured window. Also switch.c's. */
uint64_t __memcoro_counter_overhead(void);

/* MEMCORO_ADAPT_TRACE=1: every measurement and decision of adapt.c and
 * switch.c on stderr. */
bool __memcoro_adapt_tracing(void);

#endif
