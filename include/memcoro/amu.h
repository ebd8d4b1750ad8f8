/* SPDX-License-Identifier: Apache-2.0 */
/*
 * amu.h: a software Asynchronous Memory Unit over emulated far memory.
 *
 * CoroAMU's dynamic scheduler needs hardware that says which memory requests
 * have completed. This header gives ordinary CPUs the same interface, backed
 * by an emulator: far memory lives in DRAM, but every access made through
 * this interface obeys a model (latency with optional jitter, a bandwidth
 * limit, a bounded request table). Every figure measured with it is
 * "emulated far memory", not a measurement of real far memory.
 *
 *   memcoro_amu_create / memcoro_amu_destroy   one AMU per thread, like one per core
 *   memcoro_amu_aload / memcoro_amu_astore     issue a request of 1..4096 bytes, tagged with an id
 *   memcoro_amu_aset(id, n)                    the next n requests complete as one id
 *   memcoro_amu_getfin                         one completed id, or MEMCORO_AMU_NONE
 *   memcoro_amu_bafin                          the same plus the resume target and handler
 *   memcoro_amu_aconfig                        handler array for bafin
 *   memcoro_amu_await / memcoro_amu_asignal    an id that completes only when signalled
 *   memcoro_amu_wait                           spin until one id completes (static schedulers)
 *   memcoro_far_load / memcoro_far_store       synchronous: pay the whole modelled latency
 *
 * Threading: an AMU is single-threaded, like the per-core hardware it
 * mirrors. Each thread creates its own; nothing in it is shared or locked.
 * Only the one-time clock calibration is global (and thread-safe).
 *
 * Data semantics: an aload's bytes are copied into the local buffer at or
 * after the modelled completion time and before its id is returned, never
 * earlier; an astore's bytes are copied into far memory the same way. Until
 * the id is returned, both buffers belong to the AMU.
 */
#ifndef MEMCORO_AMU_H
#define MEMCORO_AMU_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The largest single request, as CoroAMU's coarse-grained aload/astore. */
#define MEMCORO_AMU_MAX_BYTES 4096u
/* What getfin returns when no id has completed. */
#define MEMCORO_AMU_NONE (-1)
/* Defaults: the paper's 32 KiB scratchpad holds 512 requests. */
#define MEMCORO_AMU_DEFAULT_ENTRIES 512u
#define MEMCORO_AMU_DEFAULT_IDS 1024u

enum memcoro_amu_status {
  MEMCORO_AMU_OK = 0,
  MEMCORO_AMU_BAD_SIZE,     /* bytes is 0 or over MEMCORO_AMU_MAX_BYTES */
  MEMCORO_AMU_UNKNOWN_ID,   /* id outside [0, ids) or, for asignal, not awaiting */
  MEMCORO_AMU_BUSY,         /* id still in flight (or completed, not yet returned) */
  MEMCORO_AMU_TABLE_FULL,   /* every request-table entry is in use */
  MEMCORO_AMU_SET_MISMATCH, /* an aset group is open for another id */
  MEMCORO_AMU_BAD_SET,      /* aset with n == 0, n over the table, or inside a group */
  MEMCORO_AMU_DEADLOCK,     /* wait on an id that nothing in flight can complete */
};

/* Returns a sentence describing `status`. */
const char *memcoro_amu_strerror(int status);

enum memcoro_amu_jitter {
  MEMCORO_AMU_FIXED = 0,   /* every request takes latency_ns */
  MEMCORO_AMU_UNIFORM,     /* uniform in [latency_ns - jitter_ns, latency_ns + jitter_ns] */
  MEMCORO_AMU_BIMODAL,     /* latency_ns, or slow_ns with probability slow_fraction */
};

/* The far-memory model. Zero-initialised fields take their defaults. */
struct memcoro_amu_model {
  double latency_ns;
  enum memcoro_amu_jitter jitter;
  double jitter_ns;        /* MEMCORO_AMU_UNIFORM */
  double slow_ns;          /* MEMCORO_AMU_BIMODAL */
  double slow_fraction;    /* MEMCORO_AMU_BIMODAL, in [0, 1] */
  double bytes_per_ns;     /* link bandwidth; 0 means unlimited */
  uint32_t table_entries;  /* request table size; 0 means MEMCORO_AMU_DEFAULT_ENTRIES */
  uint32_t ids;            /* ids are 0..ids-1; 0 means MEMCORO_AMU_DEFAULT_IDS */
  uint64_t seed;           /* for the jitter draws */
};

