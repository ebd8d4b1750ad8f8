/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The four AMU kernels of bench/amu written as plain loops over __remote
 * data with #pragma memcoro, for memcoro-cc -fmemcoro-amu to compile: the
 * same data, sizes and work as the hand-written gups.c, bsearch.c, chase.c
 * and hashprobe.c. bench/amu/compiled.sh builds this file once per scheduler
 * (and with -fno-memcoro: synchronous far loads, the serial baseline) and
 * compares with amu-bench on the same emulator. Emulated far memory.
 *
 *   amu-compiled-<scheduler> LATENCY_NS [bimodal] [scale]
 * prints: kernel ns-per-run checksum, one line per kernel (median of 5).
 */
#define _GNU_SOURCE
#include "memcoro/amu.h"
#include "memcoro/memcoro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef PAR
#define PAR 64
#endif

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static uint64_t mix64(uint64_t x) { return splitmix64(&x); }

/* GUPS: t[idx(i)] ^= v(i), 2^21 words, 131072 updates. */
enum { GUPS_BITS = 21 };
static uint64_t gups_index(uint64_t i) {
  const uint64_t mask = (1ull << GUPS_BITS) - 1;
  uint64_t x = (i * 0x9E3779B97F4A7C15ULL) & mask;
  x ^= x >> (GUPS_BITS / 2);
  return (x * 0xD6E8FEB86659FD93ULL) & mask;
}
__attribute__((noinline)) static void gups(uint64_t __remote *t, uint64_t updates) {
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < updates; ++i)
    t[gups_index(i)] ^= mix64(i ^ 0x6A09E667F3BCC909ULL);
}

/* Binary search: 2^21 sorted words, lookups of local keys. */
__attribute__((noinline)) static uint64_t bsearch_all(const uint64_t __remote *a, uint64_t n, const uint64_t *keys,
                                                      uint64_t lookups) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < lookups; ++i) {
    uint64_t key = keys[i], base = 0, len = n;
    while (len > 1) {
      uint64_t half = len / 2;
      if (a[base + half] <= key)
        base += half;
      len -= half;
    }
    sum += base * (key | 1);
  }
  return sum;
}

/* Pointer chase: 1024 chains of `steps` dependent 64-byte nodes. */
struct node {
  uint64_t next, value, pad[6];
};
__attribute__((noinline)) static uint64_t chase(const struct node __remote *nodes, uint64_t count, uint64_t chains,
                                                uint64_t steps) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t c = 0; c < chains; ++c) {
    uint64_t at = mix64(c * 0x51ED270B27ull) % count, acc = 0;
    for (uint64_t j = 0; j < steps; ++j) {
      acc += nodes[at].value;
      at = nodes[at].next;
    }
    sum += mix64(c ^ acc);
  }
  return sum;
}

/* Hash probe: two-choice table of 2^18 64-byte buckets. */
enum { WAYS = 4 };
struct bucket {
  uint64_t key[WAYS], value[WAYS];
};
static uint64_t search(const struct bucket __remote *b, uint64_t key) {
  uint64_t found = 0;
  for (unsigned j = 0; j < WAYS; ++j)
    found = b->key[j] == key ? b->value[j] + 1 : found;
  return found;
}
__attribute__((noinline)) static uint64_t hashprobe(const struct bucket __remote *b, uint64_t mask, const uint64_t *probes,
                                                    uint64_t count) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t key = probes[i];
    uint64_t found = search(&b[mix64(key) & mask], key);
    if (!found)
      found = search(&b[mix64(key ^ 0xC2B2AE3D27D4EB4FULL) & mask], key);
    sum += found;
  }
  return sum;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define MEASURE(name, reset, expr)                                                                 \
  do {                                                                                             \
    double t[5];                                                                                   \
    uint64_t sum = 0;                                                                              \
    for (int r = 0; r < 5; ++r) {                                                                  \
      reset;                                                                                       \
      double t0 = now_ns();                                                                        \
      sum = (expr);                                                                                \
      t[r] = now_ns() - t0;                                                                        \
    }                                                                                              \
    qsort(t, 5, sizeof t[0], cmp);                                                                 \
    printf("%s %.0f %llx\n", name, t[2], (unsigned long long)sum);                                 \
  } while (0)

