// ubsan_reduction: signed counters and sums of a lookup batch (`hits++`, `total += v`) under -fsanitize=undefined are updates checked for overflow; each is one reduction whose iterations add their part to 0, which cannot overflow, so the check reports nothing the serial loop would not — a report aborts here (-fno-sanitize-recover) — and the loop interleaves (issue 17, item 8). Two checked updates of one total, which must keep the loop serial, are tested in test/lit/split-sanitizer-checks.c.
// flags: -fsanitize=undefined -fno-sanitize-recover=all
#include "common.h"

static int64_t T[4096];

__attribute__((noinline)) static void lookups(const int32_t *keys, size_t n, int64_t limit, long *hits,
                                              int64_t *total) {
  long h = 0;
  int64_t t = 0;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < n; i++) {
    int64_t v = T[keys[i]];
    if (v < limit) {
      h++;
      t += v - 500;
    }
  }
  *hits = h;
  *total = t;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) keys[i] = diff_rand() % 4096;
  long hits;
  int64_t total;
  lookups(keys, (size_t)n, 700, &hits, &total);
  printf("%ld %lld\n", hits, (long long)total);
  return 0;
}