/* Counters since creation (or the last memcoro_amu_reset_stats). */
struct memcoro_amu_stats {
  uint64_t requests;        /* aload + astore + far_load + far_store */
  uint64_t bytes;           /* bytes moved over the modelled link (whole lines) */
  uint64_t in_flight_ticks; /* sum over requests of (modelled completion - issue) */
  uint64_t max_in_flight;   /* most request-table entries used at once */
  uint64_t completions;     /* ids returned by getfin, bafin or wait */
  uint64_t signals;         /* asignal calls */
};

/* One completion as bafin reports it. */
struct memcoro_amu_fin {
  int32_t id;
  void *resume;  /* what the completing request registered */
  void *handler; /* handler_base + id * handler_size (see aconfig) */
};

/* The TSC calibration, done once per process on first use. */
struct memcoro_amu_clock {
  double ticks_per_ns;
  bool invariant_tsc; /* /proc/cpuinfo lists both constant_tsc and nonstop_tsc */
  bool uses_tsc;      /* false: CLOCK_MONOTONIC fallback (non-x86) */
};
const struct memcoro_amu_clock *memcoro_amu_clock_info(void);

/* Allocates far memory: the contents live in DRAM (2 MiB aligned, zeroed);
 * what makes it far is that the AMU interface models its access cost. */
void *memcoro_far_alloc(size_t bytes);
void memcoro_far_free(void *p);

struct memcoro_amu;

/* Creates an AMU for the calling thread. Returns NULL and writes a message to
 * stderr when the model is invalid (negative latency, jitter below zero
 * latency, fraction outside [0, 1], ...) or memory is short. */
struct memcoro_amu *memcoro_amu_create(const struct memcoro_amu_model *model);
void memcoro_amu_destroy(struct memcoro_amu *amu);

struct memcoro_amu_stats memcoro_amu_get_stats(const struct memcoro_amu *amu);
void memcoro_amu_reset_stats(struct memcoro_amu *amu);
/* Request-table entries in use now (requests and awaits). */
uint32_t memcoro_amu_in_flight(const struct memcoro_amu *amu);

/* Sets the handler array bafin computes handlers from. */
void memcoro_amu_aconfig(struct memcoro_amu *amu, void *handler_base, size_t handler_size);

/* Binds the next n requests to `id`: the id completes once when all have. */
int memcoro_amu_aset(struct memcoro_amu *amu, uint32_t id, uint32_t n);

/* Registers `id` without memory traffic; it completes on asignal. Takes a
 * request-table entry until then, as in hardware. */
int memcoro_amu_await(struct memcoro_amu *amu, uint32_t id, void *resume);
/* Completes an awaiting id: getfin/bafin returns it after ids already done. */
int memcoro_amu_asignal(struct memcoro_amu *amu, uint32_t id);

/* Spins until `id` completes, delivering the data of whatever completes
 * first; other ids that complete meanwhile stay for getfin. The static
 * scheduler's "resume round robin, wait if not yet arrived". */
int memcoro_amu_wait(struct memcoro_amu *amu, uint32_t id);

/* Synchronous access: stalls for the whole modelled latency, the emulated
 * counterpart of a core stalling on far memory. */
void memcoro_far_load(struct memcoro_amu *amu, void *dst, const void *src, size_t bytes);
void memcoro_far_store(struct memcoro_amu *amu, void *dst, const void *src, size_t bytes);

/* The calling thread's AMU, which code compiled with -fmemcoro-amu uses for
 * every access through a __remote pointer (include/memcoro/amu_cc.h). NULL
 * (the default) means none: such code then stops with a message. */
void memcoro_amu_set_current(struct memcoro_amu *amu);
struct memcoro_amu *memcoro_amu_current(void);

/* The clock the model runs on, and conversions. */
uint64_t memcoro_amu_ns_to_ticks(double ns);
double memcoro_amu_ticks_to_ns(uint64_t ticks);

/* ---- Below: the hot path, inline. The structure is private by convention:
 * it is here only so that aload and getfin compile to a few instructions. */

enum { MEMCORO_AMU__LOAD = 0, MEMCORO_AMU__STORE = 1 };
enum { MEMCORO_AMU__FREE = 0, MEMCORO_AMU__PENDING, MEMCORO_AMU__AWAITING, MEMCORO_AMU__FINISHED };

/* Requests are kept in a few FIFO lanes, each sorted by ready time because
 * it only takes requests that complete no earlier than its tail; fixed
 * latency needs one lane, bimodal latency two. Only requests that fit no
 * lane (uniform jitter) pay for the heap. */
#define MEMCORO_AMU__LANES 4u

