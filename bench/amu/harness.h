/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shared harness of the AMU kernels (bench/amu): the kernel descriptor,
 * the two coroutine schedulers every kernel runs under, and small helpers.
 *
 * A kernel keeps one context slot per coroutine and supplies two functions:
 *   launch(k, s)  take the next iteration into slot s and issue its first
 *                 request under id s; false when no iterations are left
 *   resume(k, s)  the request(s) of id s completed: run to the next
 *                 suspension (issue under id s, return true) or to the end
 *                 of the iteration (return false)
 * The schedulers are static inline so that each kernel's launch/resume are
 * inlined into its own copy, as generated code would be.
 *
 * Every request also registers its phase (an amu_phase_fn) as the resume
 * target, and aconfig points at the slot array. The bafin scheduler then
 * needs no per-slot state to find where to resume: bafin hands back the
 * phase and the slot, as in the paper's Fig. 7. On this CPU the jump is an
 * ordinary indirect call that the branch predictor must guess; the
 * hardware's arrival-aware prediction is not emulated.
 */
#ifndef MEMCORO_BENCH_AMU_HARNESS_H
#define MEMCORO_BENCH_AMU_HARNESS_H

#include "../splitmix64.h"
#include "memcoro/amu.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum amu_version {
  AMU_SERIAL,       /* synchronous far loads: the core stalls for each */
  AMU_STATIC,       /* issue, resume round robin, wait if not yet arrived */
  AMU_DYNAMIC,      /* resume whichever id getfin returns */
  AMU_DYNAMIC_ASET, /* dynamic, independent requests coalesced with aset */
  AMU_BAFIN,        /* dynamic through bafin: jump to the phase the request registered */
};

struct amu_kernel {
  const char *name;
  /* Requests one slot may have in flight at once (aset groups > 1): the
   * request table bounds the parallelism to table_entries / this. */
  unsigned aset_width;
  void *(*setup)(double scale, uint64_t seed);
  void (*teardown)(void *k);
  /* Restores the data a run modifies (outside the timed region). */
  void (*reset)(void *k);
  /* Far requests one run makes in the serial version (for reports). */
  uint64_t (*requests)(const void *k);
  /* Runs the kernel (the timed part). */
  void (*run)(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t parallel);
  /* The answer of the last run; every version must match the serial one. */
  uint64_t (*checksum)(const void *k);
};

extern const struct amu_kernel amu_kernel_gups, amu_kernel_bsearch, amu_kernel_chase,
    amu_kernel_hashprobe;

/* A request the kernel issues cannot fail unless the kernel is wrong:
 * stop with the reason rather than compute a wrong answer. */
#define AMU_CHECK(call)                                                                  \
  do {                                                                                   \
    int amu_status_ = (call);                                                            \
    if (amu_status_ != MEMCORO_AMU_OK) {                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                      \
              memcoro_amu_strerror(amu_status_));                                        \
      abort();                                                                           \
    }                                                                                    \
  } while (0)

#define AMU_MAX_PARALLEL 512u

static inline void *amu_xmalloc(size_t bytes) {
  void *p = calloc(1, bytes);
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static inline void *amu_far_xalloc(size_t bytes) {
  void *p = memcoro_far_alloc(bytes);
  if (!p) {
    fprintf(stderr, "out of far memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

typedef bool (*amu_launch_fn)(void *k, uint32_t slot);
typedef bool (*amu_resume_fn)(void *k, uint32_t slot);
/* A phase: runs slot `slot` (whose context is at `handler`) from a
 * suspension to the next (true) or to the end of its iteration (false). */
typedef bool (*amu_phase_fn)(void *k, uint32_t slot, void *handler);

/* The resume target a request registers: its phase function. */
#define AMU_PHASE(fn) ((void *)(uintptr_t)(fn))

/* Runs `parallel` coroutines until every iteration is done. */
static inline __attribute__((always_inline)) void
amu_schedule(void *k, struct memcoro_amu *amu, enum amu_version v, uint32_t parallel,
             amu_launch_fn launch, amu_resume_fn resume) {
  bool live[AMU_MAX_PARALLEL];
  uint32_t active = 0;
  for (uint32_t s = 0; s < parallel; ++s)
    active += live[s] = launch(k, s);
  if (v == AMU_STATIC) {
    for (uint32_t s = 0; active; s = s + 1 == parallel ? 0 : s + 1) {
      if (!live[s])
        continue;
      AMU_CHECK(memcoro_amu_wait(amu, s));
      if (!resume(k, s) && !launch(k, s)) {
        live[s] = false;
        --active;
      }
    }
    return;
  }
  while (active) {
    int32_t id = memcoro_amu_getfin(amu);
    if (id == MEMCORO_AMU_NONE)
      continue;
    if (!resume(k, (uint32_t)id) && !launch(k, (uint32_t)id))
      --active;
  }
}

/* The bafin scheduler: no lookup of where a slot stands, the completion
 * says it. The kernel has called aconfig with its slot array. */
static inline __attribute__((always_inline)) void
amu_schedule_bafin(void *k, struct memcoro_amu *amu, uint32_t parallel, amu_launch_fn launch) {
  uint32_t active = 0;
  for (uint32_t s = 0; s < parallel; ++s)
    active += launch(k, s);
  struct memcoro_amu_fin fin;
  while (active) {
    if (!memcoro_amu_bafin(amu, &fin))
      continue;
    amu_phase_fn phase = (amu_phase_fn)(uintptr_t)fin.resume;
    if (!phase(k, (uint32_t)fin.id, fin.handler) && !launch(k, (uint32_t)fin.id))
      --active;
  }
}

#endif /* MEMCORO_BENCH_AMU_HARNESS_H */
