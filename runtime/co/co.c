/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stackful coroutines on executors (one worker thread each), and the waiter
 * that parks a coroutine or a thread until another one signals it.
 *
 * An executor's runnable queue is private to its thread; other threads hand
 * coroutines over through the executor's inject stack (lock-free, taken
 * whole). Parking is committed by the executor after the coroutine's stack is
 * no longer in use: a signal that arrives while the coroutine is still
 * switching out finds the waiter not yet PARKED and leaves the coroutine to
 * notice, so no wake-up is lost and no stack is ever run twice.
 *
 * Coroutines not pinned to an executor move, as goroutines do between Go's
 * Ps: a parked one woken by a coroutine of another executor runs on the
 * waker's executor, next (see make_runnable), and a busy executor hands half
 * of its queue to an idle one (see share_work). Between two executors a
 * hand-over through a channel then costs two context switches on one thread
 * instead of a futex wake-up of the other thread, and work still spreads
 * when there is enough of it.
 */
#define _GNU_SOURCE
#include "co_internal.h"

#include <assert.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>


_Thread_local struct memcoro_exec *memcoro_tls_exec;

enum {
  DEFAULT_STACK_SIZE = 64 << 10,
  GUARD_SIZE = MEMCORO_STACK_GUARD,
  ALT_STACK_SIZE = 64 << 10,
  /* A few microseconds of polling before an idle executor sleeps: enough to
   * catch a peer's quick reply when both run, short because on a machine
   * with more runnable threads than cores the peer is usually not running
   * while we spin (measured: on the shared 2-core machine such spins almost
   * never ended early). */
  SPINS_BEFORE_SLEEP = 400,
  DESTROY_REPORT_SECONDS = 10,
  MAX_POOLED_STACKS = 1024,
  RUN_NEXT_STREAK = 64,
  SHARE_WINDOW_NS = 50000,
  LONG_TURN_NS = 1000,
  SHARE_CHECK_ROUNDS = 8,
};

/* Values of memcoro_co.join besides a joiner's waiter address. */
enum { JOIN_NONE = 0, JOIN_DONE = 1, JOIN_DETACHED = 2 };

/* The inside of memcoro_waiter.opaque_. */
struct waiter_state {
  _Atomic(uint32_t) state;
  memcoro_co *co; /* NULL for a plain thread, which sleeps on state */
};
enum { WAITER_ARMED, WAITER_PARKED, WAITER_SIGNALLED };
static_assert(sizeof(struct waiter_state) <= sizeof(((memcoro_waiter *)0)->opaque_),
              "memcoro_waiter.opaque_ must hold the waiter state");
static_assert(_Alignof(struct waiter_state) <= _Alignof(memcoro_waiter),
              "memcoro_waiter must be aligned for the waiter state");

static inline struct waiter_state *waiter_state(memcoro_waiter *w) {
  return (struct waiter_state *)(void *)w->opaque_;
}

static _Atomic(uint64_t) next_co_id = 1;

noreturn void memcoro_fatal(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fputs("memcoro: ", stderr);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
  abort();
}

static inline unsigned char *stack_bottom(const memcoro_co *co) { return co->stack.base + GUARD_SIZE; }
static inline size_t stack_usable(const memcoro_co *co) { return co->stack.length - GUARD_SIZE; }

/* From a running coroutine back to its executor's loop. */
static void suspend(struct memcoro_exec *e, memcoro_co *co) {
  memcoro_switch_stacks(&co->sp, e->sched_sp, &co->asan_fake_stack, e->asan_stack_bottom,
                e->asan_stack_size, e->tsan_fiber);
}

static noreturn void co_entry(void *arg) {
  memcoro_co *co = arg;
#ifdef MEMCORO_ASAN
  __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
  co->result = co->fn(co->arg);
  /* Read only now: the coroutine may have moved to another executor. */
  struct memcoro_exec *e = co->exec;
  e->after = MEMCORO_AFTER_EXIT;
#ifdef MEMCORO_ASAN
  /* NULL: this stack is left for good, so ASan may drop its fake frames. */
  __sanitizer_start_switch_fiber(NULL, e->asan_stack_bottom, e->asan_stack_size);
#endif
#ifdef MEMCORO_TSAN
  __tsan_switch_to_fiber(e->tsan_fiber, 0);
#endif
  void *abandoned_sp;
  memcoro_ctx_switch(&abandoned_sp, e->sched_sp);
  __builtin_unreachable();
}

