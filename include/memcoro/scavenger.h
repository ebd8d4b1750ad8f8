/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scavenger.h: primary/scavenger co-scheduling on one thread, after MSH
 * (memory stall harvesting; docs/runtime.md, "Scavengers").
 *
 * A latency-critical *primary* (the thread's own code) hands the time it
 * would spend stalled on a cache miss to best-effort *scavengers*: functions
 * registered on the thread, each run as a stackful coroutine. The primary
 * prefetches, calls memcoro_scavenge(ns), and gets the thread back once the
 * running scavenger reaches one of its own yield points after ns have passed
 * (or when none is left). That bound, the inter-yield distance, trades the
 * primary's added latency against the scavengers' throughput.
 *
 *   memcoro_scavenger_add(scan, &state);     register work on this thread
 *   ...
 *   __builtin_prefetch(p);
 *   memcoro_scavenge(300);                   primary: run scavengers for ~300 ns
 *   v = *p;                                  the line has arrived meanwhile
 *   ...
 *   memcoro_scavenger_drain();               finish what is left
 *
 * A scavenger gives the thread back at its yield points:
 *   memcoro_scavenger_yield()   in long stretches without misses: returns to
 *                               the primary when its time is up, else at once
 *   memcoro_scavenge(ns)        at its own stalls (after a prefetch): lets
 *                               another scavenger run, or the primary
 * so a scavenger can itself be a loop that memcoro-cc compiles in scavenger
 * mode (-fmemcoro-scavenge, docs/compiler.md), whose stalls call
 * memcoro_scavenge. Code that runs as primary or as scavenger alike need not
 * know which it is.
 *
 * Scavengers belong to the thread that registered them and never move to
 * another one. They share the thread with the primary as a signal handler
 * would: data one writes and the other reads must be synchronised as between
 * threads. A primary that is a coroutine of an executor (co.h) must be
 * pinned, so that it finds its scavengers on its thread.
 */
#ifndef MEMCORO_SCAVENGER_H
#define MEMCORO_SCAVENGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*memcoro_scavenger_fn)(void *arg);

/* Registers fn(arg) to run as a scavenger on the calling thread, on a
 * stack of its own (128 KiB usable, guard page below). Work is never
 * dropped: every registered function runs to completion, at the latest in
 * memcoro_scavenger_drain, which also runs when the thread exits (and at
 * exit() for the thread that calls it). May be called from a scavenger.
 * Returns false when no stack can be had. */
bool memcoro_scavenger_add(memcoro_scavenger_fn fn, void *arg);

/* A stall point. On the primary: runs the thread's scavengers until ns
 * nanoseconds have passed since the call and one of them yields, then
 * returns; returns at once when none is registered. In a scavenger: the
 * scavenger has just issued a long-latency access; switches to the next
 * scavenger while the primary's time lasts, otherwise back to the primary
 * (ns is ignored: the primary's bound rules). */
void memcoro_scavenge(uint64_t ns);

/* A scavenger's bounded-distance yield point: gives the thread back to the
 * primary once the primary's time is up, otherwise returns at once (a
 * read of the time stamp counter). Does nothing outside a scavenger or
 * while draining. */
void memcoro_scavenger_yield(void);

/* True while the calling code runs as a scavenger. */
bool memcoro_in_scavenger(void);

/* Runs every scavenger of the calling thread to completion; returns how many
 * finished. Only the primary may call it (a scavenger calling it aborts). */
size_t memcoro_scavenger_drain(void);

/* What the calling thread's scavengers have done so far. */
typedef struct memcoro_scavenger_stats {
  uint64_t added;     /* memcoro_scavenger_add calls that succeeded */
  uint64_t completed; /* scavengers whose function returned */
  uint64_t stalls;    /* memcoro_scavenge calls of the primary that ran one */
  uint64_t switches;  /* switches into a scavenger (from the primary or another) */
} memcoro_scavenger_stats;

void memcoro_scavenger_get_stats(memcoro_scavenger_stats *out);

/* The conversion memcoro_scavenge uses, for callers that time the same way:
 * the time stamp counter's ticks per nanosecond, measured once per process
 * against CLOCK_MONOTONIC (about 2 ms, at the first call). */
double memcoro_tsc_per_ns(void);

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_SCAVENGER_H */
