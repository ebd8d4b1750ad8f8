/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the differential test programs: deterministic data, the trip count
 * from the command line, and a checksum printer. Each program prints the same
 * lines whether its marked loop was interleaved or not. */
#ifndef MEMCORO_TEST_DIFF_COMMON_H
#define MEMCORO_TEST_DIFF_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef N
#define N 4
#endif

#ifdef __MEMCORO_AMU__
/* Built with -fmemcoro-amu (test/diff/CMakeLists.txt, diff-amu-*): every
 * access through __remote goes through the thread's AMU. Bimodal latency
 * reorders completions, so the dynamic schedulers resume slots out of order. */
__attribute__((constructor)) static void diff_amu_setup(void) {
  struct memcoro_amu_model model = {.latency_ns = 60, .jitter = MEMCORO_AMU_BIMODAL, .slow_ns = 400,
                                    .slow_fraction = 0.3, .seed = 7};
  struct memcoro_amu *amu = memcoro_amu_create(&model);
  if (!amu)
    exit(1);
  memcoro_amu_set_current(amu);
}
#endif

static uint64_t diff_state = 0x9E3779B97F4A7C15ull;
static inline uint64_t diff_rand(void) {
  diff_state ^= diff_state << 13;
  diff_state ^= diff_state >> 7;
  diff_state ^= diff_state << 17;
  return diff_state;
}

static inline int diff_trips(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TRIP_COUNT\n", argv[0]);
    exit(2);
  }
  return atoi(argv[1]);
}

static inline void *diff_alloc(size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p) {
    perror("calloc");
    exit(1);
  }
  return p;
}

/* `count` elements of `size` bytes that end where an inaccessible page
 * begins: a read past them faults (the prefetching loops' reads ahead). */
static inline void *diff_before_guard(size_t count, size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = count * size;
  size_t span = (bytes + page - 1) / page * page;
  char *map = (char *)mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED || mprotect(map + span, page, PROT_NONE) != 0)
    exit(2);
  return map + span - bytes;
}

static inline uint64_t diff_hash_u64(const uint64_t *v, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ v[i]) * 1099511628211ull;
  return h;
}

static inline uint64_t diff_hash_i32(const int32_t *v, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
  return h;
}

#endif