struct memcoro_amu__request {
  uint64_t ready;    /* TSC tick of modelled completion */
  void *dst;
  const void *src;
  uint32_t id;
  uint16_t bytes;
  uint8_t kind;
  uint8_t lane; /* MEMCORO_AMU__LANES: in the heap */
};
static_assert(MEMCORO_AMU_MAX_BYTES <= UINT16_MAX, "bytes field too narrow");
static_assert(sizeof(struct memcoro_amu__request) == 32, "two requests per cache line");

struct memcoro_amu__id {
  uint32_t pending;  /* requests of this id not yet retired */
  uint8_t state;
  uint8_t queued;    /* already in the finished ring (maybe stale) */
  void *resume;
};

struct memcoro_amu {
  uint64_t now;                /* last TSC read: time never runs backwards */
  /* The earliest completion is the smallest of the lane heads and the heap top. */
  uint32_t *lane;              /* MEMCORO_AMU__LANES rings of lane_mask + 1 */
  uint32_t lane_head[MEMCORO_AMU__LANES], lane_tail[MEMCORO_AMU__LANES], lane_mask;
  uint64_t lane_tail_ready[MEMCORO_AMU__LANES]; /* ready time of each lane's last request */
  uint32_t last_lane;          /* where the previous request went: usually fits again */
  uint32_t lanes_used;         /* lanes 0..lanes_used-1 have been used: only those are scanned */
  /* The earliest request, cached so that a getfin that finds nothing due
   * (the common case while polling) costs one compare and a clock read. */
  uint64_t next_ready;         /* UINT64_MAX when nothing is in flight */
  uint32_t next_request;
  uint32_t *heap;
  uint32_t heap_size;
  struct memcoro_amu__request *requests;
  uint32_t *free_requests;     /* stack of unused request indices */
  uint32_t free_top;
  uint32_t table_free;         /* entries left; awaits count too */
  uint32_t table_entries;
  struct memcoro_amu__id *idv;
  uint32_t id_count;
  uint32_t *finished;          /* ring of ids completed but not yet returned */
  uint32_t fin_head, fin_tail, fin_mask;
  uint32_t set_id, set_left;   /* open aset group */
  uint64_t rng;
  uint64_t latency_ticks, jitter_ticks, slow_ticks;
  uint32_t slow_threshold;     /* slow_fraction scaled to 2^32 */
  uint8_t jitter;
  uint64_t ticks_per_line_q16; /* bandwidth: 16.16 fixed point ticks per 64-byte line */
  uint64_t link_free;          /* when the modelled link can take the next line */
  char *handler_base;
  size_t handler_size;
  struct memcoro_amu_stats stats;
};

uint64_t memcoro_amu__clock_fallback(void);
void memcoro_amu__heap_push(struct memcoro_amu *amu, uint32_t request);
void memcoro_amu__heap_pop(struct memcoro_amu *amu);
uint32_t memcoro_amu__pick_lane(const struct memcoro_amu *amu, uint64_t ready);

/* Whether a request ready at `ready` can join lane l without unsorting it. */
static inline bool memcoro_amu__lane_takes(const struct memcoro_amu *amu, uint32_t l,
                                           uint64_t ready) {
  return amu->lane_head[l] == amu->lane_tail[l] || amu->lane_tail_ready[l] <= ready;
}

static inline uint64_t memcoro_amu__now(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return memcoro_amu__clock_fallback();
#endif
}

/* The model's clock now, in ticks (see memcoro_amu_ns_to_ticks). */
static inline uint64_t memcoro_amu_now(void) { return memcoro_amu__now(); }

