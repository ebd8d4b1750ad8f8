// memcmp_keys: records found by comparing their keys with memcmp (an adaptive radix tree's leaf, a bucket of
// fixed-length byte keys), 8 and 12 bytes, and a memcmp whose sign is used: bcmp and memcmp tested against zero
// become loads of both sides (split/ComparesAsAccesses.cpp), so the record's line is prefetched and the
// iteration suspends for it; the ordering compare stays a call in place. Found records and counts compared.
#include "common.h"
#include <string.h>
typedef struct rec { unsigned char key[12]; uint32_t value; struct rec *next; } rec;
enum { BUCKETS = 64 };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  rec *recs = diff_alloc(sizeof *recs * 256);
  rec *heads[BUCKETS] = {0};
  for (int r = 0; r < 256; r++) {
    for (int b = 0; b < 12; b++) recs[r].key[b] = (unsigned char)(diff_rand() % 4);
    recs[r].value = (uint32_t)r + 1;
    recs[r].next = heads[recs[r].key[0] * 16 + recs[r].key[1] * 4 + recs[r].key[2]];
    heads[recs[r].key[0] * 16 + recs[r].key[1] * 4 + recs[r].key[2]] = &recs[r];
  }
  unsigned char (*q)[12] = diff_alloc(12 * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    if (diff_rand() % 2) memcpy(q[i], recs[diff_rand() % 256].key, 12);
    else for (int b = 0; b < 12; b++) q[i][b] = (unsigned char)(diff_rand() % 4);
  }
  uint32_t *found8 = diff_alloc(sizeof *found8 * (n + 1)), *found12 = diff_alloc(sizeof *found12 * (n + 1));
  long below = 0;
#pragma memcoro parallel(N) remote(heads, recs)
  for (int i = 0; i < n; i++) {
    uint32_t v8 = 0, v12 = 0;
    for (rec *e = heads[q[i][0] * 16 + q[i][1] * 4 + q[i][2]]; e; e = e->next) {
      if (!v8 && memcmp(e->key, q[i], 8) == 0) v8 = e->value;
      if (!v12 && !memcmp(e->key, q[i], 12)) v12 = e->value;
      if (memcmp(e->key, q[i], 12) < 0) below++;
    }
    found8[i] = v8;
    found12[i] = v12;
  }
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ found8[i] ^ ((uint64_t)found12[i] << 32)) * 1099511628211ull;
  printf("%llx %ld\n", (unsigned long long)h, below);
  return 0;
}
