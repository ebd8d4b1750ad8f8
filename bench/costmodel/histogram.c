// SPDX-License-Identifier: Apache-2.0
// histogram: NPB IS's key count, key_buff1[key[i]]++, into a global table of
// 2^21 counters (8 MiB, class B) as NPB declares it. One op = one key.
// Argument: number of keys (default 2^25).
#include "costmodel.h"

#ifndef MAX_KEY
#define MAX_KEY (1u << 21)
#endif
#ifdef COSTMODEL_MAIN
uint32_t counts_serial[MAX_KEY], counts_memcoro[MAX_KEY], counts_insist[MAX_KEY];
#else
extern uint32_t CM_NAME(counts, VARIANT)[MAX_KEY];
#endif

#ifndef COSTMODEL_MAIN
void KERNEL(histogram)(const uint32_t *key, size_t n) {
#pragma memcoro parallel(CM_N)
  for (size_t i = 0; i < n; ++i)
    CM_NAME(counts, VARIANT)[key[i]]++;
}

#else
void histogram_serial(const uint32_t *, size_t);
void histogram_memcoro(const uint32_t *, size_t);
void histogram_insist(const uint32_t *, size_t);
static uint32_t *key;
static size_t n;

static uint32_t *const table[] = {counts_serial, counts_memcoro, counts_insist};

static void run(int variant) {
  void (*const fn[])(const uint32_t *, size_t) = {histogram_serial, histogram_memcoro, histogram_insist};
  memset(table[variant], 0, sizeof counts_serial);
  fn[variant](key, n);
}

static uint64_t result(int variant) {
  uint64_t h = 0;
  for (size_t k = 0; k < MAX_KEY; ++k)
    h = h * 31 + table[variant][k];
  return h;
}

int main(int argc, char **argv) {
  n = argc > 1 ? cm_bytes(argc, argv, 0) : 1u << 25;
  key = cm_alloc(n * sizeof *key);
  uint64_t s = 3;
  // NPB's keys: the mean of four uniform draws, so the middle of the table is hot.
  for (size_t i = 0; i < n; ++i) {
    uint64_t sum = 0;
    for (int k = 0; k < 4; ++k)
      sum += splitmix64(&s) % MAX_KEY;
    key[i] = (uint32_t)(sum / 4);
  }
  return cm_measure("histogram 8M table (NPB IS)", (double)n, cm_trials(argc, argv), run, result);
}
#endif
