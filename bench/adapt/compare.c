// SPDX-License-Identifier: Apache-2.0
// Times the copies of loops.c side by side in one process (bench/adapt/run.sh):
//   compare BYTES OPS [CALLS]   table of BYTES, OPS updates then gathers, split into CALLS executions
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define VARIANTS X(serial) X(fixed) X(sampled) X(defaultn)
#define X(v) void update_##v(uint64_t *, const uint32_t *, size_t); uint64_t gather_##v(const uint64_t *, const uint32_t *, size_t);
VARIANTS
#undef X
static double now(void) { struct timespec ts; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec * 1e9 + ts.tv_nsec; }
static uint64_t checksum(const uint64_t *t, size_t n) {
  uint64_t h = 0;
  for (size_t i = 0; i < n; ++i) h = h * 31 + t[i];
  return h;
}
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
  size_t bytes = strtoull(argv[1], 0, 0), ops = strtoull(argv[2], 0, 0), calls = argc > 3 ? strtoull(argv[3], 0, 0) : 1;
  int trials = 15;
  size_t entries = bytes / 8;
  uint64_t *t = malloc(bytes);
  uint32_t *ix = malloc(ops * 4);
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < entries; ++i) t[i] = i * 2654435761u;
  for (size_t i = 0; i < ops; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; ix[i] = x % entries; }
  const char *names[] = {"serial", "fixed16", "sampled16", "defaultN"};
  void (*up[])(uint64_t *, const uint32_t *, size_t) = {update_serial, update_fixed, update_sampled, update_defaultn};
  uint64_t (*ga[])(const uint64_t *, const uint32_t *, size_t) = {gather_serial, gather_fixed, gather_sampled, gather_defaultn};
  double tu[4][16], tg[4][16];
  // Verified untimed: the serial update applied after a variant's undoes it
  // (the same xors), so the table's checksum must come back; the serial
  // gather of the same table must give the variant's sum.
  int failures = 0;
  for (int tr = -1; tr < trials; ++tr)
    for (int v = 0; v < 4; ++v) {
      size_t chunk = ops / calls;
      uint64_t before = checksum(t, entries);
      double a = now();
      for (size_t c = 0; c < calls; ++c) up[v](t, ix + c * chunk, chunk);
      double b = now();
      uint64_t s = 0, ref = 0;
      for (size_t c = 0; c < calls; ++c) s += ga[v](t, ix + c * chunk, chunk);
      double e = now();
      for (size_t c = 0; c < calls; ++c) ref += ga[0](t, ix + c * chunk, chunk);
      for (size_t c = 0; c < calls; ++c) up[0](t, ix + c * chunk, chunk);
      if (s != ref || checksum(t, entries) != before) {
        printf("verify FAIL: %s\n", names[v]);
        ++failures;
      }
      if (tr >= 0) { tu[v][tr] = (b - a) / ops; tg[v][tr] = (e - b) / ops; }
    }
  printf("bytes=%zu ops=%zu calls=%zu (ns/op, least of %d; ratio = serial/variant)\n", bytes, ops, calls, trials);
  double su, sg;
  for (int v = 0; v < 4; ++v) {
    qsort(tu[v], trials, sizeof(double), cmp); qsort(tg[v], trials, sizeof(double), cmp);
    double mu = tu[v][0], mg = tg[v][0];
    if (v == 0) { su = mu; sg = mg; }
    printf("  %-10s update %6.2f (%.2fx)   gather %6.2f (%.2fx)\n", names[v], mu, su / mu, mg, sg / mg);
  }
  printf("Verification: %s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