/* ---- stacks --------------------------------------------------------------- */

static bool stack_get(memcoro_sched *s, struct memcoro_stack *out) {
  pthread_mutex_lock(&s->pool_lock);
  if (s->pool_count) {
    *out = s->pool[--s->pool_count];
    pthread_mutex_unlock(&s->pool_lock);
    return true;
  }
  pthread_mutex_unlock(&s->pool_lock);
  return memcoro_stack_map(s->stack_size, out);
}

bool memcoro_stack_map(size_t usable, struct memcoro_stack *out) {
  size_t length = usable + GUARD_SIZE;
  void *base = mmap(NULL, length, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED)
    return false;
  /* Stacks grow down, so the guard is the lowest part of the mapping. */
  if (mprotect(base, GUARD_SIZE, PROT_NONE) != 0) {
    munmap(base, length);
    return false;
  }
  out->base = base;
  out->length = length;
  return true;
}

static void stack_put(memcoro_sched *s, struct memcoro_stack stack) {
#ifdef MEMCORO_ASAN
  /* The finished coroutine's last frames never returned, so their redzones
   * are still poisoned; the next coroutine must start from clean shadow. */
  __asan_unpoison_memory_region(stack.base + GUARD_SIZE, stack.length - GUARD_SIZE);
#endif
  pthread_mutex_lock(&s->pool_lock);
  if (s->pool_count == MAX_POOLED_STACKS) {
    /* A burst of coroutines should not pin its stacks' memory for good. */
    pthread_mutex_unlock(&s->pool_lock);
    munmap(stack.base, stack.length);
    return;
  }
  if (s->pool_count == s->pool_capacity) {
    size_t capacity = s->pool_capacity ? 2 * s->pool_capacity : 64;
    struct memcoro_stack *grown = realloc(s->pool, capacity * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&s->pool_lock);
      munmap(stack.base, stack.length);
      return;
    }
    s->pool = grown;
    s->pool_capacity = capacity;
  }
  s->pool[s->pool_count++] = stack;
  pthread_mutex_unlock(&s->pool_lock);
}

/* ---- stack overflow report ---------------------------------------------- */

static struct sigaction previous_segv;
static pthread_once_t segv_once = PTHREAD_ONCE_INIT;

/* snprintf is not async-signal-safe; these are. */
static size_t put_str(char *buf, size_t at, size_t cap, const char *s) {
  while (*s && at + 1 < cap)
    buf[at++] = *s++;
  return at;
}

static size_t put_uint(char *buf, size_t at, size_t cap, uint64_t v, unsigned base) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  if (base == 16)
    at = put_str(buf, at, cap, "0x");
  while (n && at + 1 < cap)
    buf[at++] = digits[--n];
  return at;
}

static void on_segv(int sig, siginfo_t *info, void *ucontext) {
  struct memcoro_exec *e = memcoro_tls_exec;
  memcoro_co *co = e ? e->current : NULL;
  uintptr_t fault = (uintptr_t)info->si_addr;
  if (co && fault >= (uintptr_t)co->stack.base && fault < (uintptr_t)stack_bottom(co)) {
    char msg[512];
    size_t n = put_str(msg, 0, sizeof msg, "memcoro: stack overflow in coroutine ");
    n = put_uint(msg, n, sizeof msg, co->id, 10);
    if (co->name) {
      n = put_str(msg, n, sizeof msg, " \"");
      n = put_str(msg, n, sizeof msg, co->name);
      n = put_str(msg, n, sizeof msg, "\"");
    }
    n = put_str(msg, n, sizeof msg, " (entry ");
    n = put_uint(msg, n, sizeof msg, (uintptr_t)co->fn, 16);
    n = put_str(msg, n, sizeof msg, ", executor ");
    n = put_uint(msg, n, sizeof msg, e->index, 10);
    n = put_str(msg, n, sizeof msg, "): fault at ");
    n = put_uint(msg, n, sizeof msg, fault, 16);
    n = put_str(msg, n, sizeof msg, " in the guard below its ");
    n = put_uint(msg, n, sizeof msg, stack_usable(co), 10);
    n = put_str(msg, n, sizeof msg, "-byte stack; raise memcoro_sched_options.stack_size\n");
    ssize_t ignored = write(STDERR_FILENO, msg, n);
    (void)ignored;
    /* Returning re-runs the faulting access under the default action, so the
     * process dies of SIGSEGV as it would have without us. */
    signal(SIGSEGV, SIG_DFL);
    return;
  }
  if (previous_segv.sa_flags & SA_SIGINFO) {
    previous_segv.sa_sigaction(sig, info, ucontext);
  } else if (previous_segv.sa_handler == SIG_DFL || previous_segv.sa_handler == SIG_IGN) {
    signal(SIGSEGV, SIG_DFL);
  } else {
    previous_segv.sa_handler(sig);
  }
}

