// amu_remote: __remote data read by a gather, a binary search (inner loop), a record's fields, two independent tables, and updated by atomics and xor updates.
#include "common.h"
#include <memcoro/memcoro.h>
struct record { int64_t a, b; int32_t c; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { T = 1 << 14 };
  uint64_t *tp = diff_alloc(sizeof(uint64_t) * T), *up = diff_alloc(sizeof(uint64_t) * T);
  uint64_t *cp = diff_alloc(sizeof(uint64_t) * T), *xp = diff_alloc(sizeof(uint64_t) * T);
  struct record *rp = diff_alloc(sizeof(struct record) * T);
  uint32_t *idx = diff_alloc(sizeof(uint32_t) * (n + 1)), *idy = diff_alloc(sizeof(uint32_t) * (n + 1));
  for (int i = 0; i < T; ++i) {
    tp[i] = 3 * (uint64_t)i + 1;
    up[i] = diff_rand();
    rp[i].a = (int64_t)diff_rand();
    rp[i].b = i;
    rp[i].c = (int32_t)i * 5;
  }
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % T, idy[i] = (uint32_t)i % T;
  const uint64_t __remote *t = (const uint64_t __remote *)tp, *u = (const uint64_t __remote *)up;
  uint64_t __remote *c = (uint64_t __remote *)cp;
  uint64_t __remote *x = (uint64_t __remote *)xp;
  const struct record __remote *r = (const struct record __remote *)rp;

  uint64_t gather = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) gather += t[idx[i]];

  uint64_t found = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint64_t key = 3 * (uint64_t)idx[i] + (i & 1), lo = 0, len = T;
    while (len > 1) {
      uint64_t half = len / 2;
      if (t[lo + half] <= key) lo += half;
      len -= half;
    }
    found += t[lo] == key ? lo : 1;
  }

  int64_t fields = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) fields += r[idx[i]].a ^ (r[idx[i]].b + r[idx[i]].c);

  uint64_t both = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) both += t[idx[i]] * u[idx[i]];

#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) __atomic_fetch_add(&c[idx[i]], (uint64_t)i + 1, __ATOMIC_RELAXED);

#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) x[idy[i]] ^= t[idx[i]];

  printf("%llx %llx %llx %llx %llx %llx\n", (unsigned long long)gather, (unsigned long long)found,
         (unsigned long long)fields, (unsigned long long)both, (unsigned long long)diff_hash_u64(cp, T),
         (unsigned long long)diff_hash_u64(xp, T));
  return 0;
}
