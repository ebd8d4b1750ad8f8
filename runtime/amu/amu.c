/* SPDX-License-Identifier: Apache-2.0 */
/* The software AMU's cold paths: creation and validation of the model, the
 * jitter heap, aset/await/asignal, wait, the synchronous far accesses, and
 * the clock calibration. The hot path (aload, astore, getfin, bafin) is
 * inline in include/memcoro/amu.h. */
#define _GNU_SOURCE
#include "memcoro/amu.h"
#include "memcoro/memcoro.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct memcoro_amu_clock clock_info;
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t memcoro_amu__clock_fallback(void) { return monotonic_ns(); }

static bool cpuinfo_has_invariant_tsc(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return false;
  char line[4096];
  bool constant = false, nonstop = false;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5) != 0)
      continue;
    constant = strstr(line, " constant_tsc") != NULL;
    nonstop = strstr(line, " nonstop_tsc") != NULL;
    break;
  }
  fclose(f);
  return constant && nonstop;
}

/* Times the TSC against CLOCK_MONOTONIC over ~20 ms, three times, and keeps
 * the median rate, so one preemption on a shared machine cannot skew it. */
static void calibrate(void) {
  clock_info.invariant_tsc = cpuinfo_has_invariant_tsc();
#if defined(__x86_64__) || defined(__i386__)
  clock_info.uses_tsc = true;
  double rate[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t ns0 = monotonic_ns(), t0 = __rdtsc();
    uint64_t ns1;
    do
      ns1 = monotonic_ns();
    while (ns1 - ns0 < 20000000u);
    uint64_t t1 = __rdtsc();
    rate[i] = (double)(t1 - t0) / (double)(ns1 - ns0);
  }
  double lo = fmin(rate[0], fmin(rate[1], rate[2]));
  double hi = fmax(rate[0], fmax(rate[1], rate[2]));
  clock_info.ticks_per_ns = rate[0] + rate[1] + rate[2] - lo - hi;
#else
  clock_info.uses_tsc = false;
  clock_info.ticks_per_ns = 1.0;
#endif
}

const struct memcoro_amu_clock *memcoro_amu_clock_info(void) {
  pthread_once(&clock_once, calibrate);
  return &clock_info;
}

uint64_t memcoro_amu_ns_to_ticks(double ns) {
  /* Round up: a modelled latency must never come out shorter. */
  return (uint64_t)ceil(ns * memcoro_amu_clock_info()->ticks_per_ns);
}

double memcoro_amu_ticks_to_ns(uint64_t ticks) {
  return (double)ticks / memcoro_amu_clock_info()->ticks_per_ns;
}

const char *memcoro_amu_strerror(int status) {
  switch (status) {
  case MEMCORO_AMU_OK: return "success";
  case MEMCORO_AMU_BAD_SIZE: return "request size must be 1 to 4096 bytes";
  case MEMCORO_AMU_UNKNOWN_ID: return "unknown id (out of range, or not awaiting for asignal)";
  case MEMCORO_AMU_BUSY: return "id is still in flight or completed but not yet returned";
  case MEMCORO_AMU_TABLE_FULL: return "request table full: retire completions with getfin first";
  case MEMCORO_AMU_SET_MISMATCH: return "an aset group is open for a different id";
  case MEMCORO_AMU_BAD_SET: return "aset needs 1 <= n <= table entries and no open group";
  case MEMCORO_AMU_DEADLOCK: return "wait on an id that nothing in flight will complete";
  }
  return "unknown status";
}

void *memcoro_far_alloc(size_t bytes) { return memcoro_remote_alloc(bytes); }
void memcoro_far_free(void *p) { memcoro_remote_free(p); }