static void install_segv_handler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
}

/* The handler cannot run on the overflowing stack; executors get an
 * alternate one unless the thread has one already (sanitizers install theirs
 * and free it themselves). Returns what to free at thread exit. */
static void *install_alt_stack(void) {
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return NULL;
  void *mem = malloc(ALT_STACK_SIZE);
  if (!mem)
    return NULL;
  stack_t ss = {.ss_sp = mem, .ss_size = ALT_STACK_SIZE, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0) {
    free(mem);
    return NULL;
  }
  return mem;
}

static void remove_alt_stack(void *mem) {
  if (!mem)
    return;
  stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
  sigaltstack(&ss, NULL);
  free(mem);
}

/* ---- executor queues ------------------------------------------------------ */

static void run_queue_push(struct memcoro_exec *e, memcoro_co *co) {
  co->next = NULL;
  if (e->run_tail)
    e->run_tail->next = co;
  else
    e->run_head = co;
  e->run_tail = co;
  e->run_movable += !co->pinned;
}

/* The run-next slot first, but never more than RUN_NEXT_STREAK times in a
 * row, so that two coroutines waking each other cannot starve the queue. */
static memcoro_co *run_queue_pop(struct memcoro_exec *e) {
  memcoro_co *co = e->run_next;
  if (co && (e->run_next_streak < RUN_NEXT_STREAK || !e->run_head)) {
    e->run_next = NULL;
    ++e->run_next_streak;
    return co;
  }
  e->run_next_streak = 0;
  co = e->run_head;
  if (co) {
    e->run_head = co->next;
    if (!e->run_head)
      e->run_tail = NULL;
    e->run_movable -= !co->pinned;
  }
  return co;
}

static void wake_executor(struct memcoro_exec *e) {
  /* seq_cst pairs with the executor's store of sleeping=1 followed by its
   * seq_cst load of inject: either it sees our push, or we see it asleep. */
  if (atomic_load_explicit(&e->sleeping, memory_order_seq_cst) &&
      atomic_exchange_explicit(&e->sleeping, 0, memory_order_relaxed))
    memcoro_futex_wake(&e->sleeping, 1);
}

/* Pushes the chain first .. last (linked by next, newest first: the drain
 * reverses it) in one step, then makes sure the executor is awake. */
static void inject_push_chain(struct memcoro_exec *e, memcoro_co *first, memcoro_co *last) {
  memcoro_co *head = atomic_load_explicit(&e->inject, memory_order_relaxed);
  do {
    last->next = head;
    /* seq_cst: release publishes the coroutines' fields to the executor,
     * and the total order orders this push before wake_executor's load of
     * sleeping. */
  } while (!atomic_compare_exchange_weak_explicit(&e->inject, &head, first, memory_order_seq_cst,
                                                  memory_order_relaxed));
  wake_executor(e);
}

static void inject_push(struct memcoro_exec *e, memcoro_co *co) { inject_push_chain(e, co, co); }

