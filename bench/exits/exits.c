// Loops with exits on data (issue 17, items 6 and 9), each beside the same
// loop left serial, in one process: a work list walked node by node whose
// body gathers from a large table per node (each node, or a filter that
// branches on the entry) (the list's order shuffled or in
// allocation order), and a search for the first index whose table entry
// matches, which exits near the end. Answers are compared with the serial
// loop's. Thread CPU time per iteration, best of the trials.
//
//   build/bin/memcoro-cc -O2 -DPAR=32 bench/exits/exits.c -o exits
//   ./exits [table MiB = 512] [nodes = 2M] [trials = 5]
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../standalone.h"
#ifndef PAR
#define PAR 32
#endif

struct work { int64_t key; struct work *next; };

__attribute__((noinline)) static int64_t walk_serial(const struct work *p, const int64_t *t) {
  int64_t sum = 0;
  for (; p; p = p->next)
    sum += t[p->key];
  return sum;
}
__attribute__((noinline)) static int64_t walk_memcoro(const struct work *p, const int64_t *t) {
  int64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (; p; p = p->next)
    sum += t[p->key];
  return sum;
}
// A filter: the node counts when its entry passes a test, which the branch
// predictor cannot learn (the serial loop's run-ahead stops at each miss).
__attribute__((noinline)) static int64_t walk2_serial(const struct work *p, const int64_t *t, size_t mask) {
  int64_t sum = 0;
  for (; p; p = p->next)
    if (t[p->key] & 1) {
      sum += t[(p->key + 8) & mask] >> 1;
    }
  return sum;
}
__attribute__((noinline)) static int64_t walk2_memcoro(const struct work *p, const int64_t *t, size_t mask) {
  int64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (; p; p = p->next)
    if (t[p->key] & 1) {
      sum += t[(p->key + 8) & mask] >> 1;
    }
  return sum;
}
__attribute__((noinline)) static long find_serial(const int64_t *t, const int64_t *idx, long n, int64_t key) {
  for (long i = 0; i < n; ++i)
    if (t[idx[i]] == key)
      return i;
  return -1;
}
__attribute__((noinline)) static long find_memcoro(const int64_t *t, const int64_t *idx, long n, int64_t key) {
#pragma memcoro parallel(PAR)
  for (long i = 0; i < n; ++i)
    if (t[idx[i]] == key)
      return i;
  return -1;
}

int main(int argc, char **argv) {
  size_t words = (size_t)(argc > 1 ? atol(argv[1]) : 512) << 17;
  long nodes = argc > 2 ? atol(argv[2]) : 2000000;
  int trials = argc > 3 ? atoi(argv[3]) : 5;
  int64_t *t = malloc(words * sizeof *t);
  struct work *w = malloc(nodes * sizeof *w);
  long *order = malloc(nodes * sizeof *order);
  int64_t *idx = malloc(nodes * sizeof *idx);
  if (!t || !w || !order || !idx)
    return 1;
  for (size_t i = 0; i < words; ++i) t[i] = (int64_t)(rnd() % 1000000);
  for (long i = 0; i < nodes; ++i) {
    w[i].key = rnd() % words;
    idx[i] = rnd() % words;
    order[i] = i;
  }
  int64_t key = 1000001;
  t[idx[nodes - nodes / 16]] = key;
  double best[8];
  for (int v = 0; v < 8; ++v) best[v] = 1e30;
  for (int shuffled = 0; shuffled < 2; ++shuffled) {
    if (shuffled)
      for (long i = nodes - 1; i > 0; --i) {
        long j = rnd() % (i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
      }
    for (long i = 0; i < nodes; ++i) w[order[i]].next = i + 1 < nodes ? &w[order[i + 1]] : NULL;
    for (int r = 0; r < trials; ++r) {
      double t0 = cpu();
      int64_t a = walk_serial(&w[order[0]], t);
      double t1 = cpu();
      int64_t b = walk_memcoro(&w[order[0]], t);
      double t2 = cpu();
      if (a != b) {
        fprintf(stderr, "walk: %lld != %lld\n", (long long)a, (long long)b);
        return 1;
      }
      if (t1 - t0 < best[2 * shuffled]) best[2 * shuffled] = t1 - t0;
      if (t2 - t1 < best[2 * shuffled + 1]) best[2 * shuffled + 1] = t2 - t1;
      if (shuffled)
        continue;
      t0 = cpu();
      a = walk2_serial(&w[order[0]], t, words - 1);
      t1 = cpu();
      b = walk2_memcoro(&w[order[0]], t, words - 1);
      t2 = cpu();
      if (a != b) {
        fprintf(stderr, "walk2: %lld != %lld\n", (long long)a, (long long)b);
        return 1;
      }
      if (t1 - t0 < best[6]) best[6] = t1 - t0;
      if (t2 - t1 < best[7]) best[7] = t2 - t1;
    }
  }
  for (int r = 0; r < trials; ++r) {
    double t0 = cpu();
    long a = find_serial(t, idx, nodes, key);
    double t1 = cpu();
    long b = find_memcoro(t, idx, nodes, key);
    double t2 = cpu();
    if (a != b) {
      fprintf(stderr, "find: %ld != %ld\n", a, b);
      return 1;
    }
    if (t1 - t0 < best[4]) best[4] = t1 - t0;
    if (t2 - t1 < best[5]) best[5] = t2 - t1;
  }
  const char *names[] = {"walk, list in allocation order", "walk, list shuffled", "first match (at 15/16)",
                         "walk, filter on the entry"};
  double per[] = {(double)nodes, (double)nodes, (double)(nodes - nodes / 16), (double)nodes};
  printf("%-32s %12s %12s %8s\n", "loop", "serial ns", "memcoro ns", "speedup");
  for (int k = 0; k < 4; ++k)
    printf("%-32s %12.1f %12.1f %7.2fx\n", names[k], 1e9 * best[2 * k] / per[k], 1e9 * best[2 * k + 1] / per[k],
           best[2 * k] / best[2 * k + 1]);
  return 0;
}
