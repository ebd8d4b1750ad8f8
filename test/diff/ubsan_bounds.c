// ubsan_bounds: under -fsanitize=undefined as users build it (reports recover) the checks of a loop's bound — `j < last - first + 1` on globals, checked for overflow, and `i < r->num`, whose struct is checked for alignment and null — run once before the loop, which interleaves; the checks of the body stay in it (issue 17, item 8). Any report would go to stderr: the runner compares stdout, and the program counts its own checks.
// flags: -fsanitize=undefined
#include "common.h"

struct rel {
  const int32_t *keys;
  size_t num;
};

static int first, last;
static int64_t T[4096];

__attribute__((noinline)) static void scale(const int32_t *idx, int64_t *out) {
#pragma memcoro parallel(N)
  for (int j = 0; j < last - first + 1; j++)
    out[j] = T[idx[j]] * 3 + j;
}

__attribute__((noinline)) static uint64_t probe(const struct rel *r, const int32_t *limit) {
  uint64_t sum = 0;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < r->num; i++) {
    int32_t k = r->keys[i];
    if (T[k] < *limit)
      sum += (uint64_t)T[k] + i;
  }
  return sum;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int k = 0; k < 4096; ++k) T[k] = (int64_t)(diff_rand() % 1000);
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % 4096;
  first = 5;
  last = n + 4;
  scale(idx, out);
  struct rel r = {idx, (size_t)n};
  int32_t limit = 700;
  uint64_t sum = probe(&r, &limit);
  printf("%llx %llu\n", (unsigned long long)diff_hash_u64((const uint64_t *)out, n), (unsigned long long)sum);
  return 0;
}
