/* SPDX-License-Identifier: Apache-2.0 */
/* The runtime of the instrumented build (-fmemcoro-profile-generate): times
 * sampled accesses of marked loops with the TSC and, at exit, writes the
 * per-site profile that -fmemcoro-profile-use reads (format in
 * docs/compiler.md, "Profile-guided suspension points").
 *
 * A sample is one access to the line the program is about to access, timed
 * between two fenced TSC reads: lfence; rdtsc; lfence; load; rdtscp; lfence.
 * rdtscp waits until the load has completed, so the difference is its latency
 * plus the timer's own cost, which calibration measures on a line in L1
 * (the median) and subtracts. A sample is a miss when its latency exceeds the
 * miss threshold: twice the latency of a line in the last-level cache,
 * measured at start-up on a buffer that fits in L3 and not in L2
 * (MEMCORO_PROFILE_MISS_NS sets it instead). Nothing here needs performance
 * counters. */
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

/* Mean executions of a site between two samples (MEMCORO_PROFILE_PERIOD). */
enum { DEFAULT_PERIOD = 64 };
/* The LLC-hit calibration: a random walk over this many bytes, which fit in
 * the L3 of current x86 server parts and not in their L2 (1-2 MiB). */
enum { LLC_BYTES = 8u << 20, LINE = 64, LLC_PROBES = 1024 };
/* No access takes this long: a sample above it was interrupted (the thread
 * preempted, a page fault) and is not counted. */
enum { MAX_SAMPLE_NS = 20 * 1000 };
/* The TSC frequency comes from the program's run time; a run shorter than
 * this is padded at exit, so that the division stays accurate. */
enum { MIN_CALIBRATION_NS = 20 * 1000 * 1000 };

/* Every instrumented function's table: the linker gathers the descriptors
 * into one array and names its bounds. */
extern struct memcoro_profile_table __start_memcoro_profile[] __attribute__((weak));
extern struct memcoro_profile_table __stop_memcoro_profile[] __attribute__((weak));
static uint64_t period = DEFAULT_PERIOD;
static uint64_t timer_cycles;      /* the cost of timing an L1 hit */
static uint64_t llc_cycles;        /* the latency of an LLC hit */
static uint64_t threshold_cycles;  /* above: a miss */
static uint64_t max_cycles;        /* above: interrupted */
static uint64_t start_tsc, start_ns;
/* Per thread: inside this many timed executions of marked loops, where
 * sites count their executions and take no samples. */
static __thread unsigned timing;
/* Per thread: the countdowns of sites several threads run need no lock. */
static __thread uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t timed_load(const volatile char *p) {
  unsigned aux;
  _mm_lfence();
  uint64_t t0 = __rdtsc();
  _mm_lfence();
  (void)*p;
  uint64_t t1 = __rdtscp(&aux);
  _mm_lfence();
  return t1 - t0;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Uniform in [1, 2 * period - 1]: a mean of `period` executions, and no
 * fixed stride that could fall in step with a pattern of the loop's own
 * (every other access a hit). */
static uint32_t next_countdown(void) {
  return (uint32_t)(next_random() % (2 * period - 1));
}

static void calibrate(void) {
  // The typical cost of timing a line in L1 (the median: the minimum would
  // leave most hits several nanoseconds above zero).
  static volatile char hot;
  uint64_t own[256];
  for (int i = 0; i < 256; ++i)
    own[i] = timed_load(&hot);
  qsort(own, 256, sizeof *own, by_value);
  timer_cycles = own[128];

  size_t lines = LLC_BYTES / LINE;
  char *buf = malloc(LLC_BYTES);
  uint32_t *order = malloc(lines * sizeof *order);
  uint64_t *lat = malloc(LLC_PROBES * sizeof *lat);
  if (!buf || !order || !lat) {
    free(buf), free(order), free(lat);
    llc_cycles = 4 * timer_cycles;
    return;
  }
  for (size_t i = 0; i < lines; ++i)
    order[i] = (uint32_t)i;
  for (size_t i = lines - 1; i > 0; --i) {
    size_t j = next_random() % (i + 1);
    uint32_t t = order[i];
    order[i] = order[j], order[j] = t;
  }
  // Two passes bring every line into L3 (and its page into the TLB's
  // reach as far as it goes); the probes then visit lines in random order,
  // which the hardware prefetcher cannot follow.
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < lines; ++i)
      ((volatile char *)buf)[(size_t)order[i] * LINE] = (char)i;
  for (int i = 0; i < LLC_PROBES; ++i)
    lat[i] = timed_load(buf + (size_t)order[i * (lines / LLC_PROBES)] * LINE);
  qsort(lat, LLC_PROBES, sizeof *lat, by_value);
  llc_cycles = lat[LLC_PROBES / 2] > timer_cycles ? lat[LLC_PROBES / 2] - timer_cycles : 1;
  free(buf), free(order), free(lat);
}