static inline uint64_t memcoro_amu__draw_latency(struct memcoro_amu *amu) {
  if (amu->jitter == MEMCORO_AMU_FIXED)
    return amu->latency_ticks;
  /* xorshift64*: a few cycles and plenty for latency jitter. */
  uint64_t x = amu->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  amu->rng = x;
  uint32_t r = (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
  if (amu->jitter == MEMCORO_AMU_UNIFORM)
    return amu->latency_ticks - amu->jitter_ticks +
           (((uint64_t)r * (2 * amu->jitter_ticks + 1)) >> 32);
  return r < amu->slow_threshold ? amu->slow_ticks : amu->latency_ticks;
}

/* Issues one request; see memcoro_amu_aload. */
static inline int memcoro_amu__issue(struct memcoro_amu *amu, uint32_t id, void *dst,
                                     const void *src, size_t bytes, int kind, void *resume) {
  if (bytes - 1 >= MEMCORO_AMU_MAX_BYTES)
    return MEMCORO_AMU_BAD_SIZE;
  if (id >= amu->id_count)
    return MEMCORO_AMU_UNKNOWN_ID;
  struct memcoro_amu__id *slot = &amu->idv[id];
  if (amu->set_left) {
    if (id != amu->set_id)
      return MEMCORO_AMU_SET_MISMATCH;
  } else if (slot->state != MEMCORO_AMU__FREE) {
    return MEMCORO_AMU_BUSY;
  }
  if (amu->table_free == 0)
    return MEMCORO_AMU_TABLE_FULL;

  uint64_t now = memcoro_amu__now();
  if (now > amu->now)
    amu->now = now;
  now = amu->now;
  const uintptr_t far = (uintptr_t)(kind == MEMCORO_AMU__LOAD ? src : dst);
  const uint64_t lines = ((far + bytes - 1) >> 6) - (far >> 6) + 1;
  uint64_t ready = now;
  if (amu->ticks_per_line_q16) {
    /* The link serialises lines; the latency then applies to the last one. */
    uint64_t start = amu->link_free > now ? amu->link_free : now;
    amu->link_free = start + ((lines * amu->ticks_per_line_q16) >> 16);
    ready = amu->link_free;
  }
  ready += memcoro_amu__draw_latency(amu);

  uint32_t r = amu->free_requests[--amu->free_top];
  --amu->table_free;
  struct memcoro_amu__request *rq = &amu->requests[r];
  rq->ready = ready;
  rq->dst = dst;
  rq->src = src;
  rq->bytes = (uint16_t)bytes;
  rq->id = id;
  rq->kind = (uint8_t)kind;
  uint32_t lane = amu->last_lane;
  if (!memcoro_amu__lane_takes(amu, lane, ready))
    lane = memcoro_amu__pick_lane(amu, ready);
  rq->lane = (uint8_t)lane;
  if (lane < MEMCORO_AMU__LANES) {
    amu->lane[lane * (amu->lane_mask + 1) + (amu->lane_tail[lane]++ & amu->lane_mask)] = r;
    amu->lane_tail_ready[lane] = ready;
    amu->last_lane = lane;
    if (lane >= amu->lanes_used)
      amu->lanes_used = lane + 1;
  } else {
    memcoro_amu__heap_push(amu, r);
  }
  if (ready < amu->next_ready) {
    amu->next_ready = ready;
    amu->next_request = r;
  }

  /* Start the real DRAM access now, so that the copy at completion finds
   * the lines in cache, as the hardware would have moved them by then. */
  for (uintptr_t line = far & ~(uintptr_t)63; line < far + bytes; line += 64) {
    if (kind == MEMCORO_AMU__LOAD)
      __builtin_prefetch((const void *)line, 0, 3);
    else
      __builtin_prefetch((const void *)line, 1, 3);
  }

  if (amu->set_left)
    --amu->set_left;
  slot->state = MEMCORO_AMU__PENDING;
  ++slot->pending;
  slot->resume = resume;
  ++amu->stats.requests;
  amu->stats.bytes += lines * 64;
  amu->stats.in_flight_ticks += ready - now;
  uint64_t used = amu->table_entries - amu->table_free;
  if (used > amu->stats.max_in_flight)
    amu->stats.max_in_flight = used;
  return MEMCORO_AMU_OK;
}

/* Copies `bytes` from far `src` into local `dst` once the modelled latency
 * has passed; completion is reported under `id` (0 <= id < ids). Returns
 * MEMCORO_AMU_OK or the reason nothing was issued. */
static inline int memcoro_amu_aload(struct memcoro_amu *amu, uint32_t id, void *dst,
                                    const void *src, size_t bytes) {
  return memcoro_amu__issue(amu, id, dst, src, bytes, MEMCORO_AMU__LOAD, NULL);
}
/* As aload, and bafin hands back `resume` when this request completes the id. */
static inline int memcoro_amu_aload_r(struct memcoro_amu *amu, uint32_t id, void *dst,
                                      const void *src, size_t bytes, void *resume) {
  return memcoro_amu__issue(amu, id, dst, src, bytes, MEMCORO_AMU__LOAD, resume);
}
/* Copies `bytes` from local `src` to far `dst` once the modelled latency has
 * passed; `src` must stay unchanged until the id is returned. */
static inline int memcoro_amu_astore(struct memcoro_amu *amu, uint32_t id, void *dst,
                                     const void *src, size_t bytes) {
  return memcoro_amu__issue(amu, id, dst, src, bytes, MEMCORO_AMU__STORE, NULL);
}
static inline int memcoro_amu_astore_r(struct memcoro_amu *amu, uint32_t id, void *dst,
                                       const void *src, size_t bytes, void *resume) {
  return memcoro_amu__issue(amu, id, dst, src, bytes, MEMCORO_AMU__STORE, resume);
}

/* Finds the request with the earliest modelled completion again. */
static inline void memcoro_amu__find_next(struct memcoro_amu *amu) {
  uint32_t best = UINT32_MAX;
  uint64_t best_ready = UINT64_MAX;
  if (amu->lanes_used == 1 && amu->heap_size == 0) {
    /* Fixed latency: one sorted lane, its head is next. */
    if (amu->lane_head[0] != amu->lane_tail[0]) {
      best = amu->lane[amu->lane_head[0] & amu->lane_mask];
      best_ready = amu->requests[best].ready;
    }
    amu->next_request = best;
    amu->next_ready = best_ready;
    return;
  }
  for (uint32_t l = 0; l < amu->lanes_used; ++l) {
    if (amu->lane_head[l] == amu->lane_tail[l])
      continue;
    uint32_t r = amu->lane[l * (amu->lane_mask + 1) + (amu->lane_head[l] & amu->lane_mask)];
    if (amu->requests[r].ready < best_ready) {
      best = r;
      best_ready = amu->requests[r].ready;
    }
  }
  if (amu->heap_size && amu->requests[amu->heap[0]].ready < best_ready) {
    best = amu->heap[0];
    best_ready = amu->requests[best].ready;
  }
  amu->next_request = best;
  amu->next_ready = best_ready;
}

/* Retires request `r`, which must be next_request and due: moves its data,
 * frees its entry. Returns its id if that completed the id, else -1. */
static inline int32_t memcoro_amu__retire(struct memcoro_amu *amu, uint32_t r) {
  const uint32_t lane = amu->requests[r].lane;
  if (lane < MEMCORO_AMU__LANES)
    ++amu->lane_head[lane];
  else
    memcoro_amu__heap_pop(amu);
  const struct memcoro_amu__request *rq = &amu->requests[r];
  memcoro_amu__find_next(amu);
  memcpy(rq->dst, rq->src, rq->bytes);
  uint32_t id = rq->id;
  amu->free_requests[amu->free_top++] = r;
  ++amu->table_free;
  struct memcoro_amu__id *slot = &amu->idv[id];
  /* An id under an open aset is not done even when its issued part is. */
  if (--slot->pending == 0 && !(amu->set_left && amu->set_id == id))
    return (int32_t)id;
  return -1;
}

/* Returns one completed id (marking it free for reuse), or MEMCORO_AMU_NONE.
 * Never blocks. */
static inline int32_t memcoro_amu__getfin(struct memcoro_amu *amu) {
  /* Ids completed earlier (signalled, or done while wait ran) come first. */
  while (amu->fin_head != amu->fin_tail) {
    uint32_t id = amu->finished[amu->fin_head++ & amu->fin_mask];
    amu->idv[id].queued = 0;
    if (amu->idv[id].state == MEMCORO_AMU__FINISHED) {
      amu->idv[id].state = MEMCORO_AMU__FREE;
      ++amu->stats.completions;
      return (int32_t)id;
    }
  }
  for (;;) {
    /* Read the TSC only when the cached time says "not yet": time is
     * monotonic, so anything due by the cached time is due now. Nothing in
     * flight has next_ready UINT64_MAX, which is never due. */
    if (amu->next_ready > amu->now) {
      if (amu->next_ready == UINT64_MAX)
        return MEMCORO_AMU_NONE;
      amu->now = memcoro_amu__now();
      if (amu->next_ready > amu->now)
        return MEMCORO_AMU_NONE;
    }
    int32_t id = memcoro_amu__retire(amu, amu->next_request);
    if (id >= 0) {
      amu->idv[id].state = MEMCORO_AMU__FREE;
      ++amu->stats.completions;
      return id;
    }
  }
}

static inline int32_t memcoro_amu_getfin(struct memcoro_amu *amu) {
  return memcoro_amu__getfin(amu);
}

/* getfin that also reports the resume target registered by the completing
 * request and the id's handler (aconfig). Returns false when none is done. */
static inline bool memcoro_amu_bafin(struct memcoro_amu *amu, struct memcoro_amu_fin *fin) {
  int32_t id = memcoro_amu__getfin(amu);
  if (id < 0)
    return false;
  fin->id = id;
  fin->resume = amu->idv[id].resume;
  fin->handler = amu->handler_base ? amu->handler_base + (size_t)id * amu->handler_size : NULL;
  return true;
}

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_AMU_H */
