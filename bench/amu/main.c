/* SPDX-License-Identifier: Apache-2.0 */
/*
 * amu-bench: runs the hand-written AMU kernels (GUPS, binary search, pointer
 * chase, hash probe) in their serial, static, dynamic, dynamic+aset and bafin
 * versions over emulated far memory, and writes one CSV row per run.
 * Every run is verified against the serial answer before it is reported.
 *
 *   amu-bench [--latency 100,200,400,800,1000] [--parallel 4,8,...,512]
 *             [--kernels gups,bsearch,chase,hashprobe]
 *             [--versions serial,static,dynamic,aset,bafin] [--trials 5]
 *             [--scale 1] [--bandwidth B_PER_NS] [--entries 512]
 *             [--jitter uniform:NS | bimodal:SLOW_NS:FRACTION |
 *                       relative-uniform:FACTOR | relative-bimodal:SLOW_FACTOR:FRACTION]
 *             [--csv FILE]
 *   amu-bench --cost          the emulator's own cost and fidelity
 */
#define _GNU_SOURCE
#include "harness.h"

#include <math.h>
#include <string.h>
#include <time.h>

#define MAX_LIST 32

struct options {
  double latency[MAX_LIST];
  unsigned nlatency;
  double parallel[MAX_LIST];
  unsigned nparallel;
  const char *kernels, *versions, *csv;
  unsigned trials;
  double scale, bandwidth;
  unsigned entries;
  enum memcoro_amu_jitter jitter;
  double jitter_ns, slow_ns, slow_fraction;
  bool relative; /* jitter_ns and slow_ns are multiples of the latency */
  bool cost;
};

static const char *const version_names[] = {"serial", "static", "dynamic", "aset", "bafin"};

static void usage(const char *why) {
  fprintf(stderr, "amu-bench: %s\nsee the comment at the top of bench/amu/main.c\n", why);
  exit(2);
}

static unsigned parse_list(const char *s, double *out) {
  unsigned n = 0;
  while (*s) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || n == MAX_LIST || !(v >= 0))
      usage("bad number list");
    out[n++] = v;
    s = *end == ',' ? end + 1 : end;
    if (*end && *end != ',')
      usage("bad number list");
  }
  return n;
}

static bool listed(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
      return true;
  return false;
}

static struct options parse(int argc, char **argv) {
  struct options o = {.trials = 5, .scale = 1, .entries = MEMCORO_AMU_DEFAULT_ENTRIES,
                      .kernels = "gups,bsearch,chase,hashprobe",
                      .versions = "serial,static,dynamic,aset,bafin"};
  o.nlatency = parse_list("100,200,400,800,1000", o.latency);
  o.nparallel = parse_list("4,8,16,32,64,128,256,512", o.parallel);
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--cost")) {
      o.cost = true;
      continue;
    }
    if (!v)
      usage("missing value");
    ++i;
    if (!strcmp(a, "--latency"))
      o.nlatency = parse_list(v, o.latency);
    else if (!strcmp(a, "--parallel"))
      o.nparallel = parse_list(v, o.parallel);
    else if (!strcmp(a, "--kernels"))
      o.kernels = v;
    else if (!strcmp(a, "--versions"))
      o.versions = v;
    else if (!strcmp(a, "--trials"))
      o.trials = (unsigned)atoi(v);
    else if (!strcmp(a, "--scale"))
      o.scale = atof(v);
    else if (!strcmp(a, "--bandwidth"))
      o.bandwidth = atof(v);
    else if (!strcmp(a, "--entries"))
      o.entries = (unsigned)atoi(v);
    else if (!strcmp(a, "--csv"))
      o.csv = v;
    else if (!strcmp(a, "--jitter")) {
      if (sscanf(v, "uniform:%lf", &o.jitter_ns) == 1)
        o.jitter = MEMCORO_AMU_UNIFORM;
      else if (sscanf(v, "bimodal:%lf:%lf", &o.slow_ns, &o.slow_fraction) == 2)
        o.jitter = MEMCORO_AMU_BIMODAL;
      else if (sscanf(v, "relative-uniform:%lf", &o.jitter_ns) == 1)
        o.jitter = MEMCORO_AMU_UNIFORM, o.relative = true;
      else if (sscanf(v, "relative-bimodal:%lf:%lf", &o.slow_ns, &o.slow_fraction) == 2)
        o.jitter = MEMCORO_AMU_BIMODAL, o.relative = true;
      else
        usage("--jitter takes uniform:NS, bimodal:SLOW_NS:FRACTION, relative-uniform:FACTOR "
              "or relative-bimodal:SLOW_FACTOR:FRACTION (factors times the latency)");
    } else
      usage("unknown option");
  }
  if (o.trials == 0 || !(o.scale > 0) || o.entries == 0)
    usage("--trials, --scale and --entries must be positive");
  for (unsigned i = 0; i < o.nparallel; ++i)
    if (o.parallel[i] < 1 || o.parallel[i] > AMU_MAX_PARALLEL)
      usage("--parallel values must be 1..512");
  return o;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every version spins rather than sleeps, so the CPU time of the thread is
 * the time it would take on a core of its own. On the shared machine wall
 * time also counts other engineers' jobs, and penalises long (serial) runs
 * more than short ones, which would inflate speedups. */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct memcoro_amu *make_amu(const struct options *o, double latency) {
  const double scale = o->relative ? latency : 1;
  struct memcoro_amu_model m = {.latency_ns = latency, .jitter = o->jitter,
                                .jitter_ns = o->jitter_ns * scale, .slow_ns = o->slow_ns * scale,
                                .slow_fraction = o->slow_fraction,
                                .bytes_per_ns = o->bandwidth, .table_entries = o->entries,
                                .seed = 1};
  struct memcoro_amu *amu = memcoro_amu_create(&m);
  if (!amu)
    exit(2);
  return amu;
}

