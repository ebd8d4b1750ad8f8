/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels: a ring buffer with one of four synchronisation modes, and the
 * Sunway paper's mutual wake-up (a receive that frees a slot wakes a parked
 * sender, a send that fills one wakes a parked receiver).
 *
 * SPSC is Lamport's queue: each side owns its index and keeps a cached copy
 * of the other side's, so it reads the other side's cache line only when the
 * cached copy says full (empty). Loads and stores only.
 *
 * The other modes give every slot a stamp that says whose turn it is: a slot
 * at position p is free for the sender when stamp == p and holds a message
 * for the receiver when stamp == p + 1; the receiver hands it to the next lap
 * with stamp == p + one_lap. A multi side claims its position with a CAS on
 * its index; a single side just stores it. Positions carry the lap in their
 * high bits (one_lap is a power of two above the capacity), so any capacity
 * works without division.
 *
 * Wake-ups without lost signals (a Dekker pattern): a party about to park
 * first counts itself in wait_state, then runs a full fence and tries
 * again; a party that succeeds runs a full fence after its success and then
 * reads wait_state. One of the two always sees the other. The fence is the
 * only barrier on the fast path and touches no shared data (see
 * memcoro_full_fence), so SPSC still has no atomic read-modify-write.
 */
#define _GNU_SOURCE
#include "memcoro/chan.h"

#include "co_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  CHAN_MAGIC = 0x6368616e,
  CHAN_DEAD = 0xdeadc4a7,
  /* Retries before parking when nothing else could run meanwhile: about a
   * microsecond, a few times what a peer on another core needs per message. */
  SPINS_BEFORE_PARK = 100,
  MAX_BACKOFF = 64,
};

/* wait_state: bit 0 closed, then two counters of parked parties. */
#define WAIT_CLOSED ((uint64_t)1)
#define WAIT_SEND_ONE ((uint64_t)1 << 1)
#define WAIT_SEND_MASK ((((uint64_t)1 << 31) - 1) << 1)
#define WAIT_RECV_ONE ((uint64_t)1 << 32)
#define WAIT_RECV_MASK (~(uint64_t)0 << 32)

struct wait_list {
  memcoro_waiter *head, *tail;
};

struct memcoro_chan {
  /* Read-only after creation, shared by both sides. */
  uint32_t magic;
  memcoro_chan_mode mode;
  bool check_owners;
  size_t elem_size;
  size_t capacity;
  size_t stride; /* bytes per slot: the stamp, then the element */
  uint64_t one_lap;
  unsigned char *slots;

  /* The sending side's line, apart from the receiving side's so that the
   * two do not false-share: each writes only its own. */
  _Alignas(MEMCORO_CACHE_LINE) _Atomic(uint64_t) tail;
  uint64_t head_cache; /* SPSC: the last head the sender saw */
  size_t tail_index;   /* SPSC: tail modulo capacity */
  _Atomic(uintptr_t) sender;

  _Alignas(MEMCORO_CACHE_LINE) _Atomic(uint64_t) head;
  uint64_t tail_cache; /* SPSC: the last tail the receiver saw */
  size_t head_index;   /* SPSC: head modulo capacity */
  _Atomic(uintptr_t) receiver;

  /* Touched on every operation only by a load; written when parties park. */
  _Alignas(MEMCORO_CACHE_LINE) _Atomic(uint64_t) wait_state;
  _Atomic(uint32_t) wait_lock; /* guards the two lists: see lock_waiters */
  struct wait_list send_waiters, recv_waiters;
};

static_assert(offsetof(struct memcoro_chan, head) - offsetof(struct memcoro_chan, tail) >=
                  MEMCORO_CACHE_LINE,
              "the two ends of a channel must sit on different cache lines");

static inline _Atomic(uint64_t) *stamp_at(const memcoro_chan *ch, size_t index) {
  return (_Atomic(uint64_t) *)(void *)(ch->slots + index * ch->stride);
}