/* Queues a woken coroutine. On an executor of the same scheduler that may
 * run it (its own, or any if it is not pinned), it goes into the run-next
 * slot, as in Go: in a hand-over through a channel the peer that can use the
 * freed slot (or the new message) then runs as soon as the waker parks,
 * instead of after every other runnable coroutine, which would find nothing
 * to do and park again, and without waking another thread (a futex call
 * here, and the sleeper's wake-up latency: microseconds, where two switches
 * cost 16 ns). Otherwise it goes to its executor's inject stack. */
static void make_runnable(memcoro_co *co) {
  struct memcoro_exec *here = memcoro_tls_exec;
  if (here && here->sched == co->exec->sched && (here == co->exec || !co->pinned)) {
    /* co is parked, so no thread runs or queues it: we may move it. */
    co->exec = here;
    if (here->run_next)
      run_queue_push(here, here->run_next);
    here->run_next = co;
  } else {
    inject_push(co->exec, co);
  }
}

static void drain_inject(struct memcoro_exec *e) {
  if (!atomic_load_explicit(&e->inject, memory_order_relaxed))
    return;
  /* acquire: pairs with the pushers' release, so each coroutine's fields
   * (and what its waker wrote before signalling) are visible. */
  memcoro_co *lifo = atomic_exchange_explicit(&e->inject, NULL, memory_order_acquire);
  memcoro_co *fifo = NULL;
  while (lifo) {
    memcoro_co *next = lifo->next;
    lifo->next = fifo;
    fifo = lifo;
    lifo = next;
  }
  while (fifo) {
    memcoro_co *next = fifo->next;
    run_queue_push(e, fifo);
    fifo = next;
  }
}

/* Called with unpinned coroutines queued besides the one about to run and
 * some executor idle (Go's work stealing, done by the victim so that run queues
 * stay private): claims one idle executor and gives it half of our unpinned
 * queued coroutines, oldest first, in one push and one wake-up. */
static void share_work(struct memcoro_exec *e) {
  memcoro_sched *s = e->sched;
  struct memcoro_exec *to = NULL;
  for (unsigned i = 1; i < s->executor_count && !to; ++i) {
    struct memcoro_exec *x = &s->execs[(e->index + i) % s->executor_count];
    uint32_t expected = 1;
    /* relaxed: the flag only picks which executor gets the work; the inject
     * push publishes the coroutines and wakes it. */
    if (atomic_load_explicit(&x->idle, memory_order_relaxed) &&
        atomic_compare_exchange_strong_explicit(&x->idle, &expected, 0, memory_order_relaxed,
                                                memory_order_relaxed)) {
      atomic_fetch_sub_explicit(&s->idle_executors, 1, memory_order_relaxed);
      to = x;
    }
  }
  if (!to)
    return;
  size_t give = (e->run_movable + 1) / 2;
  e->run_movable -= give;
  memcoro_co *first = NULL, *last = NULL, *keep_head = NULL, *keep_tail = NULL;
  for (memcoro_co *co = e->run_head, *next; co; co = next) {
    next = co->next;
    if (give && !co->pinned) {
      --give;
      co->exec = to;
      co->next = first; /* newest first, as inject_push_chain wants */
      first = co;
      if (!last)
        last = co;
    } else {
      co->next = NULL;
      if (keep_tail)
        keep_tail->next = co;
      else
        keep_head = co;
      keep_tail = co;
    }
  }
  e->run_head = keep_head;
  e->run_tail = keep_tail;
  inject_push_chain(to, first, last);
}

/* Shares work only when a second thread can help: our queue has held
 * something to give for SHARE_WINDOW_NS with an executor idle, and its
 * coroutines ran for LONG_TURN_NS or more per turn on average. Coroutines
 * that hand messages to each other take turns of tens of nanoseconds and
 * keep a short queue full for good, yet gain nothing from a second thread:
 * they wake each other across threads and bounce between caches (measured,
 * 2 executors: SPMC with 32 receivers went from 28 to 85 ns per message when
 * sharing at every turn, to 50 ns when sharing after 50 us of backlog).
 * Work that computes takes long turns, and then a wake-up's few
 * microseconds are small beside what the idle executor takes on. The clock
 * is read on the second turn (so that long turns are seen at once), then
 * every SHARE_CHECK_ROUNDS turns, to keep it off the switch path. */
