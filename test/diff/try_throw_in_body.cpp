// try_throw_in_body: the body throws and catches its own exception
// (std::runtime_error, whose constructor may throw too). The two landing
// pads of the throw, equal in every operand, were taken for one computation
// and merged into an ordinary block: the compiler crashed (LatchShape.cpp
// merges arithmetic only).
#include "common.h"
#include <stdexcept>

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  uint32_t *t = (uint32_t *)diff_alloc(sizeof *t * 4096), *idx = (uint32_t *)diff_alloc(sizeof *idx * (n + 1));
  for (int i = 0; i < 4096; i++) t[i] = (uint32_t)(diff_rand() % 5);
  for (int i = 0; i < n; i++) idx[i] = (uint32_t)(diff_rand() % 4096);
  long bad = 0, sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    try {
      uint32_t v = t[t[idx[i]] * 97 % 4096];
      if (v == 1)
        throw std::runtime_error("one");
      sum += v;
    } catch (const std::exception &) {
      bad++;
    }
  }
  printf("%ld %ld\n", bad, sum);
  return 0;
}