static inline unsigned char *data_at(const memcoro_chan *ch, size_t index) {
  return ch->slots + index * ch->stride + sizeof(uint64_t);
}

/* Constant sizes let the compiler inline the copy for the common messages. */
static inline void copy_elem(void *dst, const void *src, size_t n) {
  switch (n) {
  case 4:
    memcpy(dst, src, 4);
    break;
  case 8:
    memcpy(dst, src, 8);
    break;
  case 16:
    memcpy(dst, src, 16);
    break;
  default:
    memcpy(dst, src, n);
  }
}

static const char *mode_name(memcoro_chan_mode mode) {
  switch (mode) {
  case MEMCORO_CHAN_SPSC:
    return "SPSC";
  case MEMCORO_CHAN_SPMC:
    return "SPMC";
  case MEMCORO_CHAN_MPSC:
    return "MPSC";
  case MEMCORO_CHAN_MPMC:
    return "MPMC";
  }
  return "unknown";
}

static inline bool single_sender(const memcoro_chan *ch) {
  return ch->mode == MEMCORO_CHAN_SPSC || ch->mode == MEMCORO_CHAN_SPMC;
}

static inline bool single_receiver(const memcoro_chan *ch) {
  return ch->mode == MEMCORO_CHAN_SPSC || ch->mode == MEMCORO_CHAN_MPSC;
}

static inline void check_live(const memcoro_chan *ch, const char *op) {
  if (__builtin_expect(!ch, 0))
    memcoro_fatal("%s: NULL channel", op);
  if (__builtin_expect(ch->magic != CHAN_MAGIC, 0))
    memcoro_fatal("%s: %p is not a live channel (destroyed, or never created)", op,
                  (const void *)ch);
}

static inline void check_call(const memcoro_chan *ch, size_t elem_size, const char *op) {
  check_live(ch, op);
  if (__builtin_expect(elem_size != ch->elem_size, 0))
    memcoro_fatal("%s: element size %zu does not match the channel's %zu", op, elem_size,
                  ch->elem_size);
}

/* Who is calling: the coroutine, or (on a plain thread) this thread. */
static _Thread_local char thread_identity;
static uintptr_t caller_identity(void) {
  memcoro_co *co = memcoro_co_self();
  return co ? (uintptr_t)co : (uintptr_t)&thread_identity;
}

static void check_owner(memcoro_chan *ch, _Atomic(uintptr_t) *owner, const char *side) {
  uintptr_t me = caller_identity();
  uintptr_t seen = 0;
  /* relaxed: this is a diagnostic, it orders nothing. */
  if (atomic_compare_exchange_strong_explicit(owner, &seen, me, memory_order_relaxed,
                                              memory_order_relaxed) ||
      seen == me)
    return;
  memcoro_fatal("a second %s on %s channel %p: the mode allows only one (use %s)", side,
                mode_name(ch->mode), (void *)ch,
                owner == &ch->sender ? "an MP mode" : "an MC mode");
}

/* ---- the ring ------------------------------------------------------------ */

static inline uint64_t next_position(const memcoro_chan *ch, uint64_t pos) {
  uint64_t index = pos & (ch->one_lap - 1);
  return index + 1 < ch->capacity ? pos + 1 : (pos & ~(ch->one_lap - 1)) + ch->one_lap;
}

static bool spsc_push(memcoro_chan *ch, const void *elem) {
  uint64_t tail = atomic_load_explicit(&ch->tail, memory_order_relaxed);
  if (tail - ch->head_cache == ch->capacity) {
    /* acquire: the receiver has finished reading the slots it released. */
    ch->head_cache = atomic_load_explicit(&ch->head, memory_order_acquire);
    if (tail - ch->head_cache == ch->capacity)
      return false;
  }
  copy_elem(data_at(ch, ch->tail_index), elem, ch->elem_size);
  if (++ch->tail_index == ch->capacity)
    ch->tail_index = 0;
  /* release: the element is written before the receiver can see it. */
  atomic_store_explicit(&ch->tail, tail + 1, memory_order_release);
  return true;
}

