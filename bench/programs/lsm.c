// lsm: point lookups in a log-structured merge tree's sorted runs, written
// the way LSM stores write their read path: the runs are arrays of key-value
// entries sorted by key, newest first, each four times larger than the one
// before; a get binary-searches each run in turn (a lower bound)
// and returns the first run's entry with the key, so that a newer version
// shadows older ones. Verified independently of the search: which run holds
// the newest version of a key is a function of the key, so the expected hit
// count and value checksum are computed without looking in the runs.
// One pragma line marks the lookup batch; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_RUNS 8

typedef struct {
  uint64_t key;
  uint64_t value;
} kv_t;

typedef struct {
  kv_t *entries;
  size_t n;
} run_t;

typedef struct {
  run_t runs[MAX_RUNS]; // runs[0] is the newest
  int nruns;
} lsm_t;

static const kv_t *run_find(const run_t *r, uint64_t key) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->entries[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < r->n && r->entries[lo].key == key)
    return &r->entries[lo];
  return NULL;
}

static int lsm_get(const lsm_t *t, uint64_t key, uint64_t *value) {
  for (int i = 0; i < t->nruns; i++) {
    const kv_t *e = run_find(&t->runs[i], key);
    if (e) {
      *value = e->value;
      return 1;
    }
  }
  return 0;
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Key number k (stored as the odd key 2k+1) is in run r when this holds:
// the oldest run holds every key, run r about one key in 4^(nruns-1-r).
static int in_run(uint64_t k, int r, int nruns) {
  int shift = 2 * (nruns - 1 - r);
  return (mix(k * MAX_RUNS + r) & ((1ull << shift) - 1)) == 0;
}

static uint64_t version_value(uint64_t k, int r) { return mix(k) ^ ((uint64_t)r << 56); }

int main(int argc, char **argv) {
  int log_keys = argc > 1 ? atoi(argv[1]) : 23;
  long nqueries = argc > 2 ? atol(argv[2]) : 1L << 20;
  uint64_t nkeys = 1ull << log_keys;
  lsm_t t;
  t.nruns = 4;
  for (int r = 0; r < t.nruns; r++) {
    run_t *run = &t.runs[r];
    size_t n = 0;
    for (uint64_t k = 0; k < nkeys; k++)
      n += in_run(k, r, t.nruns);
    run->entries = malloc(sizeof(kv_t) * n);
    run->n = 0;
    for (uint64_t k = 0; k < nkeys; k++)
      if (in_run(k, r, t.nruns)) {
        run->entries[run->n].key = 2 * k + 1;
        run->entries[run->n].value = version_value(k, r);
        run->n++;
      }
  }
  uint64_t *queries = malloc(sizeof(uint64_t) * nqueries);
  uint64_t s = 88172645463325252ull;
  for (long i = 0; i < nqueries; i++) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    queries[i] = s % (2 * nkeys); // odd keys are in the tree, even ones never were
  }

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long hits = 0;
  uint64_t checksum = 0;
#pragma memcoro
  for (long i = 0; i < nqueries; i++) {
    uint64_t value;
    if (lsm_get(&t, queries[i], &value)) {
      hits++;
      checksum += value;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  long expected_hits = 0;
  uint64_t expected_checksum = 0;
  for (long i = 0; i < nqueries; i++) {
    if (queries[i] % 2 == 0)
      continue;
    uint64_t k = queries[i] / 2;
    int r = 0;
    while (!in_run(k, r, t.nruns))
      r++;
    expected_hits++;
    expected_checksum += version_value(k, r);
  }
  int ok = hits == expected_hits && checksum == expected_checksum;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%d runs, %llu keys, %ld gets: %ld hits\n", t.nruns, (unsigned long long)nkeys, nqueries, hits);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  for (int r = 0; r < t.nruns; r++)
    free(t.runs[r].entries);
  free(queries);
  return ok ? 0 : 1;
}