/* ---- --cost: what the emulator itself costs, and how closely it keeps time. */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double pair_cost_once(struct memcoro_amu *amu, uint64_t *far, unsigned in_flight) {
  enum { PAIRS = 400000 };
  uint64_t dst[64];
  for (unsigned s = 0; s < in_flight; ++s)
    AMU_CHECK(memcoro_amu_aload(amu, s, &dst[s], &far[s * 8], 8));
  double t0 = cpu_seconds();
  for (uint64_t i = 0; i < PAIRS; ++i) {
    int32_t id;
    while ((id = memcoro_amu_getfin(amu)) == MEMCORO_AMU_NONE) {
    }
    AMU_CHECK(memcoro_amu_aload(amu, (uint32_t)id, &dst[id], &far[(i * 8 * 67) & 0xFFFF], 8));
  }
  double t = cpu_seconds() - t0;
  for (unsigned s = 0; s < in_flight; ++s)
    while (memcoro_amu_getfin(amu) == MEMCORO_AMU_NONE) {
    }
  return t / PAIRS * 1e9;
}

/* Median of 5 batches: robust to the other jobs on a shared machine. */
static double pair_cost(struct memcoro_amu *amu, uint64_t *far, unsigned in_flight) {
  double t[5];
  for (int i = 0; i < 5; ++i)
    t[i] = pair_cost_once(amu, far, in_flight);
  qsort(t, 5, sizeof *t, cmp_double);
  return t[2];
}

static void cost(void) {
  const struct memcoro_amu_clock *c = memcoro_amu_clock_info();
  printf("tsc_ticks_per_ns=%.4f invariant_tsc=%s\n", c->ticks_per_ns,
         c->invariant_tsc ? "yes" : "no");
  enum { READS = 5000000 };
  uint64_t sink = 0;
  double t0 = cpu_seconds();
  for (int i = 0; i < READS; ++i)
    sink += memcoro_amu_now();
  printf("clock_read_ns=%.1f\n", (cpu_seconds() - t0) / READS * 1e9 + (double)(sink & 0));
  uint64_t *far = amu_far_xalloc(1 << 20);
  struct memcoro_amu_model zero = {0}, jitter = {.latency_ns = 0.0};
  struct memcoro_amu *amu = memcoro_amu_create(&zero);
  printf("pair_ns_fixed_1_in_flight=%.1f\n", pair_cost(amu, far, 1));
  printf("pair_ns_fixed_64_in_flight=%.1f\n", pair_cost(amu, far, 64));
  memcoro_amu_destroy(amu);
  jitter.latency_ns = 200;
  jitter.jitter = MEMCORO_AMU_BIMODAL;
  jitter.slow_ns = 800;
  jitter.slow_fraction = 0.1;
  amu = memcoro_amu_create(&jitter);
  printf("pair_ns_bimodal_lanes_64_in_flight=%.1f\n", pair_cost(amu, far, 64));
  memcoro_amu_destroy(amu);
  jitter.jitter = MEMCORO_AMU_UNIFORM;
  jitter.jitter_ns = 200;
  amu = memcoro_amu_create(&jitter);
  printf("pair_ns_uniform_heap_64_in_flight=%.1f\n", pair_cost(amu, far, 64));
  memcoro_amu_destroy(amu);

  /* Fidelity: one request at a time, time from issue to the getfin that
   * returns it, against the model. Earlier than the model never happens
   * (it is a test); lateness is the poll loop plus the clock read. */
  const double model[] = {100, 200, 400, 800, 1000};
  enum { SAMPLES = 4001 };
  static uint64_t late[SAMPLES];
  for (unsigned m = 0; m < sizeof model / sizeof *model; ++m) {
    struct memcoro_amu_model fm = {.latency_ns = model[m]};
    amu = memcoro_amu_create(&fm);
    uint64_t want = memcoro_amu_ns_to_ticks(model[m]), x;
    for (int i = 0; i < SAMPLES; ++i) {
      uint64_t t = memcoro_amu_now();
      AMU_CHECK(memcoro_amu_aload(amu, 0, &x, &far[(i * 8 * 131) & 0x1FFFF], 8));
      while (memcoro_amu_getfin(amu) == MEMCORO_AMU_NONE) {
      }
      uint64_t got = memcoro_amu_now() - t;
      late[i] = got > want ? got - want : 0;
    }
    qsort(late, SAMPLES, sizeof *late, cmp_u64);
    double late_median = memcoro_amu_ticks_to_ns(late[SAMPLES / 2]);
    double late_p99 = memcoro_amu_ticks_to_ns(late[SAMPLES * 99 / 100]);
    /* Serial far_load: the whole access, modelled latency included. */
    for (int i = 0; i < SAMPLES; ++i) {
      uint64_t t = memcoro_amu_now();
      memcoro_far_load(amu, &x, &far[(i * 8 * 131) & 0x1FFFF], 8);
      late[i] = memcoro_amu_now() - t;
    }
    qsort(late, SAMPLES, sizeof *late, cmp_u64);
    printf("model_ns=%.0f lateness_median_ns=%.1f lateness_p99_ns=%.1f far_load_median_ns=%.1f\n",
           model[m], late_median, late_p99, memcoro_amu_ticks_to_ns(late[SAMPLES / 2]));
    memcoro_amu_destroy(amu);
  }
  memcoro_far_free(far);
}