static void maybe_share_work(struct memcoro_exec *e) {
  unsigned rounds = ++e->backlog_rounds;
  if (rounds > 2 && rounds % SHARE_CHECK_ROUNDS)
    return;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  if (rounds == 1) {
    e->backlog_since_ns = now;
    return;
  }
  uint64_t elapsed = now - e->backlog_since_ns;
  if (elapsed < SHARE_WINDOW_NS)
    return;
  if (elapsed >= (uint64_t)(rounds - 1) * LONG_TURN_NS)
    share_work(e);
  e->backlog_rounds = 0;
}

/* ---- the executor loop ------------------------------------------------------ */

static void commit_park(struct memcoro_exec *e, memcoro_co *co, memcoro_waiter *w) {
  struct waiter_state *ws = waiter_state(w);
  uint32_t expected = WAITER_ARMED;
  /* acq_rel: release makes the now-unused stack and co's fields visible to
   * the signaller that will hand co back; acquire (on failure) sees what a
   * signaller wrote before signalling while co was switching out. */
  if (!atomic_compare_exchange_strong_explicit(&ws->state, &expected, WAITER_PARKED,
                                               memory_order_acq_rel, memory_order_acquire))
    run_queue_push(e, co);
}

static void finish(struct memcoro_exec *e, memcoro_co *co) {
  memcoro_sched *s = e->sched;
#ifdef MEMCORO_TSAN
  __tsan_destroy_fiber(co->tsan_fiber);
#endif
  stack_put(s, co->stack);
  co->stack.base = NULL;
  /* acq_rel: release publishes co->result to the joiner; after this
   * exchange co belongs to the joiner (or to us if detached). */
  uintptr_t join = atomic_exchange_explicit(&co->join, JOIN_DONE, memory_order_acq_rel);
  if (join == JOIN_DETACHED)
    free(co);
  else if (join != JOIN_NONE)
    memcoro_waiter_signal((memcoro_waiter *)join);
  if (atomic_fetch_sub_explicit(&s->live, 1, memory_order_acq_rel) == 1)
    memcoro_futex_wake(&s->live, INT_MAX);
}

static void run(struct memcoro_exec *e, memcoro_co *co) {
  e->current = co;
  memcoro_switch_stacks(&e->sched_sp, co->sp, &e->asan_fake_stack, stack_bottom(co), stack_usable(co),
                co->tsan_fiber);
  e->current = NULL;
  switch (e->after) {
  case MEMCORO_AFTER_YIELD:
    run_queue_push(e, co);
    break;
  case MEMCORO_AFTER_PARK:
    commit_park(e, co, e->park_waiter);
    break;
  case MEMCORO_AFTER_EXIT:
    finish(e, co);
    break;
  }
}

static void idle(struct memcoro_exec *e) {
  memcoro_sched *s = e->sched;
  /* relaxed: a busy executor that sees the flag late (or early) only shares
   * work a little later (or with one that just found its own). */
  atomic_store_explicit(&e->idle, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&s->idle_executors, 1, memory_order_relaxed);
  for (int i = 0; i < SPINS_BEFORE_SLEEP; ++i) {
    if (atomic_load_explicit(&e->inject, memory_order_relaxed) ||
        atomic_load_explicit(&s->stopping, memory_order_relaxed))
      return;
    memcoro_cpu_relax();
  }
  /* seq_cst store then seq_cst loads: see wake_executor and
   * memcoro_sched_destroy, which do the mirror image. */
  atomic_store_explicit(&e->sleeping, 1, memory_order_seq_cst);
  if (!atomic_load_explicit(&e->inject, memory_order_seq_cst) &&
      !atomic_load_explicit(&s->stopping, memory_order_seq_cst))
    memcoro_futex_wait(&e->sleeping, 1);
  atomic_store_explicit(&e->sleeping, 0, memory_order_relaxed);
  /* relaxed, as above; whoever turns the flag from 1 to 0 uncounts it. */
  if (atomic_exchange_explicit(&e->idle, 0, memory_order_relaxed))
    atomic_fetch_sub_explicit(&s->idle_executors, 1, memory_order_relaxed);
}

