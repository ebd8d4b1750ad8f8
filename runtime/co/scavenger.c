/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Primary/scavenger co-scheduling on one thread (scavenger.h), after MSH:
 * the primary hands its stalls to stackful scavenger coroutines for a
 * bounded time and gets the thread back at the next scavenger yield after
 * that time.
 *
 * Each thread that registers work has a ring of scavengers (circular list;
 * tail->next runs next, so a scavenger that gave the thread back is resumed
 * after the others have had a turn). The switches go straight between
 * stacks with memcoro_ctx_switch, without an executor loop in between: the
 * primary switches to the head of the ring, a scavenger at a stall switches
 * to the next one while the primary's deadline lies ahead, and back to the
 * primary once it has passed (MSH: "normally go back to the primary, to
 * another scavenger if too close"). A scavenger whose function returns
 * leaves the ring; its stack is released by whoever runs next, once nothing
 * runs on it any more.
 *
 * Time is the time stamp counter (invariant on x86-64 machines this runs on),
 * read in ~10 ns where clock_gettime costs ~20-50 ns under a hypervisor:
 * the bound is checked at every scavenger yield, so the check must cost
 * little beside a ~100 ns miss.
 */
#define _GNU_SOURCE
#include "memcoro/scavenger.h"

#include "co_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
  SCAVENGER_STACK = 128 << 10,
  /* Finished scavengers kept with their stacks for the next ones. */
  MAX_POOLED = 16,
  CALIBRATION_NS = 2000000,
};

struct scavenger {
  void *sp; /* saved stack pointer while not running */
  memcoro_scavenger_fn fn;
  void *arg;
  struct memcoro_stack stack;
  struct scavenger *next; /* the ring, or the pool */
  void *tsan_fiber;
  void *asan_fake_stack;
};

struct scavenger_thread {
  struct scavenger *tail; /* the ring's last; tail->next runs next; NULL: empty */
  struct scavenger *current; /* running, NULL while the primary runs */
  /* Finished, its stack still the one we came from: released by the next
   * context that runs (reap). */
  struct scavenger *dead;
  struct scavenger *pool;
  unsigned pooled;
  uint64_t deadline; /* TSC value after which scavengers return */
  bool draining;     /* no primary waits: run until the ring is empty */
  /* The primary while a scavenger runs. */
  void *primary_sp;
  void *primary_fake_stack;
  void *primary_tsan_fiber;
  const void *primary_bottom; /* ASan: its stack, learnt when it switches out */
  size_t primary_size;
  bool from_primary;
  memcoro_scavenger_stats stats;
};

/* Scavengers never leave their thread, so a plain thread-local is safe in
 * their code too (unlike in executor coroutines, see co_internal.h). */
static _Thread_local struct scavenger_thread *tls;

static pthread_key_t exit_key;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static uint64_t ticks_per_ns_q16; /* ticks per ns, 16 fractional bits */
static double ticks_per_ns;

static inline uint64_t now_ticks(void) { return __builtin_ia32_rdtsc(); }

static uint64_t monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void thread_exit(void *arg);
static void process_exit(void);

static void init(void) {
  uint64_t t0 = monotonic_ns(), c0 = now_ticks(), t1;
  do
    t1 = monotonic_ns();
  while (t1 - t0 < CALIBRATION_NS);
  uint64_t c1 = now_ticks();
  ticks_per_ns = (double)(c1 - c0) / (double)(t1 - t0);
  ticks_per_ns_q16 = (uint64_t)(ticks_per_ns * 65536.0);
  if (pthread_key_create(&exit_key, thread_exit) != 0)
    memcoro_fatal("memcoro_scavenger_add: no thread-specific key left");
  atexit(process_exit);
}

double memcoro_tsc_per_ns(void) {
  pthread_once(&init_once, init);
  return ticks_per_ns;
}

static uint64_t deadline_after(uint64_t ns) {
  uint64_t now = now_ticks();
  /* 2^40 ns is 18 minutes: anything longer is "no bound", and ns below it
   * cannot overflow the product. */
  if (ns >= (uint64_t)1 << 40)
    return UINT64_MAX;
  uint64_t ticks = (ns * ticks_per_ns_q16) >> 16;
  return now + ticks < now ? UINT64_MAX : now + ticks;
}