static uint32_t pow2_at_least(uint32_t n) {
  uint32_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

static bool model_is_valid(const struct memcoro_amu_model *m) {
  const char *why = NULL;
  if (!(m->latency_ns >= 0 && m->latency_ns < 1e9))
    why = "latency_ns must be in [0, 1e9)";
  else if (m->jitter > MEMCORO_AMU_BIMODAL)
    why = "unknown jitter kind";
  else if (m->jitter == MEMCORO_AMU_UNIFORM &&
           !(m->jitter_ns >= 0 && m->jitter_ns <= m->latency_ns))
    why = "uniform jitter_ns must be in [0, latency_ns]";
  else if (m->jitter == MEMCORO_AMU_BIMODAL &&
           !(m->slow_ns >= 0 && m->slow_ns < 1e9 && m->slow_fraction >= 0 &&
             m->slow_fraction <= 1))
    why = "bimodal needs slow_ns in [0, 1e9) and slow_fraction in [0, 1]";
  else if (!(m->bytes_per_ns >= 0 && m->bytes_per_ns < 1e6))
    why = "bytes_per_ns must be in [0, 1e6) (0: unlimited)";
  else if (m->table_entries > (1u << 20) || m->ids > (1u << 24))
    why = "table_entries must be <= 2^20 and ids <= 2^24";
  if (why)
    fprintf(stderr, "memcoro_amu_create: invalid model: %s\n", why);
  return why == NULL;
}

struct memcoro_amu *memcoro_amu_create(const struct memcoro_amu_model *model) {
  if (!model_is_valid(model))
    return NULL;
  struct memcoro_amu *amu = calloc(1, sizeof *amu);
  if (!amu)
    return NULL;
  uint32_t entries = model->table_entries ? model->table_entries : MEMCORO_AMU_DEFAULT_ENTRIES;
  uint32_t ids = model->ids ? model->ids : MEMCORO_AMU_DEFAULT_IDS;
  uint32_t lane_size = pow2_at_least(entries), fin_size = pow2_at_least(ids);
  amu->lane = calloc((size_t)MEMCORO_AMU__LANES * lane_size, sizeof *amu->lane);
  amu->heap = calloc(entries, sizeof *amu->heap);
  amu->requests = calloc(entries, sizeof *amu->requests);
  amu->free_requests = calloc(entries, sizeof *amu->free_requests);
  amu->idv = calloc(ids, sizeof *amu->idv);
  amu->finished = calloc(fin_size, sizeof *amu->finished);
  if (!amu->lane || !amu->heap || !amu->requests || !amu->free_requests || !amu->idv ||
      !amu->finished) {
    fprintf(stderr, "memcoro_amu_create: out of memory\n");
    memcoro_amu_destroy(amu);
    return NULL;
  }
  amu->lane_mask = lane_size - 1;
  amu->fin_mask = fin_size - 1;
  amu->table_entries = amu->table_free = amu->free_top = entries;
  for (uint32_t i = 0; i < entries; ++i)
    amu->free_requests[i] = entries - 1 - i;
  amu->id_count = ids;
  amu->jitter = (uint8_t)model->jitter;
  amu->latency_ticks = memcoro_amu_ns_to_ticks(model->latency_ns);
  amu->jitter_ticks = memcoro_amu_ns_to_ticks(model->jitter_ns);
  if (amu->jitter_ticks > amu->latency_ticks)
    amu->jitter_ticks = amu->latency_ticks;
  amu->slow_ticks = memcoro_amu_ns_to_ticks(model->slow_ns);
  amu->slow_threshold = (uint32_t)fmin(model->slow_fraction * 4294967296.0, 4294967295.0);
  if (model->bytes_per_ns > 0)
    amu->ticks_per_line_q16 =
        (uint64_t)ceil(64.0 / model->bytes_per_ns * memcoro_amu_clock_info()->ticks_per_ns * 65536.0);
  amu->rng = model->seed ? model->seed : 0x9E3779B97F4A7C15ULL;
  amu->next_ready = UINT64_MAX;
  amu->next_request = UINT32_MAX;
  amu->now = memcoro_amu__now();
  return amu;
}

void memcoro_amu_destroy(struct memcoro_amu *amu) {
  if (!amu)
    return;
  free(amu->lane);
  free(amu->heap);
  free(amu->requests);
  free(amu->free_requests);
  free(amu->idv);
  free(amu->finished);
  free(amu);
}

struct memcoro_amu_stats memcoro_amu_get_stats(const struct memcoro_amu *amu) { return amu->stats; }

void memcoro_amu_reset_stats(struct memcoro_amu *amu) {
  memset(&amu->stats, 0, sizeof amu->stats);
  amu->stats.max_in_flight = amu->table_entries - amu->table_free;
}

uint32_t memcoro_amu_in_flight(const struct memcoro_amu *amu) {
  return amu->table_entries - amu->table_free;
}

void memcoro_amu_aconfig(struct memcoro_amu *amu, void *handler_base, size_t handler_size) {
  amu->handler_base = handler_base;
  amu->handler_size = handler_size;
}

/* ---- Where a request goes when it does not fit the lane of the previous one. */

/* Best fit: the non-empty lane whose tail is latest but not after `ready`,
 * else an empty lane, else MEMCORO_AMU__LANES (the heap). Keeping empty
 * lanes for requests that fit nowhere else keeps the heap rare. */
uint32_t memcoro_amu__pick_lane(const struct memcoro_amu *amu, uint64_t ready) {
  uint32_t best = MEMCORO_AMU__LANES, empty = MEMCORO_AMU__LANES;
  uint64_t best_tail = 0;
  for (uint32_t l = 0; l < MEMCORO_AMU__LANES; ++l) {
    if (amu->lane_head[l] == amu->lane_tail[l]) {
      if (empty == MEMCORO_AMU__LANES)
        empty = l;
      continue;
    }
    uint64_t tail = amu->lane_tail_ready[l];
    if (tail <= ready && (best == MEMCORO_AMU__LANES || tail > best_tail)) {
      best = l;
      best_tail = tail;
    }
  }
  return best != MEMCORO_AMU__LANES ? best : empty;
}

/* ---- The heap of out-of-order requests, keyed by ready time. */

static inline uint64_t ready_of(const struct memcoro_amu *amu, uint32_t slot) {
  return amu->requests[amu->heap[slot]].ready;
}

void memcoro_amu__heap_push(struct memcoro_amu *amu, uint32_t request) {
  uint32_t i = amu->heap_size++;
  uint64_t ready = amu->requests[request].ready;
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (ready_of(amu, parent) <= ready)
      break;
    amu->heap[i] = amu->heap[parent];
    i = parent;
  }
  amu->heap[i] = request;
}