static void *executor_main(void *arg) {
  struct memcoro_exec *e = arg;
  memcoro_tls_exec = e;
  void *alt_stack = install_alt_stack();
#ifdef MEMCORO_ASAN
  /* Every switch back to this thread's own stack tells ASan its bounds, and
   * coroutines that moved here never entered from it, so take them now. */
  pthread_attr_t attr;
  void *bottom;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &bottom, &e->asan_stack_size);
    e->asan_stack_bottom = bottom;
    pthread_attr_destroy(&attr);
  }
#endif
#ifdef MEMCORO_TSAN
  e->tsan_fiber = __tsan_get_current_fiber();
#endif
  for (;;) {
    drain_inject(e);
    memcoro_co *co = run_queue_pop(e);
    if (co) {
      /* relaxed: a hint, see idle_executors. */
      if (e->run_movable && atomic_load_explicit(&e->sched->idle_executors, memory_order_relaxed))
        maybe_share_work(e);
      else
        e->backlog_rounds = 0;
      run(e, co);
      continue;
    }
    /* acquire: destroy sets stopping only after every coroutine finished. */
    if (atomic_load_explicit(&e->sched->stopping, memory_order_acquire))
      break;
    idle(e);
  }
  remove_alt_stack(alt_stack);
  memcoro_tls_exec = NULL;
  return NULL;
}

/* ---- public: scheduler ---------------------------------------------------- */

/* The CPU executor n is pinned to: the n-th (modulo) of those this process
 * may run on (a container or taskset may allow fewer than are online), so
 * that pinning never asks for a forbidden one. */
static int nth_allowed_cpu(unsigned n) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) == 0)
    return 0;
  n %= (unsigned)CPU_COUNT(&allowed);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed) && n-- == 0)
      return cpu;
  return 0;
}

static void stop_executors(memcoro_sched *s, unsigned started) {
  atomic_store_explicit(&s->stopping, true, memory_order_seq_cst);
  for (unsigned i = 0; i < started; ++i) {
    atomic_store_explicit(&s->execs[i].sleeping, 0, memory_order_seq_cst);
    memcoro_futex_wake(&s->execs[i].sleeping, 1);
  }
  for (unsigned i = 0; i < started; ++i)
    pthread_join(s->execs[i].thread, NULL);
}

memcoro_sched *memcoro_sched_create(const memcoro_sched_options *options) {
  memcoro_sched_options o = options ? *options : (memcoro_sched_options){0};
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1)
    cpus = 1;
  if (o.executors == 0)
    o.executors = (unsigned)cpus;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t stack_size = o.stack_size ? o.stack_size : DEFAULT_STACK_SIZE;
  stack_size = (stack_size + page - 1) / page * page;

  memcoro_sched *s = aligned_alloc(MEMCORO_CACHE_LINE, sizeof *s);
  struct memcoro_exec *execs =
      aligned_alloc(MEMCORO_CACHE_LINE, o.executors * sizeof(struct memcoro_exec));
  if (!s || !execs) {
    fprintf(stderr, "memcoro: out of memory for %u executors\n", o.executors);
    free(s);
    free(execs);
    return NULL;
  }
  memset(s, 0, sizeof *s);
  memset(execs, 0, o.executors * sizeof *execs);
  s->executor_count = o.executors;
  s->stack_size = stack_size;
  s->execs = execs;
  pthread_mutex_init(&s->pool_lock, NULL);
  pthread_once(&segv_once, install_segv_handler);

  for (unsigned i = 0; i < o.executors; ++i) {
    struct memcoro_exec *e = &execs[i];
    e->sched = s;
    e->index = i;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (o.pin) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(nth_allowed_cpu(i), &set);
      pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    int err = pthread_create(&e->thread, &attr, executor_main, e);
    pthread_attr_destroy(&attr);
    if (err) {
      fprintf(stderr, "memcoro: cannot start executor %u: %s\n", i, strerror(err));
      stop_executors(s, i);
      pthread_mutex_destroy(&s->pool_lock);
      free(execs);
      free(s);
      return NULL;
    }
  }
  return s;
}

