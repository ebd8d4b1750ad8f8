// pointer_iv: the induction variable is a pointer walking an index array.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 15 };
  uint32_t *a = diff_alloc(sizeof *a * TABLE);
  uint32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < TABLE; ++i) a[i] = (uint32_t)diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  uint32_t x = 0;
#pragma memcoro parallel(N)
  for (const uint32_t *p = idx; p != idx + n; ++p)
    x ^= a[*p];
  printf("%x\n", x);
  return 0;
}