static inline unsigned char *stack_bottom(const struct scavenger *s) {
  return s->stack.base + MEMCORO_STACK_GUARD;
}
static inline size_t stack_usable(const struct scavenger *s) { return s->stack.length - MEMCORO_STACK_GUARD; }

static void release(struct scavenger_thread *t, struct scavenger *s) {
#ifdef MEMCORO_TSAN
  __tsan_destroy_fiber(s->tsan_fiber);
#endif
#ifdef MEMCORO_ASAN
  /* Its last frames never returned: their redzones are still poisoned. */
  __asan_unpoison_memory_region(stack_bottom(s), stack_usable(s));
#endif
  if (t->pooled == MAX_POOLED) {
    munmap(s->stack.base, s->stack.length);
    free(s);
    return;
  }
  s->next = t->pool;
  t->pool = s;
  ++t->pooled;
}

/* Whatever runs after a switch: release a scavenger that finished on the
 * stack we came from, and learn the primary's stack if we came from it. */
static void arrived(struct scavenger_thread *t, const void *from_bottom, size_t from_size) {
  if (t->from_primary) {
    t->primary_bottom = from_bottom;
    t->primary_size = from_size;
    t->from_primary = false;
  }
  if (t->dead) {
    release(t, t->dead);
    t->dead = NULL;
  }
}

/* Primary -> the head of the ring; returns when a scavenger gives the thread back. */
static void enter_from_primary(struct scavenger_thread *t) {
  struct scavenger *s = t->tail->next;
  t->current = s;
  ++t->stats.switches;
  t->from_primary = true;
#ifdef MEMCORO_TSAN
  t->primary_tsan_fiber = __tsan_get_current_fiber();
#endif
  memcoro_switch_stacks(&t->primary_sp, s->sp, &t->primary_fake_stack, stack_bottom(s), stack_usable(s),
                        s->tsan_fiber);
  arrived(t, NULL, 0);
}

/* From the running scavenger s, which stays in the ring behind the others,
 * to the primary (n == NULL) or to scavenger n; returns when s runs again. */
static void leave(struct scavenger_thread *t, struct scavenger *s, struct scavenger *n) {
  t->tail = s;
  t->current = n;
  const void *from_bottom = NULL;
  size_t from_size = 0;
  if (n) {
    ++t->stats.switches;
    memcoro_switch_stacks_from(&s->sp, n->sp, &s->asan_fake_stack, stack_bottom(n), stack_usable(n),
                               n->tsan_fiber, &from_bottom, &from_size);
  } else {
    memcoro_switch_stacks_from(&s->sp, t->primary_sp, &s->asan_fake_stack, t->primary_bottom,
                               t->primary_size, t->primary_tsan_fiber, &from_bottom, &from_size);
  }
  /* Scavengers never move, so t is still this thread's. */
  arrived(t, from_bottom, from_size);
}

static noreturn void scavenger_entry(void *arg) {
  struct scavenger *s = arg;
  struct scavenger_thread *t = tls;
  const void *from_bottom = NULL;
  size_t from_size = 0;
#ifdef MEMCORO_ASAN
  __sanitizer_finish_switch_fiber(NULL, &from_bottom, &from_size);
#endif
  arrived(t, from_bottom, from_size);
  s->fn(s->arg);
  ++t->stats.completed;
  /* Out of the ring; tail->next == s while s runs. */
  if (s->next == s) {
    t->tail = NULL;
  } else {
    t->tail->next = s->next;
  }
  t->dead = s;
  struct scavenger *n = t->tail && (t->draining || now_ticks() < t->deadline) ? t->tail->next : NULL;
  t->current = n;
  void *to_sp = n ? n->sp : t->primary_sp;
  if (n)
    ++t->stats.switches;
#ifdef MEMCORO_ASAN
  /* NULL: this stack is left for good, so ASan may drop its fake frames. */
  __sanitizer_start_switch_fiber(NULL, n ? stack_bottom(n) : t->primary_bottom,
                                 n ? stack_usable(n) : t->primary_size);
#endif
#ifdef MEMCORO_TSAN
  __tsan_switch_to_fiber(n ? n->tsan_fiber : t->primary_tsan_fiber, 0);
#endif
  void *abandoned_sp;
  memcoro_ctx_switch(&abandoned_sp, to_sp);
  __builtin_unreachable();
}

