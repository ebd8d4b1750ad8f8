// expect: serial
// keep_larger_split: `m = h[k]; t = T[idx[i]] & 0xffff; if (t > m) h[k] = t;` keeps each bucket's largest value, its read and conditional store split by the far load of T. The stored value is an operation on other values (`t & 0xffff`), and the recogniser took any operation as an update of the loaded value and gave up: not seen as a keep-the-larger update, the split was taken on the pragma's word and smaller values won. It is one now, and the split that no lock can keep whole (read and store in different blocks) keeps the loop serial.
#include "common.h"

__attribute__((noinline)) static void keep_larger(int n, const int *T, const int *idx, const int *key, int *h) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    int k = key[i] % 16;
    int m = h[k];
    int t = T[idx[i]] & 0xffff;
    if (t > m) h[k] = t;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 16, BINS = 16 };
  int *h = diff_alloc(sizeof *h * BINS);
  int *T = diff_alloc(sizeof *T * TABLE), *idx = diff_alloc(sizeof *idx * (n + 1)), *key = idx + 0;
  for (int j = 0; j < TABLE; j++) T[j] = (int)(diff_rand() >> 34);
  // One array serves as both: the index picks the value, its low bits the bin.
  for (int i = 0; i < n; i++) idx[i] = (int)(diff_rand() % TABLE);
  keep_larger(n, T, idx, key, h);
  uint64_t sum = 0;
  for (int b = 0; b < BINS; b++) sum = sum * 65599 + (unsigned)h[b % BINS];
  printf("%llx\n", (unsigned long long)sum);
  return 0;
}
