// radixpart: the partitioning pass of a radix hash join (the PRO join of the
// main-memory join literature), written the way those codes write their
// radix_cluster: 8-byte tuples {key, payload}, the partition of a tuple the
// bits of its key under a mask shifted down (HASH_BIT_MODULO), a histogram
// pass, a prefix sum into a small per-partition cursor array `dst`, and a
// scatter pass that copies each tuple to `out[dst[idx]]` and bumps the
// cursor. Keys are random 32-bit values, payloads the tuple's input position.
// The program checks itself: every output tuple lies in the partition its
// key's bits name, each input position appears exactly once with its own key,
// and within a partition the positions increase (the scatter is stable, as the
// join's build relies on). One pragma line marks the scatter loop.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint32_t intkey_t;
typedef uint32_t value_t;

typedef struct {
  intkey_t key;
  value_t payload;
} tuple_t;

typedef struct {
  tuple_t *tuples;
  uint64_t num_tuples;
} relation_t;

#define HASH_BIT_MODULO(K, MASK, NBITS) (((K) & (MASK)) >> (NBITS))

// One pass of radix clustering on D bits starting at bit R.
static void radix_cluster(relation_t *outRel, const relation_t *inRel, uint32_t *hist, int R, int D) {
  uint32_t fanOut = 1 << D;
  uint32_t M = ((1 << D) - 1) << R;
  uint32_t *dst = (uint32_t *)malloc(fanOut * sizeof(uint32_t));
  uint64_t ntuples = inRel->num_tuples;

  memset(hist, 0, fanOut * sizeof(uint32_t));
  for (uint64_t i = 0; i < ntuples; i++) {
    uint32_t idx = HASH_BIT_MODULO(inRel->tuples[i].key, M, R);
    hist[idx]++;
  }
  uint32_t offset = 0;
  for (uint32_t i = 0; i < fanOut; i++) {
    dst[i] = offset;
    offset += hist[i];
  }
#pragma memcoro
  for (uint64_t i = 0; i < ntuples; i++) {
    uint32_t idx = HASH_BIT_MODULO(inRel->tuples[i].key, M, R);
    outRel->tuples[dst[idx]] = inRel->tuples[i];
    ++dst[idx];
  }
  free(dst);
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1u << 24;
  int bits = argc > 2 ? atoi(argv[2]) : 14;
  relation_t in = {(tuple_t *)malloc(n * sizeof(tuple_t)), n};
  relation_t out = {(tuple_t *)malloc(n * sizeof(tuple_t)), n};
  uint32_t *hist = (uint32_t *)malloc(((size_t)1 << bits) * sizeof(uint32_t));
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (uint64_t i = 0; i < n; i++) {
    in.tuples[i].key = (intkey_t)(next_rand(&s) >> 32);
    in.tuples[i].payload = (value_t)i;
  }
  // Touch the output once, as a join's allocator would have.
  memset(out.tuples, 0, n * sizeof(tuple_t));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  radix_cluster(&out, &in, hist, 0, bits);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // Verification.
  uint32_t fanOut = 1u << bits, mask = fanOut - 1;
  unsigned char *seen = (unsigned char *)calloc(n, 1);
  int ok = 1;
  uint64_t pos = 0, checksum = 0;
  for (uint32_t p = 0; p < fanOut && ok; p++) {
    int64_t last = -1;
    for (uint32_t j = 0; j < hist[p]; j++, pos++) {
      tuple_t t = out.tuples[pos];
      if (t.payload >= n || seen[t.payload] || in.tuples[t.payload].key != t.key || (t.key & mask) != p ||
          (int64_t)t.payload <= last) {
        ok = 0;
        break;
      }
      seen[t.payload] = 1;
      last = t.payload;
      checksum = checksum * 31 + t.key;
    }
  }
  ok = ok && pos == n;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu tuples, %u partitions: checksum %016llx\n", (unsigned long long)n, fanOut,
         (unsigned long long)checksum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(seen);
  free(hist);
  free(in.tuples);
  free(out.tuples);
  return ok ? 0 : 1;
}
