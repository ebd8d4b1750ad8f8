/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the compiled AMU kernels (one kernel per .c file beside this header)
 * share: deterministic data, far allocation and the timing of one kernel.
 * Each kernel file holds its loop as a user writes it over __remote data
 * under #pragma memcoro, its data and a check of its answer; main.c runs
 * them. bench/amu/compiled.sh, compiled_sweep.py and expansion.py build the
 * files once per scheduler (memcoro-cc -fmemcoro-amu) and once serially
 * (-fno-memcoro -fmemcoro-amu: synchronous far loads). Emulated far memory.
 */
#ifndef MEMCORO_BENCH_AMU_COMPILED_SUITE_H
#define MEMCORO_BENCH_AMU_COMPILED_SUITE_H

#include "../../splitmix64.h"
#include "memcoro/amu.h"
#include "memcoro/memcoro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef PAR
#define PAR 64
#endif

/* One kernel: set-up (not timed) builds the data for `scale`; reset (not
 * timed) restores what a run writes; run is the timed loop and returns what
 * the loop returns; digest (not timed; NULL: the result itself) makes of it
 * and of what the loop wrote the checksum that every build must agree on;
 * check tests the answer against one computed without the loop, and says why
 * it is wrong (NULL: right). */
struct suite_kernel {
  const char *name;
  void (*setup)(double scale);
  void (*reset)(void);
  uint64_t (*run)(void);
  uint64_t (*digest)(uint64_t result);
  const char *(*check)(uint64_t sum);
};

/* The far memory of the kernels: memcoro_far_alloc, or a stop. */
void *suite_far_alloc(size_t bytes);
void *suite_alloc(size_t bytes);

#endif
