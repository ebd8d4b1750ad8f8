// struct_fields: several fields of one remote record (spatial coalescing: one suspension).
#include "common.h"
struct record { int64_t a, b, c; int32_t d; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { RECORDS = 1 << 14 };
  struct record *recs = diff_alloc(sizeof *recs * RECORDS);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < RECORDS; ++i) {
    recs[i].a = (int64_t)(diff_rand() % 1000);
    recs[i].b = (int64_t)(diff_rand() % 1000);
    recs[i].c = (int64_t)(diff_rand() % 1000);
    recs[i].d = (int32_t)(diff_rand() % 1000);
  }
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % RECORDS;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    const struct record *r = &recs[idx[i]];
    out[i] = r->a * 3 + r->b - r->c * r->d;
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
