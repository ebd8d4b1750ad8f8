// body_local_out: an LSM-style lookup batch at -O1 (issue 17, item 4): `uint64_t value;` declared in the body is written by the lookup only on a hit and read only then. Without jump threading LLVM keeps it in a header phi that carries the last hit's value into the next iteration; the variable begins each iteration uninitialised, so no iteration reads what another wrote, and the loop interleaves.
// flags: -O1
#include "common.h"

typedef struct {
  uint64_t key, value;
} kv;

typedef struct {
  kv *entries;
  size_t n;
} run;

static const kv *find(const run *r, uint64_t key) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->entries[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < r->n && r->entries[lo].key == key ? &r->entries[lo] : NULL;
}

static int get(const run *runs, int nruns, uint64_t key, uint64_t *value) {
  for (int i = 0; i < nruns; i++) {
    const kv *e = find(&runs[i], key);
    if (e) {
      *value = e->value;
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  run runs[3];
  for (int r = 0; r < 3; r++) {
    runs[r].n = 64 << r;
    runs[r].entries = diff_alloc(sizeof(kv) * runs[r].n);
    for (size_t k = 0; k < runs[r].n; k++) {
      runs[r].entries[k].key = 3 * k + r;
      runs[r].entries[k].value = diff_rand();
    }
  }
  uint64_t *queries = diff_alloc(sizeof(uint64_t) * (n + 1));
  for (int i = 0; i < n; i++) queries[i] = diff_rand() % 1024;
  long hits = 0;
  uint64_t checksum = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++) {
    uint64_t value;
    if (get(runs, 3, queries[i], &value)) {
      hits++;
      checksum += value;
    }
  }
  printf("%ld %llx\n", hits, (unsigned long long)checksum);
  return 0;
}
