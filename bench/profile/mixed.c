// SPDX-License-Identifier: Apache-2.0
// The mixed loop of issue 13: s += hot[ix[i]] * cold[iy[i]], both loads
// indirect, hot a small table that stays in L1, cold a large one whose loads
// miss. The loop as a user writes it, one pragma; bench/profile/mixed.sh
// compiles this file once per build (-fno-memcoro, memcoro, memcoro with the
// profile of a -fmemcoro-profile-generate build, each with parallel(16),
// parallel(64) and no clause) under the name MIXED and links every copy
// into one binary with mixed_main.c, which times them side by side.
#include <stddef.h>
#include <stdint.h>

#ifndef PAR
#define PAR parallel(16)
#endif

int64_t MIXED(const int64_t *hot, const int64_t *cold, const uint32_t *ix, const uint32_t *iy, size_t n) {
  int64_t s = 0;
#pragma memcoro PAR
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}