static struct scavenger_thread *thread_state(void) {
  if (tls)
    return tls;
  pthread_once(&init_once, init);
  struct scavenger_thread *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  pthread_setspecific(exit_key, t);
  tls = t;
  return t;
}

bool memcoro_scavenger_add(memcoro_scavenger_fn fn, void *arg) {
  struct scavenger_thread *t = thread_state();
  if (!t || !fn)
    return false;
  struct scavenger *s = t->pool;
  if (s) {
    t->pool = s->next;
    --t->pooled;
  } else {
    s = calloc(1, sizeof *s);
    if (!s || !memcoro_stack_map(SCAVENGER_STACK, &s->stack)) {
      free(s);
      return false;
    }
  }
  s->fn = fn;
  s->arg = arg;
  s->asan_fake_stack = NULL;
  s->sp = memcoro_ctx_fresh(s->stack.base + s->stack.length, scavenger_entry, s);
#ifdef MEMCORO_TSAN
  s->tsan_fiber = __tsan_create_fiber(0);
#endif
  if (!t->tail) {
    s->next = s;
    t->tail = s;
  } else if (t->current) {
    /* Runs right after the current one, keeping tail->next == current. */
    s->next = t->current->next;
    t->current->next = s;
    if (t->tail == t->current)
      t->tail = s;
  } else {
    s->next = t->tail->next;
    t->tail->next = s;
    t->tail = s;
  }
  ++t->stats.added;
  return true;
}

void memcoro_scavenge(uint64_t ns) {
  struct scavenger_thread *t = tls;
  if (!t || !t->tail)
    return;
  struct scavenger *s = t->current;
  if (!s) {
    t->deadline = deadline_after(ns);
    ++t->stats.stalls;
    enter_from_primary(t);
    return;
  }
  /* A scavenger's own stall: hide it behind another scavenger while the
   * primary's time lasts. Alone, it goes back to the primary without
   * reading the clock (a time stamp read costs ~10 ns here). */
  if (s->next == s) {
    if (!t->draining)
      leave(t, s, NULL);
    return;
  }
  if (t->draining || now_ticks() < t->deadline)
    leave(t, s, s->next);
  else
    leave(t, s, NULL);
}

void memcoro_scavenger_yield(void) {
  struct scavenger_thread *t = tls;
  if (!t || !t->current || now_ticks() < t->deadline)
    return;
  leave(t, t->current, NULL);
}

bool memcoro_in_scavenger(void) { return tls && tls->current; }

size_t memcoro_scavenger_drain(void) {
  struct scavenger_thread *t = tls;
  if (!t)
    return 0;
  if (t->current)
    memcoro_fatal("memcoro_scavenger_drain: called from a scavenger; only the primary may drain");
  uint64_t before = t->stats.completed;
  bool was_draining = t->draining;
  t->draining = true;
  t->deadline = UINT64_MAX;
  while (t->tail)
    enter_from_primary(t);
  t->draining = was_draining;
  return t->stats.completed - before;
}

void memcoro_scavenger_get_stats(memcoro_scavenger_stats *out) {
  if (tls)
    *out = tls->stats;
  else
    memset(out, 0, sizeof *out);
}

static void free_thread_state(struct scavenger_thread *t) {
  while (t->pool) {
    struct scavenger *s = t->pool;
    t->pool = s->next;
    munmap(s->stack.base, s->stack.length);
    free(s);
  }
  free(t);
}

/* Registered work is never dropped: a thread that ends with scavengers left
 * runs them first (a key destructor runs on the exiting thread, whose
 * thread-locals still exist). */
static void thread_exit(void *arg) {
  struct scavenger_thread *t = arg;
  if (t->tail && !t->current)
    memcoro_scavenger_drain();
  tls = NULL;
  free_thread_state(t);
}

/* exit() runs no key destructors: drain the exiting thread's scavengers. */
static void process_exit(void) {
  if (tls && tls->tail && !tls->current)
    memcoro_scavenger_drain();
}
