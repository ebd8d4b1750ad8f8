/* SPDX-License-Identifier: Apache-2.0 */
/* Private to the coroutine runtime: the structures behind co.h and the
 * helpers that chan.c shares. Never installed. */
#ifndef MEMCORO_CO_INTERNAL_H
#define MEMCORO_CO_INTERNAL_H

#include "memcoro/co.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdnoreturn.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if __has_feature(address_sanitizer) || defined(__SANITIZE_ADDRESS__)
#define MEMCORO_ASAN 1
#endif
#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__)
#define MEMCORO_TSAN 1
#endif
#ifdef MEMCORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef MEMCORO_TSAN
#include <sanitizer/tsan_interface.h>
#endif

enum { MEMCORO_CACHE_LINE = 64 };

/* Swaps stacks: saves the callee-saved registers, MXCSR and the x87 control
 * word on the current stack, stores the stack pointer in *save_sp, and
 * resumes whatever was saved at load_sp. Written in assembly (switch_x86_64.c). */
void memcoro_ctx_switch(void **save_sp, void *load_sp);
/* Where a fresh coroutine's first switch "returns" to: it calls the function
 * in r13 with the coroutine in r12 as argument. */
void memcoro_ctx_trampoline(void);

/* The stack pointer of a context that has never run: its first switch-in
 * calls entry(arg) on the stack that ends at top (exclusive). entry must not
 * return. The frame is the one memcoro_ctx_switch pops (see
 * switch_x86_64.c); two zero words above the return address keep rsp
 * 16-byte aligned at the trampoline's call, as the ABI requires, and end
 * backtraces. */
static inline void *memcoro_ctx_fresh(unsigned char *top, void (*entry)(void *), void *arg) {
  uint64_t *sp = (uint64_t *)(uintptr_t)((uintptr_t)top & ~(uintptr_t)15);
  *--sp = 0;
  *--sp = 0;
  *--sp = (uint64_t)(uintptr_t)memcoro_ctx_trampoline;
  *--sp = 0;                             /* rbp */
  *--sp = 0;                             /* rbx */
  *--sp = (uint64_t)(uintptr_t)arg;      /* r12: the trampoline's argument */
  *--sp = (uint64_t)(uintptr_t)entry;    /* r13: the trampoline's callee */
  *--sp = 0;                             /* r14 */
  *--sp = 0;                             /* r15 */
  /* The ABI's initial control state: all exceptions masked, round to nearest;
   * x87 at extended precision. */
  *--sp = (uint64_t)0x1F80 | ((uint64_t)0x037F << 32);
  return sp;
}

/* memcoro_ctx_switch, announced to the sanitizers: to_bottom/to_size are the
 * bounds of the stack switched to (ASan), to_tsan_fiber its TSan fiber;
 * *fake_stack_save keeps ASan's fake frames of the stack left. When this
 * context is switched back to, ASan stores the bounds of the stack that
 * switched to it in *from_bottom and *from_size unless they are NULL. */
static inline void memcoro_switch_stacks_from(void **save_sp, void *load_sp, void **fake_stack_save,
                                              const void *to_bottom, size_t to_size, void *to_tsan_fiber,
                                              const void **from_bottom, size_t *from_size) {
#ifdef MEMCORO_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, to_bottom, to_size);
#else
  (void)fake_stack_save, (void)to_bottom, (void)to_size;
#endif
#ifdef MEMCORO_TSAN
  __tsan_switch_to_fiber(to_tsan_fiber, 0);
#else
  (void)to_tsan_fiber;
#endif
  memcoro_ctx_switch(save_sp, load_sp);
#ifdef MEMCORO_ASAN
  __sanitizer_finish_switch_fiber(*fake_stack_save, from_bottom, from_size);
#else
  (void)from_bottom, (void)from_size;
#endif
}

static inline void memcoro_switch_stacks(void **save_sp, void *load_sp, void **fake_stack_save,
                                         const void *to_bottom, size_t to_size, void *to_tsan_fiber) {
  memcoro_switch_stacks_from(save_sp, load_sp, fake_stack_save, to_bottom, to_size, to_tsan_fiber, NULL, NULL);
}

struct memcoro_stack {
  unsigned char *base; /* start of the mapping; the guard page comes first */
  size_t length;       /* whole mapping, guard included */
};

/* The PROT_NONE guard below every coroutine stack. Frames larger than the
 * guard can jump over it; 16 KiB catches ordinary recursion and arrays of a
 * few KiB at the cost of address space only. */
enum { MEMCORO_STACK_GUARD = 16 << 10 };

/* Maps a stack of `usable` bytes (a multiple of the page size) above its
 * guard; false when the memory cannot be had. */
bool memcoro_stack_map(size_t usable, struct memcoro_stack *out);

enum memcoro_after_switch {
  MEMCORO_AFTER_YIELD, /* back to the runnable queue */
  MEMCORO_AFTER_PARK,  /* commit the park of exec->park_waiter */
  MEMCORO_AFTER_EXIT,  /* finished: free the stack, tell the joiner */
};

struct memcoro_exec;