static double ticks_per_ns(void) {
  uint64_t elapsed = now_ns() - start_ns;
  while (elapsed < MIN_CALIBRATION_NS)
    elapsed = now_ns() - start_ns;
  return (double)(__rdtsc() - start_tsc) / (double)elapsed;
}

/* Writes the sites of the tables that named `path` (all of them when
 * MEMCORO_PROFILE_FILE overrides the names). */
static void write_profile(const char *path, int all, double tpn) {
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp)
    return;
  FILE *out = fopen(tmp, "w");
  if (!out) {
    fprintf(stderr, "memcoro-profile: cannot write %s: %s\n", path, strerror(errno));
    return;
  }
  fprintf(out, "memcoro-profile 1\n");
  fprintf(out, "# sampled 1 in %llu executions; timer %.1f ns; LLC hit %.1f ns\n", (unsigned long long)period,
          timer_cycles / tpn, llc_cycles / tpn);
  fprintf(out, "miss-threshold-ns %.1f\n", threshold_cycles / tpn);
  fprintf(out, "# site function loop kind access ordinal samples timed-executions miss-fraction mean-ns "
               "mean-miss-ns\n");
  fprintf(out, "# loop function place timed-entries timed-ns\n");
  for (struct memcoro_profile_table *m = __start_memcoro_profile; m < __stop_memcoro_profile; ++m) {
    if (!all && strcmp(m->path, path) != 0)
      continue;
    for (uint32_t i = 0; i < m->nsites; ++i) {
      const struct memcoro_profile_site *s = &m->sites[i];
      uint64_t n = __atomic_load_n(&s->samples, __ATOMIC_RELAXED);
      uint64_t k = __atomic_load_n(&s->misses, __ATOMIC_RELAXED);
      uint64_t c = __atomic_load_n(&s->cycles, __ATOMIC_RELAXED);
      uint64_t mc = __atomic_load_n(&s->miss_cycles, __ATOMIC_RELAXED);
      uint64_t x = __atomic_load_n(&s->timed_executions, __ATOMIC_RELAXED);
      fprintf(out, "site %s %u:%u %s %u:%u %u %llu %llu %.4f %.1f %.1f\n", s->function, s->loop_line,
              s->loop_column, s->kind, s->line, s->column, s->ordinal, (unsigned long long)n,
              (unsigned long long)x, n ? (double)k / n : 0.0, n ? c / tpn / n : 0.0,
              k ? mc / tpn / k : 0.0);
    }
    for (uint32_t i = 0; i < m->nloops; ++i) {
      const struct memcoro_profile_loop *l = &m->loops[i];
      fprintf(out, "loop %s %u:%u %llu %llu\n", l->function, l->line, l->column,
              (unsigned long long)__atomic_load_n(&l->timed, __ATOMIC_RELAXED),
              (unsigned long long)__atomic_load_n(&l->ns, __ATOMIC_RELAXED));
    }
  }
  if (fclose(out) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "memcoro-profile: cannot write %s: %s\n", path, strerror(errno));
    remove(tmp);
  }
}