void memcoro_sched_destroy(memcoro_sched *s) {
  if (!s)
    return;
  if (memcoro_tls_exec && memcoro_tls_exec->sched == s)
    memcoro_fatal("memcoro_sched_destroy called from one of its own coroutines");
  uint32_t live;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  long reported = 0;
  /* acquire: what the last coroutines did happens before the teardown. */
  while ((live = atomic_load_explicit(&s->live, memory_order_acquire)) != 0) {
    memcoro_futex_wait_for(&s->live, live, DESTROY_REPORT_SECONDS);
    clock_gettime(CLOCK_MONOTONIC, &now);
    long waited = (long)(now.tv_sec - start.tv_sec);
    /* A coroutine parked on a channel that nobody will close makes this
     * wait forever; say so rather than hang silently. */
    /* relaxed: only a progress message. */
    uint32_t left = atomic_load_explicit(&s->live, memory_order_relaxed);
    if (waited >= reported + DESTROY_REPORT_SECONDS && left != 0) {
      reported = waited;
      fprintf(stderr,
              "memcoro_sched_destroy: still waiting after %ld s for %u coroutines to finish "
              "(parked on a channel or waiter that nobody will signal?)\n",
              waited, (unsigned)left);
    }
  }
  stop_executors(s, s->executor_count);
  for (size_t i = 0; i < s->pool_count; ++i)
    munmap(s->pool[i].base, s->pool[i].length);
  free(s->pool);
  pthread_mutex_destroy(&s->pool_lock);
  free(s->execs);
  free(s);
}

unsigned memcoro_sched_executors(const memcoro_sched *s) { return s->executor_count; }

/* ---- public: coroutines --------------------------------------------------- */

memcoro_co *memcoro_co_spawn(memcoro_sched *s, memcoro_co_fn fn, void *arg,
                             const memcoro_co_attr *attr) {
  if (!s || !fn)
    return NULL;
  int want = attr ? attr->executor : MEMCORO_ANY_EXECUTOR;
  if (want != MEMCORO_ANY_EXECUTOR && (want < 0 || (unsigned)want >= s->executor_count)) {
    fprintf(stderr, "memcoro_co_spawn: executor %d does not exist (the scheduler has %u)\n",
            want, s->executor_count);
    return NULL;
  }
  memcoro_co *co = calloc(1, sizeof *co);
  if (!co || !stack_get(s, &co->stack)) {
    free(co);
    return NULL;
  }
  unsigned index = want == MEMCORO_ANY_EXECUTOR
                       ? atomic_fetch_add_explicit(&s->next_executor, 1, memory_order_relaxed) %
                             s->executor_count
                       : (unsigned)want;
  co->exec = &s->execs[index];
  co->pinned = want != MEMCORO_ANY_EXECUTOR;
  co->fn = fn;
  co->arg = arg;
  co->name = attr ? attr->name : NULL;
  co->id = atomic_fetch_add_explicit(&next_co_id, 1, memory_order_relaxed);
  atomic_init(&co->join, JOIN_NONE);

  co->sp = memcoro_ctx_fresh(co->stack.base + co->stack.length, co_entry, co);
#ifdef MEMCORO_TSAN
  co->tsan_fiber = __tsan_create_fiber(0);
#endif
  atomic_fetch_add_explicit(&s->live, 1, memory_order_relaxed);
  /* New coroutines queue behind the runnable ones, wherever they come from. */
  if (memcoro_tls_exec == co->exec)
    run_queue_push(co->exec, co);
  else
    inject_push(co->exec, co);
  return co;
}

void *memcoro_co_join(memcoro_co *co) {
  if (co == memcoro_co_self())
    memcoro_fatal("memcoro_co_join: coroutine %llu cannot join itself",
                  (unsigned long long)co->id);
  memcoro_waiter w;
  memcoro_waiter_init(&w);
  uintptr_t seen = JOIN_NONE;
  /* acq_rel: release publishes the waiter to finish(); acquire (on failure,
   * seeing JOIN_DONE) makes the result visible. */
  if (atomic_compare_exchange_strong_explicit(&co->join, &seen, (uintptr_t)&w,
                                              memory_order_acq_rel, memory_order_acquire))
    memcoro_waiter_wait(&w);
  else if (seen != JOIN_DONE)
    memcoro_fatal("memcoro_co_join: coroutine %llu was already joined or detached",
                  (unsigned long long)co->id);
  void *result = co->result;
  free(co);
  return result;
}