/* ---- The sweep. */

int main(int argc, char **argv) {
  struct options o = parse(argc, argv);
  if (o.cost) {
    cost();
    return 0;
  }
  FILE *out = o.csv ? fopen(o.csv, "w") : stdout;
  if (!out) {
    perror(o.csv);
    return 2;
  }
  fprintf(out, "latency_ns,kernel,version,parallel,trial,seconds,wall_seconds,requests,mlp,verified\n");
  const struct amu_kernel *const kernels[] = {&amu_kernel_gups, &amu_kernel_bsearch,
                                              &amu_kernel_chase, &amu_kernel_hashprobe};
  int failures = 0;
  for (unsigned ki = 0; ki < sizeof kernels / sizeof *kernels; ++ki) {
    const struct amu_kernel *kern = kernels[ki];
    if (!listed(o.kernels, kern->name))
      continue;
    fprintf(stderr, "[%s] building data (scale %.2f)\n", kern->name, o.scale);
    void *k = kern->setup(o.scale, 12345);
    uint64_t requests = kern->requests(k);
    /* The reference answer: serial, no latency. */
    struct memcoro_amu_model instant = {0};
    struct memcoro_amu *ref_amu = memcoro_amu_create(&instant);
    kern->reset(k);
    kern->run(k, ref_amu, AMU_SERIAL, 1);
    uint64_t reference = kern->checksum(k);
    memcoro_amu_destroy(ref_amu);
    for (unsigned li = 0; li < o.nlatency; ++li) {
      struct memcoro_amu *amu = make_amu(&o, o.latency[li]);
      for (int v = AMU_SERIAL; v <= AMU_BAFIN; ++v) {
        if (!listed(o.versions, version_names[v]) || (v == AMU_DYNAMIC_ASET && !kern->aset_width))
          continue;
        unsigned width = v == AMU_DYNAMIC_ASET ? kern->aset_width : 1;
        double t_version = seconds();
        for (unsigned pi = 0; pi < (v == AMU_SERIAL ? 1 : o.nparallel); ++pi) {
          uint32_t n = v == AMU_SERIAL ? 1 : (uint32_t)o.parallel[pi];
          if (n * width > o.entries)
            continue; /* the request table could not hold them */
          for (unsigned t = 0; t < o.trials; ++t) {
            kern->reset(k);
            memcoro_amu_reset_stats(amu);
            double w0 = seconds(), t0 = cpu_seconds();
            kern->run(k, amu, (enum amu_version)v, n);
            double elapsed = cpu_seconds() - t0, wall = seconds() - w0;
            struct memcoro_amu_stats st = memcoro_amu_get_stats(amu);
            bool ok = kern->checksum(k) == reference;
            if (!ok) {
              fprintf(stderr, "[%s] Verification: FAIL (%s, N=%u, %.0f ns)\n", kern->name,
                      version_names[v], n, o.latency[li]);
              ++failures;
            }
            /* Little's law: requests in flight on average = total time in
             * flight / elapsed time (CPU time, as for the speedups). */
            double mlp = memcoro_amu_ticks_to_ns(st.in_flight_ticks) / (elapsed * 1e9);
            fprintf(out, "%.0f,%s,%s,%u,%u,%.9f,%.9f,%llu,%.3f,%s\n", o.latency[li], kern->name,
                    version_names[v], n, t, elapsed, wall, (unsigned long long)st.requests, mlp,
                    ok ? "yes" : "no");
          }
        }
        fflush(out);
        fprintf(stderr, "[%s] %5.0f ns %-8s %6.2f s (%llu requests/run)\n", kern->name,
                o.latency[li], version_names[v], seconds() - t_version,
                (unsigned long long)requests);
      }
      memcoro_amu_destroy(amu);
    }
    kern->teardown(k);
  }
  if (out != stdout)
    fclose(out);
  fprintf(stderr, failures ? "Verification: FAIL (%d runs)\n" : "Verification: PASS\n", failures);
  return failures ? 1 : 0;
}
