// expect: serial
// keep_larger_split: `m = h[k]; t = T[idx[i]] & 0xffff; if (t > m) h[k] = t;` keeps each bucket's largest value, its read and conditional store split by the far load of T. The stored value is an operation on other values (`t & 0xffff`), and the recogniser took any operation as an update of the loaded value and gave up: not seen as a keep-the-larger update, the split was taken on the pragma's word and smaller values won. It is one now, and the split that no lock can keep whole (read and store in different blocks) keeps the loop serial.
#include "common.h"

__attribute__((noinline)) static void keep_larger(int n, const int *T, const int *idx, const int *key, int *h) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    int k = key[i];
    int m = h[k];
    int t = T[idx[i]] & 0xffff;
    if (t > m) h[k] = t;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16, BINS = 16 };
  int *T = diff_alloc(sizeof *T * TABLE), *idx = diff_alloc(sizeof *idx * (n + 1));
  int *key = diff_alloc(sizeof *key * (n + 1)), *h = diff_alloc(sizeof *h * BINS);
  for (int j = 0; j < TABLE; j++) T[j] = (int)(diff_rand() & 0x3fffffff);
  for (int i = 0; i < n; i++) {
    idx[i] = (int)(diff_rand() % TABLE);
    key[i] = (int)(diff_rand() % BINS);
  }
  keep_larger(n, T, idx, key, h);
  for (int b = 0; b < BINS; b++) printf("%d%c", h[b], b + 1 < BINS ? ' ' : '\n');
  return 0;
}
