/* SPDX-License-Identifier: Apache-2.0 */
/* The instrumented build's interface between the compiler and the runtime
 * (-fmemcoro-profile-generate; docs/compiler.md, "Profile-guided suspension
 * points"). compiler/ProfileInstrument.cpp emits, for each function with
 * marked loops, a table of sites with the same layout and its descriptor in
 * the section memcoro_profile, a call of __memcoro_profile_sample at 1 in
 * K executions of each site, and the loop clock's calls around each loop. Programs never call it themselves. Private
 * to the runtime: not installed. */
#ifndef MEMCORO_RUNTIME_PROFILE_PROFILE_H
#define MEMCORO_RUNTIME_PROFILE_PROFILE_H

#include <stdint.h>

/* One candidate suspension point of a marked loop: the id the profile-use
 * build finds it by again (function, loop, access, not addresses), and its
 * samples so far. */
struct memcoro_profile_site {
  const char *function; /* the symbol's (mangled) name */
  const char *kind;     /* "load", "store" or "atomic" */
  uint32_t loop_line, loop_column;
  uint32_t line, column;
  uint32_t ordinal; /* among the loop's sites with the same kind and place */
  /* Executions until the next sample; the compiled code decrements it and
   * calls __memcoro_profile_sample when it was 0, which sets it again. */
  uint32_t countdown;
  uint64_t samples;
  uint64_t misses;       /* samples above the miss threshold */
  uint64_t cycles;       /* TSC ticks over all samples */
  uint64_t miss_cycles;  /* TSC ticks over the misses */
  uint64_t timed_executions; /* executions inside timed loop executions */
};

/* One marked loop: the thread CPU time of its timed executions (every
 * other one, which takes no samples). Its misses' latency over this time is
 * how many misses the serial loop already keeps in flight
 * (docs/compiler.md). */
struct memcoro_profile_loop {
  const char *function;
  uint32_t line, column;
  uint64_t ns;
  uint64_t entries;
  uint64_t timed;
};

/* The sites of one function and the profile file its build named; one
 * array of these is the section memcoro_profile. */
struct memcoro_profile_table {
  const char *path;
  uint32_t nsites;
  struct memcoro_profile_site *sites;
  uint32_t nloops;
  struct memcoro_profile_loop *loops;
};

/* Before a marked loop: 0 when this execution takes samples, otherwise the
 * thread's CPU clock (plus 1) for __memcoro_profile_loop_exit. */
uint64_t __memcoro_profile_loop_enter(struct memcoro_profile_loop *loop);

/* After it, with what __memcoro_profile_loop_enter returned. */
void __memcoro_profile_loop_exit(struct memcoro_profile_loop *loop, uint64_t entered);

/* Times one access to the line holding `addr` for `site`, and chooses how
 * many executions of the site pass until the next sample. */
void __memcoro_profile_sample(struct memcoro_profile_site *site, const void *addr);

#endif