void memcoro_co_detach(memcoro_co *co) {
  uintptr_t seen = JOIN_NONE;
  if (atomic_compare_exchange_strong_explicit(&co->join, &seen, JOIN_DETACHED,
                                              memory_order_acq_rel, memory_order_acquire))
    return;
  if (seen != JOIN_DONE)
    memcoro_fatal("memcoro_co_detach: coroutine %llu was already joined or detached",
                  (unsigned long long)co->id);
  free(co);
}

void memcoro_co_yield(void) {
  struct memcoro_exec *e = memcoro_tls_exec;
  if (!e || !e->current) {
    sched_yield();
    return;
  }
  e->after = MEMCORO_AFTER_YIELD;
  suspend(e, e->current);
}

memcoro_co *memcoro_co_self(void) {
  struct memcoro_exec *e = memcoro_tls_exec;
  return e ? e->current : NULL;
}

bool memcoro_spinning_pays(void) {
  struct memcoro_exec *e = memcoro_tls_exec;
  /* relaxed: a hint; a push that we miss makes us spin a little longer. */
  return !e || (!e->run_head && !e->run_next &&
                !atomic_load_explicit(&e->inject, memory_order_relaxed));
}

uint64_t memcoro_co_id(const memcoro_co *co) { return co->id; }

/* ---- public: waiter ----------------------------------------------------- */

void memcoro_waiter_init(memcoro_waiter *w) {
  struct waiter_state *ws = waiter_state(w);
  atomic_init(&ws->state, WAITER_ARMED);
  ws->co = memcoro_co_self();
  w->next = w->prev = NULL;
}

bool memcoro_waiter_try_wait(memcoro_waiter *w) {
  return atomic_load_explicit(&waiter_state(w)->state, memory_order_acquire) == WAITER_SIGNALLED;
}

void memcoro_waiter_wait(memcoro_waiter *w) {
  struct waiter_state *ws = waiter_state(w);
  if (memcoro_waiter_try_wait(w))
    return;
  if (ws->co) {
    struct memcoro_exec *e = ws->co->exec;
    if (memcoro_co_self() != ws->co)
      memcoro_fatal("memcoro_waiter_wait: the waiter belongs to coroutine %llu, not the caller",
                    (unsigned long long)ws->co->id);
    e->after = MEMCORO_AFTER_PARK;
    e->park_waiter = w;
    suspend(e, ws->co);
    /* Resumed only once signalled; acquire what the signaller wrote. */
    if (!memcoro_waiter_try_wait(w))
      memcoro_fatal("memcoro_waiter_wait: coroutine resumed without a signal");
    return;
  }
  uint32_t expected = WAITER_ARMED;
  /* acq_rel pairs with the signaller's exchange either way round. */
  if (!atomic_compare_exchange_strong_explicit(&ws->state, &expected, WAITER_PARKED,
                                               memory_order_acq_rel, memory_order_acquire))
    return;
  while (atomic_load_explicit(&ws->state, memory_order_acquire) != WAITER_SIGNALLED)
    memcoro_futex_wait(&ws->state, WAITER_PARKED);
}

void memcoro_waiter_signal(memcoro_waiter *w) {
  struct waiter_state *ws = waiter_state(w);
  /* Read before the exchange: once the waiter sees SIGNALLED it may return
   * and its memory may go. */
  memcoro_co *co = ws->co;
  /* acq_rel: release publishes what we wrote before signalling; acquire
   * (seeing PARKED) makes the parked coroutine's saved state ours to hand on. */
  uint32_t old = atomic_exchange_explicit(&ws->state, WAITER_SIGNALLED, memory_order_acq_rel);
  if (old == WAITER_SIGNALLED)
    memcoro_fatal("memcoro_waiter_signal: waiter signalled twice");
  if (old != WAITER_PARKED)
    return;
  if (co)
    make_runnable(co);
  else
    memcoro_futex_wake(&ws->state, 1); /* a stale address here only wakes nobody */
}
