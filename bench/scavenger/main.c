/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Primary/scavenger co-scheduling measured as MSH measures it (bench/scavenger,
 * README there): a latency-critical primary, a lookup service whose every
 * request walks a hash chain of misses, timed per request (P50, P95), shares
 * its thread with best-effort scavengers, a streaming scan and a second
 * pointer chase. For each bound on the time a stall is handed over (the
 * inter-yield distance, -fmemcoro-scavenge=NS) it reports the primary's
 * latency and the scavengers' throughput, each to be divided by the same
 * thing running alone, measured in the same process and repeat.
 *
 *   scavenger-bench [--ops N] [--repeat R] [--mib M]     CSV on stdout
 */
#include "lookup.h"

#include "memcoro/scavenger.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef uint64_t (*lookup_fn)(const struct table *, const uint32_t *, long, uint64_t *);

static const struct {
  const char *name;
  lookup_fn fn;
} variants[] = {{"25", lookup_25},   {"50", lookup_50},   {"100", lookup_100},  {"200", lookup_200},
                {"400", lookup_400}, {"800", lookup_800}, {"1600", lookup_1600}};
enum { VARIANTS = sizeof variants / sizeof variants[0], CHAIN = 3, CHASE_BATCH = 64, SCAN_CHUNK = 64 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* CPU time of this thread, which runs the primary and its scavengers alike:
 * on the shared machine the thread is often preempted, and time spent
 * waiting for a CPU must count neither as the primary's nor as harvest. */
static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* On 2 MiB pages where the kernel has them: with 4 KiB pages every access to
 * a table this size also misses the TLB, and under the hypervisor a nested
 * page walk then costs more than the miss itself, which would hide what
 * the bench measures. */
static void *alloc(size_t bytes) {
  size_t huge = 2u << 20, rounded = (bytes + huge - 1) / huge * huge;
  void *p = aligned_alloc(huge, rounded);
  if (!p) {
    perror("aligned_alloc");
    exit(1);
  }
  madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

static uint64_t value_of(uint64_t key) { return key * 3 + 1; }

/* buckets chains of CHAIN nodes each, the nodes in random order in memory;
 * keys receives one key per node (requests pick among them). */
static void build_table(struct table *t, uint64_t buckets, uint32_t **keys_out, uint64_t *nkeys) {
  uint64_t nodes = buckets * CHAIN;
  struct node *pool = alloc(nodes * sizeof *pool);
  uint32_t *perm = alloc(nodes * sizeof *perm);
  for (uint64_t i = 0; i < nodes; ++i)
    perm[i] = (uint32_t)i;
  for (uint64_t i = nodes - 1; i > 0; --i) {
    uint64_t j = rng() % (i + 1);
    uint32_t x = perm[i];
    perm[i] = perm[j];
    perm[j] = x;
  }
  t->heads = alloc(buckets * sizeof *t->heads);
  t->mask = buckets - 1;
  memset(t->heads, 0, buckets * sizeof *t->heads);
  uint32_t *keys = alloc(nodes * sizeof *keys);
  for (uint64_t i = 0; i < nodes; ++i) {
    struct node *n = &pool[perm[i]];
    uint64_t bucket = i % buckets;
    /* Distinct keys: the bucket in the low bits, the chain position above. */
    n->key = bucket | ((i / buckets) << 24);
    n->value = value_of(n->key);
    n->next = t->heads[bucket];
    t->heads[bucket] = n;
    keys[i] = (uint32_t)n->key;
  }
  free(perm);
  *keys_out = keys;
  *nkeys = nodes;
}

struct scan_state {
  const uint64_t *v;
  uint64_t n; /* a multiple of SCAN_CHUNK */
  uint64_t at, done, sum;
  volatile int stop;
};

static void scan_chunk(struct scan_state *s) {
  uint64_t acc = 0;
  const uint64_t *p = s->v + s->at;
  for (int j = 0; j < SCAN_CHUNK; ++j)
    acc += p[j];
  s->sum += acc;
  s->done += SCAN_CHUNK;
  s->at = s->at + SCAN_CHUNK == s->n ? 0 : s->at + SCAN_CHUNK;
}

/* The streaming scavenger: no misses to stall on (the hardware prefetcher
 * streams), so it yields every chunk (512 bytes, some 50 ns), a bounded-distance yield. */
static void scan_scavenger(void *arg) {
  struct scan_state *s = arg;
  while (!s->stop) {
    scan_chunk(s);
    memcoro_scavenger_yield();
  }
}

struct chase_state {
  const struct table *t;
  const uint32_t *keys;
  uint64_t nkeys, at, done, bad;
  uint64_t out[CHASE_BATCH];
  volatile int stop;
};

static void chase_batch(struct chase_state *c) {
  /* Any scavenger-mode build: in a scavenger the bound is the primary's. */
  lookup_200(c->t, c->keys + c->at, CHASE_BATCH, c->out);
  for (int i = 0; i < CHASE_BATCH; ++i)
    c->bad += c->out[i] != value_of(c->keys[c->at + i]);
  c->done += CHASE_BATCH;
  c->at = c->at + 2 * CHASE_BATCH > c->nkeys ? 0 : c->at + CHASE_BATCH;
}

/* The second pointer chase: the same loop, whose misses yield. */
static void chase_scavenger(void *arg) {
  struct chase_state *c = arg;
  while (!c->stop)
    chase_batch(c);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

struct primary {
  const struct table *t;
  const uint32_t *requests;
  long ops;
  uint64_t *ticks;
};

/* Serves the requests one at a time, as a closed-loop client sends them:
 * each key depends on the previous answer (its top bit is always 0, which
 * the compiler cannot know), so the CPU cannot start the next lookup before
 * this one ends. Times each; returns the thread's CPU time. */
static double serve(const struct primary *p, lookup_fn fn, uint64_t *bad) {
  double t0 = cpu_s();
  uint64_t v = 0;
  for (long i = 0; i < p->ops; ++i) {
    uint32_t key = p->requests[i] ^ (uint32_t)(v >> 63);
    uint64_t start = __builtin_ia32_rdtsc();
    fn(p->t, &key, 1, &v);
    p->ticks[i] = __builtin_ia32_rdtsc() - start;
    *bad += v != value_of(key);
  }
  return cpu_s() - t0;
}

static void report_primary(int rep, const char *scavengers, const char *bound, const struct primary *p,
                           double cpu, double scan_rate, double chase_rate, uint64_t bad) {
  qsort(p->ticks, p->ops, sizeof *p->ticks, cmp_u64);
  double per_ns = memcoro_tsc_per_ns();
  double p50 = p->ticks[p->ops / 2] / per_ns, p95 = p->ticks[p->ops * 95 / 100] / per_ns,
         p99 = p->ticks[p->ops * 99 / 100] / per_ns;
  printf("%d,%s,%s,%.1f,%.1f,%.1f,%.1f,%.4f,%.0f,%.0f,%s\n", rep, scavengers, bound, p50, p95, p99,
         cpu / p->ops * 1e9, cpu, scan_rate, chase_rate, bad ? "FAIL" : "PASS");
}

int main(int argc, char **argv) {
  long ops = 40000;
  int repeat = 3;
  uint64_t mib = 192;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--ops") && i + 1 < argc)
      ops = atol(argv[++i]);
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mib") && i + 1 < argc)
      mib = strtoull(argv[++i], NULL, 10);
    else {
      fprintf(stderr, "usage: %s [--ops N] [--repeat R] [--mib M (nodes per table)]\n", argv[0]);
      return 2;
    }
  }
  /* Buckets: a power of two whose nodes fill about mib MiB. */
  uint64_t buckets = 1;
  while (buckets * 2 * CHAIN * sizeof(struct node) <= mib << 20)
    buckets *= 2;
  struct table primary_table, chase_table;
  uint32_t *primary_keys, *chase_keys;
  uint64_t primary_nkeys, chase_nkeys;
  build_table(&primary_table, buckets, &primary_keys, &primary_nkeys);
  build_table(&chase_table, buckets, &chase_keys, &chase_nkeys);
  uint32_t *chase_requests = alloc(chase_nkeys * sizeof *chase_requests);
  for (uint64_t i = 0; i < chase_nkeys; ++i)
    chase_requests[i] = chase_keys[rng() % chase_nkeys];
  uint64_t scan_n = (mib << 20) / 2 / sizeof(uint64_t) / SCAN_CHUNK * SCAN_CHUNK;
  uint64_t *scan_v = alloc(scan_n * sizeof *scan_v);
  for (uint64_t i = 0; i < scan_n; ++i)
    scan_v[i] = i;

  struct primary p = {&primary_table, alloc(ops * sizeof(uint32_t)), ops, alloc(ops * sizeof(uint64_t))};
  uint32_t *requests = (uint32_t *)p.requests;
  for (long i = 0; i < ops; ++i)
    requests[i] = primary_keys[rng() % primary_nkeys];

  printf("repeat,scavengers,bound_ns,p50_ns,p95_ns,p99_ns,mean_cpu_ns,cpu_s,scan_per_s,chase_per_s,verify\n");
  for (int rep = 1; rep <= repeat; ++rep) {
    uint64_t bad = 0;
    /* Alone: the primary as the user wrote it (serial build), and the
     * scavenger-mode build with no scavenger registered. */
    report_primary(rep, "none", "serial", &p, serve(&p, lookup_serial, &bad), 0, 0, bad);
    bad = 0;
    report_primary(rep, "none", "no-scavengers", &p, serve(&p, lookup_200, &bad), 0, 0, bad);
    /* The scavengers alone, for about as long as a primary run. */
    struct scan_state scan = {scan_v, scan_n, 0, 0, 0, 0};
    double t0 = cpu_s();
    while (cpu_s() - t0 < 0.1)
      for (int k = 0; k < 64; ++k)
        scan_chunk(&scan);
    double scan_alone = scan.done / (cpu_s() - t0);
    struct chase_state chase = {&chase_table, chase_requests, chase_nkeys, 0, 0, 0, {0}, 0};
    t0 = cpu_s();
    while (cpu_s() - t0 < 0.1)
      chase_batch(&chase);
    double chase_alone = chase.done / (cpu_s() - t0);
    printf("%d,scan-alone,-,0,0,0,0,0,%.0f,0,%s\n", rep, scan_alone, "PASS");
    printf("%d,chase-alone,-,0,0,0,0,0,0,%.0f,%s\n", rep, chase_alone, chase.bad ? "FAIL" : "PASS");

    static const char *sets[] = {"scan", "chase", "scan+chase"};
    for (int set = 0; set < 3; ++set)
      for (int v = 0; v < VARIANTS; ++v) {
        scan = (struct scan_state){scan_v, scan_n, 0, 0, 0, 0};
        chase = (struct chase_state){&chase_table, chase_requests, chase_nkeys, 0, 0, 0, {0}, 0};
        bool with_scan = set != 1, with_chase = set != 0;
        if ((with_scan && !memcoro_scavenger_add(scan_scavenger, &scan)) ||
            (with_chase && !memcoro_scavenger_add(chase_scavenger, &chase))) {
          fprintf(stderr, "scavenger-bench: no stack for a scavenger\n");
          return 1;
        }
        bad = 0;
        double cpu = serve(&p, variants[v].fn, &bad);
        double scan_rate = scan.done / cpu, chase_rate = chase.done / cpu;
        scan.stop = chase.stop = 1;
        memcoro_scavenger_drain();
        report_primary(rep, sets[set], variants[v].name, &p, cpu, scan_rate, chase_rate, bad + chase.bad);
      }
    bad = 0;
    report_primary(rep, "none-after", "serial", &p, serve(&p, lookup_serial, &bad), 0, 0, bad);
    fflush(stdout);
  }
  return 0;
}
