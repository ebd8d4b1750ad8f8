// Tests split/ReductionMirrors.cpp on a counter kept in a global: read before
// the loop, carried in a register, stored where it counts. It is a reduction
// whose place is stored once after the loop, unless a call in the loop may
// read the place (it would see the count before the loop's end).
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stddef.h>

long hits;

void count(size_t n, const size_t *q, const long *keys, size_t mask) {
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    if (keys[keys[q[i] & mask] & mask] == (long)i)
      hits++;
}
// CHECK: split-counter-place.c:[[@LINE-4]]:3: remark: loop turned into 32 interleaved coroutines

__attribute__((pure)) long current_hits(void);

void count_and_look(size_t n, const size_t *q, const long *keys, size_t mask, int *seen) {
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    if (keys[keys[q[i] & mask] & mask] == (long)i) {
      hits++;
      seen[i] = (int)current_hits();
    }
}
// CHECK: split-counter-place.c:[[@LINE-4]]:{{[0-9]+}}: remark: marked loop left serial: a value is carried from one iteration to the next and is not a reduction memcoro recognises
