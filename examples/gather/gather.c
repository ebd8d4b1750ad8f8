/* SPDX-License-Identifier: Apache-2.0 */
/* An example of a memory-bound loop marked for memcoro: sum a table through a
 * random permutation of its indices, so every access misses the cache. The
 * program checks its answers against plain loops and exits 1 on a mismatch. */
#include <memcoro/memcoro.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { SIZE = 1 << 22 };

static uint64_t next_random(uint64_t *state) {
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  return *state >> 33;
}

int main(void) {
  uint64_t *table = malloc(SIZE * sizeof *table);
  uint32_t *order = malloc(SIZE * sizeof *order);
  if (!table || !order)
    return 2;
  uint64_t state = 42;
  for (uint32_t i = 0; i < SIZE; ++i) {
    table[i] = next_random(&state);
    order[i] = i;
  }
  for (uint32_t i = SIZE - 1; i > 0; --i) {
    uint32_t j = (uint32_t)(next_random(&state) % (i + 1));
    uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }

  /* Each iteration's load of table[] is independent of the others': memcoro
   * keeps 16 of them in flight. */
  uint64_t sum = 0;
#pragma memcoro parallel(16) remote(table)
  for (uint32_t i = 0; i < SIZE; ++i)
    sum += table[order[i]];

  /* A hash of the values in order carries `h` from one iteration to the
   * next (h * 31 + x is no reduction), and its loads walk the table in order,
   * which the hardware prefetcher already follows: this loop stays serial;
   * memcoro-report says why. */
  uint64_t h = 0;
#pragma memcoro parallel(16) remote(table)
  for (uint32_t i = 0; i < SIZE; ++i)
    if (table[i] & 1)
      h = h * 31 + table[i];

  uint64_t expect_sum = 0;
  uint64_t expect_h = 0;
  for (uint32_t i = 0; i < SIZE; ++i) {
    expect_sum += table[i];
    if (table[i] & 1)
      expect_h = expect_h * 31 + table[i];
  }
  int ok = sum == expect_sum && h == expect_h;
  printf("sum %llu, hash of the odd values %llx: %s\n", (unsigned long long)sum, (unsigned long long)h,
         ok ? "right" : "WRONG");
  free(table);
  free(order);
  return ok ? 0 : 1;
}
