/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs the compiled AMU kernels (one per file beside this one) on the
 * software AMU: emulated far memory.
 *
 *   amu-compiled-<build> LATENCY_NS [fixed|bimodal] [scale] [kernel,...|all] [runs]
 * prints: kernel ns-per-run checksum, one line per kernel (median of `runs`
 * runs, 5 unless told, thread CPU time). Every run's answer is checked (the
 * kernel's check); a wrong one stops the program with the reason, exit
 * status 1.
 */
#define _GNU_SOURCE
#include "suite.h"

#include <string.h>
#include <time.h>

extern const struct suite_kernel suite_gups, suite_bsearch, suite_chase, suite_hashprobe, suite_hj, suite_is,
    suite_stream, suite_lbm, suite_mcf, suite_bfs;
static const struct suite_kernel *const kernels[] = {&suite_gups, &suite_bsearch, &suite_chase, &suite_hashprobe,
                                                      &suite_hj,   &suite_is,      &suite_stream, &suite_lbm,
                                                      &suite_mcf,  &suite_bfs};

void *suite_far_alloc(size_t bytes) {
  void *p = memcoro_far_alloc(bytes);
  if (!p) {
    fprintf(stderr, "memcoro_far_alloc(%zu) failed\n", bytes);
    exit(1);
  }
  return p;
}

void *suite_alloc(size_t bytes) {
  void *p = calloc(bytes ? bytes : 1, 1);
  if (!p) {
    perror("calloc");
    exit(1);
  }
  return p;
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

static int selected(const char *list, const char *name) {
  if (!list)
    return 1;
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  double latency = argc > 1 ? atof(argv[1]) : 200, scale = argc > 3 ? atof(argv[3]) : 1;
  const char *only = argc > 4 && strcmp(argv[4], "all") ? argv[4] : NULL;
  int runs = argc > 5 ? atoi(argv[5]) : 5;
  if (runs < 1 || runs > 99)
    runs = 5;
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
  for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; ++k) {
    const struct suite_kernel *K = kernels[k];
    if (!selected(only, K->name))
      continue;
    K->setup(scale);
    double t[99];
    uint64_t sum = 0;
    for (int r = 0; r < runs; ++r) {
      K->reset();
      double t0 = now_ns();
      uint64_t result = K->run();
      t[r] = now_ns() - t0;
      sum = K->digest ? K->digest(result) : result;
      const char *why = K->check(sum);
      if (why) {
        fprintf(stderr, "%s: wrong answer: %s\n", K->name, why);
        return 1;
      }
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp);
    printf("%s %.0f %llx\n", K->name, t[runs / 2], (unsigned long long)sum);
    fflush(stdout);
  }
  return 0;
}
