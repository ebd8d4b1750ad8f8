// calls_other_tu: helpers in another translation unit run in place in the interleaved iterations, or are resumed there as nested coroutines (issue 17, item 7).
// also: tu/calls_lookup.c
#include "common.h"

struct entry {
  int64_t key, value;
  struct entry *next;
};
uint64_t hash_key(int64_t key);
void record(int64_t *slot, int64_t value);
int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key);

// Lookup, then a helper that writes the iteration's own slot (pipeline);
// built with -fopenmp too (diff-openmp/calls_other_tu.c), each thread's chunk.
__attribute__((noinline)) void lookup_record(int64_t *out, const int64_t *table, const int64_t *keys, int n,
                                             uint64_t mask) {
#pragma omp parallel for schedule(static) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    record(&out[i], table[hash_key(keys[i]) & mask] + i);
}

// A helper on one path only, a reduction around it (ring).
__attribute__((noinline)) int64_t probe_odd(int64_t *found, const int64_t *table, const int64_t *keys, int n,
                                            struct entry *const *heads, uint64_t mask) {
  int64_t sum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    int64_t v = table[keys[i] & mask];
    if (v & 1)
      v = probe(heads, mask, keys[i]);
    sum += v;
    found[i] = v;
  }
  return sum;
}

// The probe is the loop's only far access: the iteration resumes the
// probe's resumable clone in the other unit (a nested coroutine).
__attribute__((noinline)) int64_t probe_all(int64_t *found, const int64_t *keys, int n, struct entry *const *heads,
                                            uint64_t mask) {
  int64_t hits = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    found[i] = probe(heads, mask, keys[i]);
    hits += found[i] >= 0;
  }
  return hits;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { TABLE = 1 << 12 };
  int64_t *table = diff_alloc(sizeof *table * TABLE);
  int64_t *keys = diff_alloc(sizeof *keys * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  int64_t *found = diff_alloc(sizeof *found * (n + 1));
  struct entry **heads = diff_alloc(sizeof *heads * TABLE);
  struct entry *pool = diff_alloc(sizeof *pool * TABLE);
  for (int k = 0; k < TABLE; ++k) {
    table[k] = (int64_t)(diff_rand() % 100000);
    pool[k] = (struct entry){.key = k * 7, .value = (int64_t)(diff_rand() % 1000)};
    uint64_t h = hash_key(pool[k].key) & (TABLE - 1);
    pool[k].next = heads[h];
    heads[h] = &pool[k];
  }
  for (int i = 0; i < n; ++i) keys[i] = (int64_t)(diff_rand() % (8 * TABLE));
  lookup_record(out, table, keys, n, TABLE - 1);
  int64_t sum = probe_odd(found, table, keys, n, heads, TABLE - 1);
  printf("%llx %llx %lld\n", (unsigned long long)diff_hash_u64((const uint64_t *)out, n),
         (unsigned long long)diff_hash_u64((const uint64_t *)found, n), (long long)sum);
  int64_t hits = probe_all(found, keys, n, heads, TABLE - 1);
  printf("%llx %lld\n", (unsigned long long)diff_hash_u64((const uint64_t *)found, n), (long long)hits);
  return 0;
}
