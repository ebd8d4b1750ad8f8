// double_indirect: a[b[c[i]]], a chain of two dependent indirect loads.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  int64_t *a = diff_alloc(sizeof *a * TABLE);
  int32_t *b = diff_alloc(sizeof *b * TABLE);
  int32_t *c = diff_alloc(sizeof *c * (n + 1));
  for (int i = 0; i < TABLE; ++i) { a[i] = (int64_t)diff_rand(); b[i] = diff_rand() % TABLE; }
  for (int i = 0; i < n; ++i) c[i] = diff_rand() % TABLE;
  uint64_t x = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    x ^= (uint64_t)a[b[c[i]]] + (uint64_t)i;
  printf("%llx\n", (unsigned long long)x);
  return 0;
}