void memcoro_amu__heap_pop(struct memcoro_amu *amu) {
  uint32_t last = amu->heap[--amu->heap_size];
  uint64_t ready = amu->requests[last].ready;
  uint32_t i = 0, n = amu->heap_size;
  for (;;) {
    uint32_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n && ready_of(amu, child + 1) < ready_of(amu, child))
      ++child;
    if (ready <= ready_of(amu, child))
      break;
    amu->heap[i] = amu->heap[child];
    i = child;
  }
  if (n)
    amu->heap[i] = last;
}

/* ---- Groups, waiting and signalling. */

int memcoro_amu_aset(struct memcoro_amu *amu, uint32_t id, uint32_t n) {
  if (id >= amu->id_count)
    return MEMCORO_AMU_UNKNOWN_ID;
  if (n == 0 || n > amu->table_entries || amu->set_left)
    return MEMCORO_AMU_BAD_SET;
  if (amu->idv[id].state != MEMCORO_AMU__FREE)
    return MEMCORO_AMU_BUSY;
  amu->set_id = id;
  amu->set_left = n;
  return MEMCORO_AMU_OK;
}

static void push_finished(struct memcoro_amu *amu, uint32_t id) {
  amu->idv[id].state = MEMCORO_AMU__FINISHED;
  if (!amu->idv[id].queued) {
    /* At most one entry per id, so a ring of `ids` entries never overflows. */
    amu->idv[id].queued = 1;
    amu->finished[amu->fin_tail++ & amu->fin_mask] = id;
  }
}

