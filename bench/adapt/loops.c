// SPDX-License-Identifier: Apache-2.0
// The two loops of issue 15 that run-time adaptation is measured on (bench/adapt/run.sh):
// compiled once per variant, V names the copy, DEFAULT_N leaves the parallel clause out.
#include <stddef.h>
#include <stdint.h>
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#ifdef DEFAULT_N
#define MARK _Pragma("memcoro remote(t)")
#else
#define MARK _Pragma("memcoro parallel(16) remote(t)")
#endif
void CAT(update_, V)(uint64_t *t, const uint32_t *ix, size_t n) {
  MARK
  for (size_t i = 0; i < n; ++i)
    t[ix[i]] ^= i;
}
uint64_t CAT(gather_, V)(const uint64_t *t, const uint32_t *ix, size_t n) {
  uint64_t s = 0;
  MARK
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
