/* SPDX-License-Identifier: Apache-2.0 */
/*
 * co.h: stackful coroutines for C, executors, and the wait/wake primitive.
 *
 *   memcoro_sched_create / memcoro_sched_destroy   one executor per worker thread
 *   memcoro_co_spawn / memcoro_co_join / _detach   start a coroutine, collect it
 *   memcoro_co_yield                               let the executor run another one
 *   memcoro_waiter_*                               park until signalled (await/asignal)
 *
 * Every executor owns a runnable queue (the Sunway paper's Fig. 2; parked
 * coroutines wait on the waiter lists of whatever they wait for). A coroutine
 * placed on a chosen executor (memcoro_co_attr.executor) always runs there.
 * One placed round robin (the default) moves, as goroutines do: woken by a
 * coroutine of another executor it runs next on the waker's executor, and an
 * executor that has had work queued for a while hands half of it to an idle
 * one. Such a coroutine may therefore resume on another thread after any
 * call that can suspend (yield, join, a waiter or channel wait): do not keep
 * the address of a thread-local variable (errno included, and pthread_self(),
 * which compilers may cache) across one, or pin the coroutine. An executor
 * with nothing to run spins briefly, then sleeps on a futex.
 */
#ifndef MEMCORO_CO_H
#define MEMCORO_CO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct memcoro_sched memcoro_sched;
typedef struct memcoro_co memcoro_co;
typedef void *(*memcoro_co_fn)(void *arg);

typedef struct memcoro_sched_options {
  unsigned executors; /* worker threads; 0 means one per online CPU */
  bool pin;           /* pin executor i to the i-th CPU (mod their number) of
                         those the process may run on */
  size_t stack_size;  /* usable bytes per coroutine stack; 0 means 64 KiB */
} memcoro_sched_options;

/* Starts the executors. NULL options take the defaults. Returns NULL (and
 * says why on stderr) when threads or memory cannot be had. */
memcoro_sched *memcoro_sched_create(const memcoro_sched_options *options);

/* Waits until every spawned coroutine has finished, then stops and joins the
 * executors. Must not be called from one of this scheduler's coroutines.
 * While coroutines remain, it says so on stderr every 10 seconds (a
 * coroutine parked on a channel nobody closes would make it wait forever). */
void memcoro_sched_destroy(memcoro_sched *sched);

unsigned memcoro_sched_executors(const memcoro_sched *sched);

#define MEMCORO_ANY_EXECUTOR (-1)

typedef struct memcoro_co_attr {
  int executor;     /* MEMCORO_ANY_EXECUTOR (round robin, may move later) or
                       an index (pinned: never moves) */
  const char *name; /* named in diagnostics such as a stack overflow; may be NULL */
} memcoro_co_attr;

/* Places a coroutine running fn(arg) on an executor. NULL attr means round
 * robin, no name. The result must be joined or detached exactly once.
 * Returns NULL when no stack can be had or the executor index is invalid. */
memcoro_co *memcoro_co_spawn(memcoro_sched *sched, memcoro_co_fn fn, void *arg,
                             const memcoro_co_attr *attr);

/* Waits for the coroutine to finish and returns what fn returned. Parks the
 * caller if it is a coroutine, sleeps if it is a plain thread. Frees co. */
void *memcoro_co_join(memcoro_co *co);

/* The coroutine frees itself when it finishes; co must not be used after. */
void memcoro_co_detach(memcoro_co *co);

/* Moves the calling coroutine to the back of its executor's runnable queue
 * (from where an idle executor may take it, unless it is pinned). Outside a
 * coroutine, yields the thread. */
void memcoro_co_yield(void);

/* The running coroutine, or NULL on a plain thread. */
memcoro_co *memcoro_co_self(void);

/* A number unique among this process's coroutines, starting at 1. */
uint64_t memcoro_co_id(const memcoro_co *co);

/*
 * The wait/wake primitive that channels (and later the compiler's dynamic
 * scheduler) are built on: CoroAMU's await/asignal in software.
 *
 *   memcoro_waiter w;
 *   memcoro_waiter_init(&w);        bind to the calling coroutine or thread
 *   publish &w where a signaller will find it, re-check the condition
 *   memcoro_waiter_wait(&w);        returns once memcoro_waiter_signal(&w) ran
 *
 * A signal that comes before the wait is not lost: the wait then returns at
 * once. Each armed waiter is signalled at most once. The signaller must not
 * touch the waiter after memcoro_waiter_signal returns (its owner may free it).
 */
typedef struct memcoro_waiter {
  uint64_t opaque_[2];
  struct memcoro_waiter *next, *prev; /* free for the publisher's lists */
} memcoro_waiter;

void memcoro_waiter_init(memcoro_waiter *w);
void memcoro_waiter_wait(memcoro_waiter *w);
void memcoro_waiter_signal(memcoro_waiter *w);
/* True once signalled; never blocks. */
bool memcoro_waiter_try_wait(memcoro_waiter *w);

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_CO_H */
