// ordered_scalar: `#pragma memcoro ordered` over locals the optimiser keeps in registers: a running hash of gathered values (the statement form), then, in a region inside a condition, a floating-point recurrence and the last index it saw. Each is carried from one iteration to the next by the region alone; they stayed serial ("a value is carried").
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { M = 1 << 12 };
  uint32_t *t = diff_alloc(sizeof *t * M);
  for (int i = 0; i < M; ++i) t[i] = (uint32_t)diff_rand();
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < n; ++i) idx[i] = (uint32_t)(diff_rand() % M);
  uint64_t oh = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % M];
#pragma memcoro ordered
    oh = oh * 1000003 + v;
  }
  double acc = 1.0;
  int last = -1;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % M];
    if (v % 3) {
#pragma memcoro ordered
      {
        acc = acc * 0.75 + (double)(v % 1000);
        last = i;
      }
    }
  }
  printf("%llx %.17g %d\n", (unsigned long long)oh, acc, last);
  return 0;
}
