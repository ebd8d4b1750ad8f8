// ubsan_std_function: the body calls a std::function, built with -fsanitize=undefined. Guarding the calls that may throw (the call through the function object, the bad_function_call path) left a sanitizer's check block unreachable, and removing unreachable blocks also folded the check's `br i1 true`, deleting blocks LoopInfo still held as the loop's: the compiler crashed (an assertion in memcoro-split's speculateSiblingLoads). Only unreachable blocks go now, each taken out of LoopInfo first; the loop interleaves and sums as the serial loop does.
// flags: -fsanitize=undefined
#include <functional>
#include "common.h"

__attribute__((noinline)) static unsigned long apply(long n, const unsigned *t, const unsigned *idx,
                                                     const std::function<unsigned(unsigned)> &g) {
  unsigned long s = 0;
#pragma memcoro parallel(N)
  for (long i = 0; i < n; i++)
    s += g(t[idx[i]]);
  return s;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  unsigned *t = (unsigned *)diff_alloc(sizeof *t * 4096);
  unsigned *idx = (unsigned *)diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < 4096; k++) t[k] = (unsigned)diff_rand();
  for (int i = 0; i < n; i++) idx[i] = (unsigned)(diff_rand() % 4096);
  unsigned salt = (unsigned)diff_rand();
  std::function<unsigned(unsigned)> g = [salt](unsigned v) { return (v ^ salt) % 1000; };
  printf("%lu\n", apply(n, t, idx, g));
  return 0;
}