static bool spsc_pop(memcoro_chan *ch, void *out) {
  uint64_t head = atomic_load_explicit(&ch->head, memory_order_relaxed);
  if (head == ch->tail_cache) {
    /* acquire: pairs with the sender's release of tail. */
    ch->tail_cache = atomic_load_explicit(&ch->tail, memory_order_acquire);
    if (head == ch->tail_cache)
      return false;
  }
  copy_elem(out, data_at(ch, ch->head_index), ch->elem_size);
  if (++ch->head_index == ch->capacity)
    ch->head_index = 0;
  /* release: we have read the slot before the sender may overwrite it. */
  atomic_store_explicit(&ch->head, head + 1, memory_order_release);
  return true;
}

/* After a lost CAS on an index: wait twice as long as last time, up to
 * MAX_BACKOFF pauses. Parties on two cores that retry at once make the index
 * line bounce between them on every attempt (measured: 10 senders spread
 * over 2 executors, 52 ns per send with a single pause); backing off lets
 * the winner take several positions in a row from its own cache. */
static inline void back_off(unsigned *pauses) {
  for (unsigned i = 0; i < *pauses; ++i)
    memcoro_cpu_relax();
  if (*pauses < MAX_BACKOFF)
    *pauses *= 2;
}

static bool stamped_push(memcoro_chan *ch, const void *elem, bool claim) {
  uint64_t tail = atomic_load_explicit(&ch->tail, memory_order_relaxed);
  unsigned pauses = 1;
  for (;;) {
    size_t index = (size_t)(tail & (ch->one_lap - 1));
    _Atomic(uint64_t) *stamp = stamp_at(ch, index);
    /* acquire: the receiver of the previous lap has finished with the slot. */
    uint64_t seen = atomic_load_explicit(stamp, memory_order_acquire);
    uint64_t next = next_position(ch, tail);
    if (seen == tail) {
      if (!claim) {
        atomic_store_explicit(&ch->tail, next, memory_order_relaxed);
      } else if (!atomic_compare_exchange_weak_explicit(&ch->tail, &tail, next,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed)) {
        /* relaxed: the CAS only arbitrates who owns the slot; the stamp's
         * acquire/release carries the data. tail now holds the winner's. */
        back_off(&pauses);
        continue;
      }
      copy_elem(data_at(ch, index), elem, ch->elem_size);
      /* release: the element is written before a receiver sees the stamp. */
      atomic_store_explicit(stamp, tail + 1, memory_order_release);
      return true;
    }
    if (seen + ch->one_lap == tail + 1)
      return false; /* last lap's message is still there (or being read) */
    /* Either our tail is stale (another sender took this position: catch
     * up), or the sender of the previous position has claimed the slot but
     * not yet published: then the slot is full as far as we are concerned,
     * and waiting here for a possibly preempted thread would spin. */
    uint64_t fresh = atomic_load_explicit(&ch->tail, memory_order_relaxed);
    if (fresh == tail)
      return false;
    tail = fresh;
  }
}

static bool stamped_pop(memcoro_chan *ch, void *out, bool claim) {
  uint64_t head = atomic_load_explicit(&ch->head, memory_order_relaxed);
  unsigned pauses = 1;
  for (;;) {
    size_t index = (size_t)(head & (ch->one_lap - 1));
    _Atomic(uint64_t) *stamp = stamp_at(ch, index);
    /* acquire: pairs with the sender's release of the stamp. */
    uint64_t seen = atomic_load_explicit(stamp, memory_order_acquire);
    if (seen == head + 1) {
      uint64_t next = next_position(ch, head);
      if (!claim) {
        atomic_store_explicit(&ch->head, next, memory_order_relaxed);
      } else if (!atomic_compare_exchange_weak_explicit(&ch->head, &head, next,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed)) {
        back_off(&pauses);
        continue;
      }
      copy_elem(out, data_at(ch, index), ch->elem_size);
      /* release: the slot is read before the next lap's sender reuses it. */
      atomic_store_explicit(stamp, head + ch->one_lap, memory_order_release);
      return true;
    }
    if (seen == head)
      return false; /* empty, or its sender is still writing */
    /* Stale head (catch up), or the receiver of the previous lap has
     * claimed the slot and not yet released it: empty for us, as above. */
    uint64_t fresh = atomic_load_explicit(&ch->head, memory_order_relaxed);
    if (fresh == head)
      return false;
    head = fresh;
  }
}