struct memcoro_co {
  void *sp; /* saved stack pointer while not running */
  struct memcoro_exec *exec;
  memcoro_co *next; /* runnable queue or inject stack */
  /* Placed on a chosen executor: never moves. Others run wherever they are
   * woken or wherever an idle executor takes them (see make_runnable). */
  bool pinned;
  memcoro_co_fn fn;
  void *arg;
  void *result;
  struct memcoro_stack stack;
  /* NULL, a joiner's memcoro_waiter, or one of the JOIN_ markers in co.c */
  _Atomic(uintptr_t) join;
  uint64_t id;
  const char *name;
  void *tsan_fiber;
  void *asan_fake_stack;
};

struct memcoro_exec {
  memcoro_sched *sched;
  unsigned index;
  pthread_t thread;
  void *sched_sp;        /* the executor loop's saved stack pointer */
  memcoro_co *current;
  memcoro_co *run_head, *run_tail; /* runnable queue: executor thread only */
  size_t run_movable;              /* how many in it are not pinned */
  /* A coroutine woken by one of ours runs next (see make_runnable). */
  memcoro_co *run_next;
  unsigned run_next_streak;
  /* Turns since the queue last held nothing we could give away while
   * another executor was idle, and the time the first one began (see
   * maybe_share_work). */
  unsigned backlog_rounds;
  uint64_t backlog_since_ns;
  enum memcoro_after_switch after;
  memcoro_waiter *park_waiter;
  void *tsan_fiber;
  const void *asan_stack_bottom; /* the executor thread's own stack */
  size_t asan_stack_size;
  void *asan_fake_stack;
  /* Other threads push woken and spawned coroutines here; on its own cache
   * line so that pushes do not bounce the executor's private fields. */
  _Alignas(MEMCORO_CACHE_LINE) _Atomic(memcoro_co *) inject;
  /* 1 while the executor sleeps (or is about to) on this futex word; apart
   * from inject so that the executor's spin does not contend with pushes. */
  _Alignas(MEMCORO_CACHE_LINE) _Atomic(uint32_t) sleeping;
  /* 1 while the executor has nothing to run and nobody has promised it work
   * yet; a busy executor that claims it (1 -> 0) hands it coroutines. Written
   * at the same moments as sleeping, so it shares its line. */
  _Atomic(uint32_t) idle;
};

struct memcoro_sched {
  unsigned executor_count;
  size_t stack_size; /* usable bytes, a multiple of the page size */
  struct memcoro_exec *execs;
  _Atomic(bool) stopping;
  _Atomic(uint32_t) next_executor;
  /* Spawned but not finished; destroy sleeps on this futex word. */
  _Atomic(uint32_t) live;
  pthread_mutex_t pool_lock;
  struct memcoro_stack *pool; /* free stacks of stack_size */
  size_t pool_count, pool_capacity;
  /* How many executors are idle: a hint that lets busy executors skip the
   * search for one on every scheduling decision. On its own line (the last
   * field, aligned), because idle executors come and go while busy ones
   * read it. */
  _Alignas(MEMCORO_CACHE_LINE) _Atomic(uint32_t) idle_executors;
};

/* The executor this thread runs, NULL on a plain thread. An unpinned
 * coroutine can resume on another executor's thread after any suspension,
 * and compilers may keep a thread-local's address in a register across a
 * call, so code that runs in coroutines reads it only through out-of-line
 * functions in co.c (memcoro_co_self, memcoro_spinning_pays), and a function
 * that suspends reads it only before the suspension, never after. */
extern _Thread_local struct memcoro_exec *memcoro_tls_exec;

/* True on a plain thread, or when the calling coroutine's executor has
 * nothing else to run: then a short spin is cheaper than parking, which would
 * leave the executor idle and make the peer pay for a wake-up. */
bool memcoro_spinning_pays(void);

/* Prints "memcoro: <message>" on stderr and aborts: for misuse that cannot be
 * reported any other way (the caller's data would otherwise be corrupted). */
noreturn void memcoro_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static inline void memcoro_futex_wait(_Atomic(uint32_t) *word, uint32_t expected) {
  /* Returns early on EINTR, EAGAIN or a spurious wake: callers loop. */
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* The same, giving up after `seconds`. */
static inline void memcoro_futex_wait_for(_Atomic(uint32_t) *word, uint32_t expected, long seconds) {
  struct timespec timeout = {.tv_sec = seconds, .tv_nsec = 0};
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

static inline void memcoro_futex_wake(_Atomic(uint32_t) *word, int count) {
  syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

static inline void memcoro_cpu_relax(void) { __builtin_ia32_pause(); }

/* A full (StoreLoad) barrier for the Dekker patterns. On x86-64 a locked
 * no-op on our own stack is one, and it costs a few cycles where MFENCE (what
 * compilers emit for a seq_cst fence) serialises dispatch on AMD CPUs and
 * waits far longer; Linux's smp_mb() makes the same choice. ThreadSanitizer
 * cannot see inside asm, so sanitizer builds use the C11 fence. */
static inline void memcoro_full_fence(void) {
#if defined(__x86_64__) && !defined(MEMCORO_TSAN)
  __asm__ volatile("lock orq $0, (%%rsp)" ::: "memory", "cc");
#else
  atomic_thread_fence(memory_order_seq_cst);
#endif
}

#endif /* MEMCORO_CO_INTERNAL_H */