int memcoro_amu_await(struct memcoro_amu *amu, uint32_t id, void *resume) {
  if (id >= amu->id_count)
    return MEMCORO_AMU_UNKNOWN_ID;
  if (amu->set_left)
    return MEMCORO_AMU_SET_MISMATCH;
  if (amu->idv[id].state != MEMCORO_AMU__FREE)
    return MEMCORO_AMU_BUSY;
  if (amu->table_free == 0)
    return MEMCORO_AMU_TABLE_FULL;
  --amu->table_free;
  amu->idv[id].state = MEMCORO_AMU__AWAITING;
  amu->idv[id].resume = resume;
  uint64_t used = amu->table_entries - amu->table_free;
  if (used > amu->stats.max_in_flight)
    amu->stats.max_in_flight = used;
  return MEMCORO_AMU_OK;
}

int memcoro_amu_asignal(struct memcoro_amu *amu, uint32_t id) {
  if (id >= amu->id_count || amu->idv[id].state != MEMCORO_AMU__AWAITING)
    return MEMCORO_AMU_UNKNOWN_ID;
  ++amu->table_free;
  ++amu->stats.signals;
  push_finished(amu, id);
  return MEMCORO_AMU_OK;
}

/* No PAUSE in the loop: on this machine (Zen 4 under KVM) a PAUSE costs
 * ~20 ns and the stall then overshoots an 800 ns model by ~31 ns (median)
 * instead of ~11 ns. A core stalled on memory does not yield either. */
static inline void spin_until(struct memcoro_amu *amu, uint64_t ready) {
  while (amu->now < ready)
    amu->now = memcoro_amu__now();
}

int memcoro_amu_wait(struct memcoro_amu *amu, uint32_t id) {
  if (id >= amu->id_count)
    return MEMCORO_AMU_UNKNOWN_ID;
  struct memcoro_amu__id *slot = &amu->idv[id];
  while (slot->state != MEMCORO_AMU__FINISHED) {
    /* An open aset group for this id would never complete: not deadlock on
     * the caller's behalf, report it. */
    if (slot->state != MEMCORO_AMU__PENDING || (amu->set_left && amu->set_id == id))
      return slot->state == MEMCORO_AMU__FREE ? MEMCORO_AMU_UNKNOWN_ID : MEMCORO_AMU_DEADLOCK;
    spin_until(amu, amu->next_ready);
    int32_t done = memcoro_amu__retire(amu, amu->next_request);
    if (done >= 0)
      push_finished(amu, (uint32_t)done);
  }
  /* Its ring entry, if any, goes stale; getfin skips ids not FINISHED. */
  slot->state = MEMCORO_AMU__FREE;
  ++amu->stats.completions;
  return MEMCORO_AMU_OK;
}

/* ---- The synchronous baseline. */

static void far_access(struct memcoro_amu *amu, void *dst, const void *src, size_t bytes,
                       const void *far, int write) {
  uint64_t now = memcoro_amu__now();
  if (now > amu->now)
    amu->now = now;
  now = amu->now;
  const uintptr_t f = (uintptr_t)far;
  const uint64_t lines = bytes ? ((f + bytes - 1) >> 6) - (f >> 6) + 1 : 0;
  uint64_t ready = now;
  if (amu->ticks_per_line_q16) {
    uint64_t start = amu->link_free > now ? amu->link_free : now;
    amu->link_free = start + ((lines * amu->ticks_per_line_q16) >> 16);
    ready = amu->link_free;
  }
  ready += memcoro_amu__draw_latency(amu);
  for (uintptr_t line = f & ~(uintptr_t)63; line < f + bytes; line += 64) {
    if (write)
      __builtin_prefetch((const void *)line, 1, 3);
    else
      __builtin_prefetch((const void *)line, 0, 3);
  }
  ++amu->stats.requests;
  amu->stats.bytes += lines * 64;
  amu->stats.in_flight_ticks += ready - now;
  spin_until(amu, ready);
  memcpy(dst, src, bytes);
}

void memcoro_far_load(struct memcoro_amu *amu, void *dst, const void *src, size_t bytes) {
  far_access(amu, dst, src, bytes, src, 0);
}

void memcoro_far_store(struct memcoro_amu *amu, void *dst, const void *src, size_t bytes) {
  far_access(amu, dst, src, bytes, dst, 1);
}