static inline bool ring_push(memcoro_chan *ch, const void *elem) {
  switch (ch->mode) {
  case MEMCORO_CHAN_SPSC:
    return spsc_push(ch, elem);
  case MEMCORO_CHAN_SPMC:
    return stamped_push(ch, elem, false);
  case MEMCORO_CHAN_MPSC:
  case MEMCORO_CHAN_MPMC:
    return stamped_push(ch, elem, true);
  }
  __builtin_unreachable();
}

static inline bool ring_pop(memcoro_chan *ch, void *out) {
  switch (ch->mode) {
  case MEMCORO_CHAN_SPSC:
    return spsc_pop(ch, out);
  case MEMCORO_CHAN_MPSC:
    return stamped_pop(ch, out, false);
  case MEMCORO_CHAN_SPMC:
  case MEMCORO_CHAN_MPMC:
    return stamped_pop(ch, out, true);
  }
  __builtin_unreachable();
}

static bool spin_push(memcoro_chan *ch, const void *elem) {
  for (int i = 0; i < SPINS_BEFORE_PARK && memcoro_spinning_pays(); ++i) {
    memcoro_cpu_relax();
    if (atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & WAIT_CLOSED)
      return false;
    if (ring_push(ch, elem))
      return true;
  }
  return false;
}

static bool spin_pop(memcoro_chan *ch, void *out) {
  for (int i = 0; i < SPINS_BEFORE_PARK && memcoro_spinning_pays(); ++i) {
    memcoro_cpu_relax();
    if (atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & WAIT_CLOSED)
      return false;
    if (ring_pop(ch, out))
      return true;
  }
  return false;
}

/* ---- wait lists ------------------------------------------------------------ */

/* The lists are held for a few pointer updates at a time, so the lock is a
 * plain futex mutex (Drepper's three states: 0 free, 1 held, 2 held with
 * sleepers): one CAS to take and one exchange to drop when uncontended,
 * against pthread_mutex's several dozen instructions (a sixth of a blocking
 * transfer). Contenders spin briefly, then sleep, so that dozens of threads
 * on two cores do not spin while the holder waits for a CPU. */
enum { LOCK_FREE, LOCK_HELD, LOCK_CONTENDED, LOCK_SPINS = 64 };

static void lock_waiters(memcoro_chan *ch) {
  uint32_t seen = LOCK_FREE;
  /* acquire: the previous holder's list updates happen before ours. */
  if (atomic_compare_exchange_strong_explicit(&ch->wait_lock, &seen, LOCK_HELD,
                                              memory_order_acquire, memory_order_relaxed))
    return;
  for (int i = 0; i < LOCK_SPINS; ++i) {
    memcoro_cpu_relax();
    seen = LOCK_FREE;
    if (atomic_load_explicit(&ch->wait_lock, memory_order_relaxed) == LOCK_FREE &&
        atomic_compare_exchange_strong_explicit(&ch->wait_lock, &seen, LOCK_HELD,
                                                memory_order_acquire, memory_order_relaxed))
      return;
  }
  /* Announce a sleeper; whoever sees LOCK_CONTENDED on unlock wakes one. */
  while (atomic_exchange_explicit(&ch->wait_lock, LOCK_CONTENDED, memory_order_acquire) !=
         LOCK_FREE)
    memcoro_futex_wait(&ch->wait_lock, LOCK_CONTENDED);
}

