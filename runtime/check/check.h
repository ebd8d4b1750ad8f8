/* SPDX-License-Identifier: Apache-2.0 */
/* The checking build's interface between memcoro-split and the runtime
 * (-fmemcoro-check; docs/compiler.md, "The checking build"). The compiler
 * emits the descriptors as constant data and the calls below into every loop
 * it interleaves (compiler/split/SplitCheck.cpp builds the same layouts);
 * programs never call these themselves. Private to the runtime: not
 * installed. */
#ifndef MEMCORO_RUNTIME_CHECK_CHECK_H
#define MEMCORO_RUNTIME_CHECK_CHECK_H

#include <stdint.h>

/* What a site does to the bytes it touches. Iterations may depend on each
 * other through atomic accesses, and through updates: the load and the store
 * of a commutative read-modify-write that no suspension splits (a[x] += t,
 * if (t < a[x]) a[x] = t). Two accesses of these kinds are never reported
 * against each other; one of them and a plain access are. */
enum {
  MEMCORO_CHECK_READ = 1,
  MEMCORO_CHECK_WRITE = 2,
  MEMCORO_CHECK_ATOMIC = 4,
  MEMCORO_CHECK_UPDATE = 8,
};

/* One interleaved loop: where its pragma's `for` is, and how it runs. */
struct memcoro_check_loop {
  const char *file;
  uint32_t line;
  uint32_t parallel;
  const char *dispatch; /* "ring" or "lockstep" */
};

/* One load, store, atomic update or memory intrinsic of the loop. */
struct memcoro_check_site {
  const struct memcoro_check_loop *loop;
  const char *file;
  uint32_t line;
  uint32_t column;
  uint32_t flags; /* MEMCORO_CHECK_* */
};

/* A new execution of the loop, on this thread: iterations count from 0 again
 * and what earlier executions touched is forgotten. */
void __memcoro_check_enter(void);

/* Iteration `iteration` of the current execution has just accessed `size`
 * bytes at `addr` as `site` says. Reports, on stderr, an access of another
 * iteration to the same bytes that ran in an order the serial loop would not
 * have. */
void __memcoro_check_access(const struct memcoro_check_site *site, uint64_t iteration, const void *addr,
                            uint64_t size);

/* The `size` bytes at `addr` were freed: the accesses this thread's current
 * execution recorded there are forgotten, so that iterations that later get
 * the bytes from malloc are not reported against them. Called by the
 * interposed free and realloc (runtime/check/freed.c), not by the compiler's
 * code. */
void __memcoro_check_forget(const void *addr, uint64_t size);

#endif
