// carried_affine: loop-carried dependences that dependence analysis proves (RAW, WAR, WAW; lockstep- and ring-shaped loops; the conflict outside and inside an inner loop) keep every loop serial, with the serial answer.
// expect: serial
#include "common.h"
static int64_t T[4096];
static int32_t NXT[4096], HEAD[4096];

// Separate functions with pointer parameters, so that the conflicts stay
// memory accesses (not values LLVM carries in registers) in the marked loops.
__attribute__((noinline)) void raw_war(int64_t *a, const int32_t *idx, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    a[i] = a[i + 1] * 3 + T[idx[i]]; // WAR: iteration i + 1 overwrites what i reads
}

__attribute__((noinline)) void waw(int64_t *b, const int32_t *idx, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    b[i] = T[idx[i]];
    b[i + 1] = i; // WAW: iteration i + 1 must overwrite this
  }
}

__attribute__((noinline)) void raw_after_walk(int64_t *a, const int32_t *idx, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t s = 0;
    for (int32_t e = HEAD[idx[i]]; e >= 0; e = NXT[e]) // ring: suspends in the walk
      s += T[e];
    a[i + 2] = a[i] + s; // RAW outside the inner loop
  }
}

__attribute__((noinline)) void raw_in_walk(int64_t *a, const int32_t *idx, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    for (int32_t e = HEAD[idx[i]]; e >= 0; e = NXT[e])
      a[i + 1] = a[i] + T[e]; // RAW inside the inner loop
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *a = diff_alloc(sizeof *a * (n + 3));
  for (int k = 0; k < 4096; ++k) {
    T[k] = (int64_t)(diff_rand() % 1000);
    int32_t next = k + 1 + (int32_t)(diff_rand() % 64); // forward only: every walk ends
    NXT[k] = diff_rand() % 3 == 0 || next >= 4096 ? -1 : next;
    HEAD[k] = diff_rand() % 5 == 0 ? -1 : (int32_t)(diff_rand() % 4096);
  }
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % 4096;
  for (int i = 0; i < n + 3; ++i) a[i] = i;
  raw_war(a, idx, n);
  int64_t *b = diff_alloc(sizeof *b * (n + 2));
  waw(b, idx, n);
  raw_after_walk(a, idx, n);
  raw_in_walk(a, idx, n);
  printf("%llx %llx\n", (unsigned long long)diff_hash_u64((uint64_t *)b, n + 2),
         (unsigned long long)diff_hash_u64((uint64_t *)a, n + 3));
  return 0;
}