static void unlock_waiters(memcoro_chan *ch) {
  /* release: our list updates happen before the next holder's. */
  if (atomic_exchange_explicit(&ch->wait_lock, LOCK_FREE, memory_order_release) ==
      LOCK_CONTENDED)
    memcoro_futex_wake(&ch->wait_lock, 1);
}

/* A waiter taken off its list has prev pointing at itself, so that its owner
 * can tell "still listed" from "a signal is on its way". */
static void list_append(struct wait_list *l, memcoro_waiter *w) {
  w->next = NULL;
  w->prev = l->tail;
  if (l->tail)
    l->tail->next = w;
  else
    l->head = w;
  l->tail = w;
}

static void list_unlink(struct wait_list *l, memcoro_waiter *w) {
  if (w->prev)
    w->prev->next = w->next;
  else
    l->head = w->next;
  if (w->next)
    w->next->prev = w->prev;
  else
    l->tail = w->prev;
  w->next = w->prev = w;
}

static void wake_one(memcoro_chan *ch, struct wait_list *l, uint64_t one) {
  lock_waiters(ch);
  memcoro_waiter *w = l->head;
  if (w) {
    list_unlink(l, w);
    atomic_fetch_sub_explicit(&ch->wait_state, one, memory_order_relaxed);
  }
  unlock_waiters(ch);
  if (w)
    memcoro_waiter_signal(w);
}

static void wake_all(memcoro_chan *ch, struct wait_list *l, uint64_t one) {
  lock_waiters(ch);
  memcoro_waiter *w = l->head;
  uint64_t count = 0;
  /* Marked unlisted under the lock; next still chains them for us, and
   * their owners leave it alone once they see the mark. */
  for (memcoro_waiter *it = w; it; it = it->next, ++count)
    it->prev = it;
  l->head = l->tail = NULL;
  atomic_fetch_sub_explicit(&ch->wait_state, count * one, memory_order_relaxed);
  unlock_waiters(ch);
  while (w) {
    memcoro_waiter *next = w->next; /* before the signal: w may go after it */
    memcoro_waiter_signal(w);
    w = next;
  }
}

/* Counts the caller in before it re-checks; returns wait_state as it was. */
static uint64_t register_waiter(memcoro_chan *ch, struct wait_list *l, memcoro_waiter *w,
                                uint64_t one) {
  memcoro_waiter_init(w);
  lock_waiters(ch);
  list_append(l, w);
  /* seq_cst: ordered before the re-check that follows (see the top). */
  uint64_t before = atomic_fetch_add_explicit(&ch->wait_state, one, memory_order_seq_cst);
  unlock_waiters(ch);
  memcoro_full_fence();
  return before;
}

/* The caller will not wait after all. If a waker already took it off the
 * list, wait for that signal (the waker still holds w) and pass the turn on. */
static void cancel_waiter(memcoro_chan *ch, struct wait_list *l, memcoro_waiter *w,
                          uint64_t one) {
  lock_waiters(ch);
  bool listed = w->prev != w;
  if (listed) {
    list_unlink(l, w);
    atomic_fetch_sub_explicit(&ch->wait_state, one, memory_order_relaxed);
  }
  unlock_waiters(ch);
  if (!listed) {
    memcoro_waiter_wait(w);
    if (atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & (one == WAIT_SEND_ONE ? WAIT_SEND_MASK : WAIT_RECV_MASK))
      wake_one(ch, l, one);
  }
}

/* After a success: wake one party parked on the other end, if any. */
static inline void wake_peer(memcoro_chan *ch, uint64_t mask, struct wait_list *l,
                             uint64_t one) {
  /* Full fence: orders our ring update before the load of wait_state, the
   * other half of the Dekker pattern in register_waiter. */
  memcoro_full_fence();
  if (__builtin_expect(atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & mask, 0))
    wake_one(ch, l, one);
}

/* ---- public ---------------------------------------------------------------- */

