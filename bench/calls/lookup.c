// A lookup helper the loop calls, not inlined (issue 17, item 7): a chained
// hash probe defined noinline in this file (memcoro copies it into the loop)
// and the same probe in another translation unit (the loop resumes the
// resumable clone memcoro gave it there), each a nested coroutine, beside the
// same loop left serial, in one process. Each
// variant's answer is checked against the serial loop's. Thread CPU time per
// key, best of the trials.
//
//   build/bin/memcoro-cc -O2 -DPAR=32 bench/calls/lookup.c bench/calls/lookup_tu.c -o lookup
//   ./lookup [entries = 8M] [keys = 2M] [trials = 5]
#include <stdio.h>
#include <stdlib.h>

#include "../standalone.h"
#include "lookup.h"
#ifndef PAR
#define PAR 32
#endif

__attribute__((noinline)) static int64_t probe_here(struct entry *const *heads, uint64_t mask, uint64_t key) {
  for (const struct entry *e = heads[hash_of(key) & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}

#define LOOPS(NAME, PROBE)                                                                                 \
  __attribute__((noinline)) static int64_t NAME##_serial(struct entry *const *h, uint64_t m, const uint64_t *k, \
                                                         long n) {                                         \
    int64_t s = 0;                                                                                          \
    for (long i = 0; i < n; i++)                                                                            \
      s += PROBE(h, m, k[i]);                                                                               \
    return s;                                                                                               \
  }                                                                                                         \
  __attribute__((noinline)) static int64_t NAME##_memcoro(struct entry *const *h, uint64_t m, const uint64_t *k, \
                                                          long n) {                                        \
    int64_t s = 0;                                                                                          \
    _Pragma("memcoro parallel(PAR)") for (long i = 0; i < n; i++) s += PROBE(h, m, k[i]);                   \
    return s;                                                                                               \
  }
LOOPS(here, probe_here)
LOOPS(elsewhere, probe_elsewhere)

typedef int64_t (*loop_fn)(struct entry *const *, uint64_t, const uint64_t *, long);

int main(int argc, char **argv) {
  long entries = argc > 1 ? atol(argv[1]) : 8L << 20;
  long nkeys = argc > 2 ? atol(argv[2]) : 2L << 20;
  int trials = argc > 3 ? atoi(argv[3]) : 5;
  uint64_t buckets = 1;
  while (buckets < (uint64_t)entries)
    buckets <<= 1;
  struct entry **heads = calloc(buckets, sizeof *heads);
  struct entry *pool = malloc(entries * sizeof *pool);
  uint64_t *keys = malloc(nkeys * sizeof *keys);
  // Entries in random order in memory, so that a chain's nodes miss too.
  long *order = malloc(entries * sizeof *order);
  for (long i = 0; i < entries; i++)
    order[i] = i;
  for (long i = entries - 1; i > 0; i--) {
    long j = rnd() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (long i = 0; i < entries; i++) {
    struct entry *e = &pool[order[i]];
    e->key = (uint64_t)i * 2654435761u + 1;
    e->value = (int64_t)(rnd() % 1000);
    uint64_t b = hash_of(e->key) & (buckets - 1);
    e->next = heads[b];
    heads[b] = e;
  }
  for (long i = 0; i < nkeys; i++)
    keys[i] = (rnd() % (2 * entries)) * 2654435761u + 1; // about half hit
  struct {
    const char *name;
    loop_fn fn;
  } variants[] = {{"same-TU serial", here_serial},
                  {"same-TU memcoro (nested)", here_memcoro},
                  {"other-TU serial", elsewhere_serial},
                  {"other-TU memcoro (resumed)", elsewhere_memcoro}};
  enum { V = sizeof variants / sizeof variants[0] };
  double best[V];
  int64_t answer[V];
  for (int v = 0; v < V; v++)
    best[v] = 1e30;
  for (int t = 0; t < trials; t++)
    for (int v = 0; v < V; v++) {
      double t0 = cpu();
      answer[v] = variants[v].fn(heads, buckets - 1, keys, nkeys);
      double dt = cpu() - t0;
      if (dt < best[v])
        best[v] = dt;
    }
  int ok = 1;
  printf("entries %ld (%.0f MiB), keys %ld, parallel(%d), best of %d\n", entries,
         (entries * sizeof *pool + buckets * sizeof *heads) / 1048576.0, nkeys, PAR, trials);
  for (int v = 0; v < V; v++) {
    int same = answer[v] == answer[v & ~1];
    ok &= same;
    printf("  %-28s %6.1f ns/key  %5.2fx serial  %s\n", variants[v].name, 1e9 * best[v] / nkeys,
           best[v & ~1] / best[v], same ? "verified" : "WRONG ANSWER");
  }
  return ok ? 0 : 1;
}