int main(int argc, char **argv) {
  double latency = argc > 1 ? atof(argv[1]) : 200, scale = argc > 3 ? atof(argv[3]) : 1;
  struct memcoro_amu_model model = {.latency_ns = latency};
  if (argc > 2 && argv[2][0] == 'b') {
    model.jitter = MEMCORO_AMU_BIMODAL;
    model.slow_ns = 4 * latency;
    model.slow_fraction = 0.1;
  }
  struct memcoro_amu *amu = memcoro_amu_create(&model);
  if (!amu)
    return 1;
  memcoro_amu_set_current(amu);
  uint64_t st = 42;

  uint64_t gn = 1ull << GUPS_BITS, updates = (uint64_t)(131072 * scale);
  uint64_t *g = memcoro_far_alloc(gn * 8);
  MEASURE("gups", for (uint64_t j = 0; j < gn; ++j) g[j] = j, (gups((uint64_t __remote *)g, updates), mix64(g[7] ^ g[gn / 3] ^ g[gn - 1])));

  uint64_t bn = 1ull << 21, v = 0, lookups = (uint64_t)(6000 * scale);
  uint64_t *arr = memcoro_far_alloc(bn * 8), *keys = malloc(lookups * 8);
  for (uint64_t j = 0; j < bn; ++j)
    arr[j] = v += 1 + splitmix64(&st) % 16;
  for (uint64_t i = 0; i < lookups; ++i)
    keys[i] = splitmix64(&st) % (v + 16);
  MEASURE("bsearch", (void)0, bsearch_all((const uint64_t __remote *)arr, bn, keys, lookups));

  uint64_t cn = 1ull << 18, steps = (uint64_t)(128 * scale);
  struct node *nodes = memcoro_far_alloc(cn * sizeof *nodes);
  uint64_t *order = malloc(cn * 8);
  for (uint64_t j = 0; j < cn; ++j)
    order[j] = j;
  for (uint64_t j = cn - 1; j > 0; --j) {
    uint64_t r = splitmix64(&st) % j, x = order[j];
    order[j] = order[r];
    order[r] = x;
  }
  for (uint64_t j = 0; j < cn; ++j) {
    nodes[order[j]].next = order[(j + 1) % cn];
    nodes[order[j]].value = splitmix64(&st);
  }
  MEASURE("chase", (void)0, chase((const struct node __remote *)nodes, cn, 1024, steps < 4 ? 4 : steps));

  uint64_t hb = 1ull << 18, probes_n = (uint64_t)(65536 * scale);
  struct bucket *b = memcoro_far_alloc(hb * sizeof *b);
  uint64_t *probes = malloc(probes_n * 8);
  for (uint64_t i = 0; i < hb * WAYS / 2; ++i) {
    uint64_t key = splitmix64(&st) | 1;
    struct bucket *x = &b[mix64(key) & (hb - 1)], *y = &b[mix64(key ^ 0xC2B2AE3D27D4EB4FULL) & (hb - 1)];
    unsigned nx = 0, ny = 0;
    while (nx < WAYS && x->key[nx]) ++nx;
    while (ny < WAYS && y->key[ny]) ++ny;
    struct bucket *to = ny < nx ? y : x;
    unsigned at = ny < nx ? ny : nx;
    if (at < WAYS) {
      to->key[at] = key;
      to->value[at] = mix64(key);
    }
    if (i < probes_n)
      probes[i] = (i & 1) ? key : (key & ~1ull) | 2;
  }
  MEASURE("hashprobe", (void)0, hashprobe((const struct bucket __remote *)b, hb - 1, probes, probes_n));
  return 0;
}