memcoro_chan *memcoro_chan_create(size_t elem_size, size_t capacity, memcoro_chan_mode mode) {
  if (elem_size == 0 || capacity == 0) {
    fprintf(stderr, "memcoro_chan_create: element size and capacity must be positive (got %zu, %zu)\n",
            elem_size, capacity);
    return NULL;
  }
  if (mode != MEMCORO_CHAN_SPSC && mode != MEMCORO_CHAN_SPMC && mode != MEMCORO_CHAN_MPSC &&
      mode != MEMCORO_CHAN_MPMC) {
    fprintf(stderr, "memcoro_chan_create: unknown mode %d\n", (int)mode);
    return NULL;
  }
  size_t stride = (sizeof(uint64_t) + elem_size + 7) & ~(size_t)7;
  if (capacity > ((size_t)1 << 40) || elem_size > ((size_t)1 << 30) ||
      capacity > SIZE_MAX / stride) {
    fprintf(stderr, "memcoro_chan_create: %zu elements of %zu bytes is too large\n", capacity,
            elem_size);
    return NULL;
  }
  memcoro_chan *ch = aligned_alloc(MEMCORO_CACHE_LINE, sizeof *ch);
  unsigned char *slots = aligned_alloc(MEMCORO_CACHE_LINE,
                                       (capacity * stride + MEMCORO_CACHE_LINE - 1) &
                                           ~(size_t)(MEMCORO_CACHE_LINE - 1));
  if (!ch || !slots) {
    fprintf(stderr, "memcoro_chan_create: out of memory for %zu elements of %zu bytes\n",
            capacity, elem_size);
    free(ch);
    free(slots);
    return NULL;
  }
  memset(ch, 0, sizeof *ch);
  ch->magic = CHAN_MAGIC;
  ch->mode = mode;
  ch->elem_size = elem_size;
  ch->capacity = capacity;
  ch->stride = stride;
  ch->slots = slots;
  uint64_t one_lap = 1;
  while (one_lap <= capacity)
    one_lap <<= 1;
  ch->one_lap = one_lap;
  for (size_t i = 0; i < capacity; ++i)
    atomic_init(stamp_at(ch, i), i);
#ifdef NDEBUG
  const char *check = getenv("MEMCORO_CHECK");
  ch->check_owners = check && check[0] == '1';
#else
  ch->check_owners = true;
#endif
  return ch;
}

void memcoro_chan_destroy(memcoro_chan *ch) {
  if (!ch)
    return;
  check_live(ch, "memcoro_chan_destroy");
  uint64_t waiting = atomic_load_explicit(&ch->wait_state, memory_order_acquire);
  if (waiting & (WAIT_SEND_MASK | WAIT_RECV_MASK))
    memcoro_fatal("memcoro_chan_destroy: %llu senders and %llu receivers still wait on channel %p",
                  (unsigned long long)((waiting & WAIT_SEND_MASK) / WAIT_SEND_ONE),
                  (unsigned long long)((waiting & WAIT_RECV_MASK) / WAIT_RECV_ONE), (void *)ch);
  ch->magic = CHAN_DEAD;
  free(ch->slots);
  free(ch);
}

bool memcoro_chan_try_send(memcoro_chan *ch, const void *elem, size_t elem_size) {
  check_call(ch, elem_size, "memcoro_chan_try_send");
  if (ch->check_owners && single_sender(ch))
    check_owner(ch, &ch->sender, "sender");
  if (atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & WAIT_CLOSED)
    return false;
  if (!ring_push(ch, elem))
    return false;
  wake_peer(ch, WAIT_RECV_MASK, &ch->recv_waiters, WAIT_RECV_ONE);
  return true;
}

bool memcoro_chan_try_recv(memcoro_chan *ch, void *out, size_t elem_size) {
  check_call(ch, elem_size, "memcoro_chan_try_recv");
  if (ch->check_owners && single_receiver(ch))
    check_owner(ch, &ch->receiver, "receiver");
  if (!ring_pop(ch, out))
    return false;
  wake_peer(ch, WAIT_SEND_MASK, &ch->send_waiters, WAIT_SEND_ONE);
  return true;
}