static void write_profiles(void) {
  if (__start_memcoro_profile == __stop_memcoro_profile)
    return;
  double tpn = ticks_per_ns();
  const char *own = getenv("MEMCORO_PROFILE_FILE");
  if (own && *own) {
    write_profile(own, 1, tpn);
    return;
  }
  for (struct memcoro_profile_table *m = __start_memcoro_profile; m < __stop_memcoro_profile; ++m) {
    int first = 1;
    for (struct memcoro_profile_table *e = __start_memcoro_profile; e != m; ++e)
      first &= strcmp(e->path, m->path) != 0;
    if (first)
      write_profile(m->path, 0, tpn);
  }
}

__attribute__((constructor)) static void start(void) {
  start_ns = now_ns();
  start_tsc = __rdtsc();
  const char *p = getenv("MEMCORO_PROFILE_PERIOD");
  if (p && strtoull(p, NULL, 10) > 0)
    period = strtoull(p, NULL, 10);
  calibrate();
  threshold_cycles = 2 * llc_cycles;
  // Calibration took milliseconds: enough for a first estimate of the TSC
  // rate, which the cap on samples needs.
  double early = (double)(__rdtsc() - start_tsc) / (double)(now_ns() - start_ns + 1);
  max_cycles = (uint64_t)(MAX_SAMPLE_NS * early);
  const char *t = getenv("MEMCORO_PROFILE_MISS_NS");
  if (t && strtod(t, NULL) > 0)
    threshold_cycles = (uint64_t)(strtod(t, NULL) * ticks_per_ns());
  for (struct memcoro_profile_table *m = __start_memcoro_profile; m < __stop_memcoro_profile; ++m)
    for (uint32_t i = 0; i < m->nsites; ++i)
      m->sites[i].countdown = next_countdown();
  atexit(write_profiles);
}

/* The loop clock is the thread's CPU time: on a machine shared with other
 * work the TSC would count the time the thread waited for a core. */
static uint64_t thread_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every other execution of a loop is timed and takes no samples: a sample's
 * fences drain the misses the serial loop keeps in flight, which would make
 * the loop look slower than it is. The first execution is sampled. Returns
 * 0 for a sampled execution, else the thread's CPU clock plus 1. */
uint64_t __memcoro_profile_loop_enter(struct memcoro_profile_loop *loop) {
  if (__atomic_fetch_add(&loop->entries, 1, __ATOMIC_RELAXED) % 2 == 0)
    return 0;
  ++timing;
  return thread_ns() + 1;
}

void __memcoro_profile_loop_exit(struct memcoro_profile_loop *loop, uint64_t entered) {
  if (!entered)
    return;
  uint64_t now = thread_ns() + 1;
  --timing;
  __atomic_fetch_add(&loop->ns, now > entered ? now - entered : 0, __ATOMIC_RELAXED);
  __atomic_fetch_add(&loop->timed, 1, __ATOMIC_RELAXED);
}

void __memcoro_profile_sample(struct memcoro_profile_site *site, const void *addr) {
  uint32_t next = next_countdown();
  if (timing) {
    __atomic_store_n(&site->countdown, next, __ATOMIC_RELAXED);
    __atomic_fetch_add(&site->timed_executions, (uint64_t)next + 1, __ATOMIC_RELAXED);
    return;
  }
  uint64_t t = timed_load(addr);
  __atomic_store_n(&site->countdown, next, __ATOMIC_RELAXED);
  if (t > max_cycles)
    return;
  t = t > timer_cycles ? t - timer_cycles : 0;
  // Threads may share a site: the tallies are atomic, and a countdown lost to
  // a race only moves the next sample.
  __atomic_fetch_add(&site->samples, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&site->cycles, t, __ATOMIC_RELAXED);
  if (t > threshold_cycles) {
    __atomic_fetch_add(&site->misses, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&site->miss_cycles, t, __ATOMIC_RELAXED);
  }
}
