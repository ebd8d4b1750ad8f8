/* SPDX-License-Identifier: Apache-2.0 */
/* The lookup service loop of bench/scavenger, as a user writes it: one
 * marked loop, parallel(1) since a request is served alone. run.sh builds it
 * with -fno-memcoro (lookup_serial) and with -fmemcoro-scavenge=NS
 * -DVARIANT=NS (lookup_NS): then each miss of the walk prefetches and hands
 * the stall to the thread's scavengers for up to NS ns. */
#include "lookup.h"

#ifndef VARIANT
#define VARIANT serial
#endif
#define LOOKUP_NAME(v) LOOKUP_NAME2(v)
#define LOOKUP_NAME2(v) lookup_##v

uint64_t LOOKUP_NAME(VARIANT)(const struct table *t, const uint32_t *keys, long n, uint64_t *out) {
  struct node **heads = t->heads;
  uint64_t mask = t->mask, found = 0;
#pragma memcoro parallel(1)
  for (long i = 0; i < n; ++i) {
    uint64_t key = keys[i], value = 0;
    for (const struct node *p = heads[key & mask]; p; p = p->next)
      if (p->key == key)
        value = p->value;
    out[i] = value;
    found += value != 0;
  }
  return found;
}