memcoro_chan_status memcoro_chan_send(memcoro_chan *ch, const void *elem, size_t elem_size) {
  check_call(ch, elem_size, "memcoro_chan_send");
  if (ch->check_owners && single_sender(ch))
    check_owner(ch, &ch->sender, "sender");
  for (;;) {
    if (atomic_load_explicit(&ch->wait_state, memory_order_relaxed) & WAIT_CLOSED)
      return MEMCORO_CHAN_CLOSED;
    if (ring_push(ch, elem) || spin_push(ch, elem))
      break;
    memcoro_waiter w;
    uint64_t before = register_waiter(ch, &ch->send_waiters, &w, WAIT_SEND_ONE);
    bool sent = !(before & WAIT_CLOSED) && ring_push(ch, elem);
    if (sent || (before & WAIT_CLOSED)) {
      cancel_waiter(ch, &ch->send_waiters, &w, WAIT_SEND_ONE);
      if (sent)
        break;
      return MEMCORO_CHAN_CLOSED;
    }
    memcoro_waiter_wait(&w);
  }
  wake_peer(ch, WAIT_RECV_MASK, &ch->recv_waiters, WAIT_RECV_ONE);
  return MEMCORO_CHAN_OK;
}

memcoro_chan_status memcoro_chan_recv(memcoro_chan *ch, void *out, size_t elem_size) {
  check_call(ch, elem_size, "memcoro_chan_recv");
  if (ch->check_owners && single_receiver(ch))
    check_owner(ch, &ch->receiver, "receiver");
  for (;;) {
    if (ring_pop(ch, out) || spin_pop(ch, out))
      break;
    /* acquire: every send that returned before the close is visible now, so
     * one more try drains it. */
    if (atomic_load_explicit(&ch->wait_state, memory_order_acquire) & WAIT_CLOSED) {
      if (ring_pop(ch, out))
        break;
      return MEMCORO_CHAN_CLOSED;
    }
    memcoro_waiter w;
    uint64_t before = register_waiter(ch, &ch->recv_waiters, &w, WAIT_RECV_ONE);
    bool received = ring_pop(ch, out);
    if (received || (before & WAIT_CLOSED)) {
      cancel_waiter(ch, &ch->recv_waiters, &w, WAIT_RECV_ONE);
      if (received)
        break;
      continue; /* closed: drain or report it above */
    }
    memcoro_waiter_wait(&w);
  }
  wake_peer(ch, WAIT_SEND_MASK, &ch->send_waiters, WAIT_SEND_ONE);
  return MEMCORO_CHAN_OK;
}

void memcoro_chan_close(memcoro_chan *ch) {
  check_live(ch, "memcoro_chan_close");
  /* seq_cst: a party that registers after this sees the bit in the value
   * its own fetch_add returns; one that registered before is on a list. */
  uint64_t before = atomic_fetch_or_explicit(&ch->wait_state, WAIT_CLOSED, memory_order_seq_cst);
  if (before & WAIT_CLOSED)
    return;
  wake_all(ch, &ch->send_waiters, WAIT_SEND_ONE);
  wake_all(ch, &ch->recv_waiters, WAIT_RECV_ONE);
}

bool memcoro_chan_is_closed(const memcoro_chan *ch) {
  check_live(ch, "memcoro_chan_is_closed");
  return atomic_load_explicit(&((memcoro_chan *)ch)->wait_state, memory_order_acquire) & WAIT_CLOSED;
}

size_t memcoro_chan_capacity(const memcoro_chan *ch) {
  check_live(ch, "memcoro_chan_capacity");
  return ch->capacity;
}

memcoro_chan_mode memcoro_chan_get_mode(const memcoro_chan *ch) {
  check_live(ch, "memcoro_chan_get_mode");
  return ch->mode;
}
