// bloom: a Bloom filter probed with a batch of keys, written the way the
// widely used C Bloom filter libraries write it (libbloom's shape): a
// struct bloom sized from the expected entries and the error rate, two
// MurmurHash2 values of the key's bytes combined as a + i*b modulo the
// number of bits, one test_bit_set_bit helper shared by add and check, and a
// check that returns on the first clear bit. Verified the way such libraries
// test themselves: every inserted key is found (no false negatives), and the
// false-positive rate over keys never inserted stays within 1.5 times the
// error rate the filter was sized for. One pragma line marks the probe loop.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct bloom {
  int entries;
  double error;
  unsigned int bits;
  unsigned int bytes;
  unsigned int hashes;
  double bpe;
  unsigned char *bf;
  int ready;
};

// MurmurHash2, 32-bit, by Austin Appleby (public domain algorithm).
static unsigned int murmurhash2(const void *key, int len, const unsigned int seed) {
  const unsigned int m = 0x5bd1e995;
  const int r = 24;
  unsigned int h = seed ^ len;
  const unsigned char *data = (const unsigned char *)key;
  while (len >= 4) {
    unsigned int k = *(unsigned int *)data;
    k *= m;
    k ^= k >> r;
    k *= m;
    h *= m;
    h ^= k;
    data += 4;
    len -= 4;
  }
  switch (len) {
  case 3: h ^= data[2] << 16; /* fall through */
  case 2: h ^= data[1] << 8; /* fall through */
  case 1: h ^= data[0]; h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

static inline int test_bit_set_bit(unsigned char *buf, unsigned int x, int set_bit) {
  unsigned int byte = x >> 3;
  unsigned char c = buf[byte]; // the expensive memory access
  unsigned int mask = 1 << (x % 8);
  if (c & mask) {
    return 1;
  } else {
    if (set_bit) {
      buf[byte] = c | mask;
    }
    return 0;
  }
}

static int bloom_check_add(struct bloom *bloom, const void *buffer, int len, int add) {
  if (bloom->ready == 0) {
    printf("bloom at %p not initialized!\n", (void *)bloom);
    return -1;
  }
  unsigned int hits = 0;
  unsigned int a = murmurhash2(buffer, len, 0x9747b28c);
  unsigned int b = murmurhash2(buffer, len, a);
  for (unsigned int i = 0; i < bloom->hashes; i++) {
    unsigned int x = (a + i * b) % bloom->bits;
    if (test_bit_set_bit(bloom->bf, x, add)) {
      hits++;
    } else if (!add) {
      // Not all bits are set: the key was never added.
      return 0;
    }
  }
  if (hits == bloom->hashes) {
    return 1; // the key is (probably) in
  }
  return 0;
}

static int bloom_init(struct bloom *bloom, int entries, double error) {
  bloom->ready = 0;
  if (entries < 1000 || error == 0) {
    return 1;
  }
  bloom->entries = entries;
  bloom->error = error;
  double num = log(bloom->error);
  double denom = 0.480453013918201; // ln(2)^2
  bloom->bpe = -(num / denom);
  double dentries = (double)entries;
  bloom->bits = (unsigned int)(dentries * bloom->bpe);
  bloom->bytes = bloom->bits % 8 ? bloom->bits / 8 + 1 : bloom->bits / 8;
  bloom->hashes = (unsigned int)ceil(0.693147180559945 * bloom->bpe); // ln(2)
  bloom->bf = (unsigned char *)calloc(bloom->bytes, sizeof(unsigned char));
  if (bloom->bf == NULL) {
    return 1;
  }
  bloom->ready = 1;
  return 0;
}

static int bloom_check(struct bloom *bloom, const void *buffer, int len) {
  return bloom_check_add(bloom, buffer, len, 0);
}

static int bloom_add(struct bloom *bloom, const void *buffer, int len) {
  return bloom_check_add(bloom, buffer, len, 1);
}

static uint64_t next_key(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

int main(int argc, char **argv) {
  int entries = argc > 1 ? atoi(argv[1]) : 1 << 25;
  long nqueries = argc > 2 ? atol(argv[2]) : 1L << 22;
  struct bloom bloom;
  if (bloom_init(&bloom, entries, 0.01))
    return 2;
  // Keys a xorshift stream: the first `entries` are inserted, the queries
  // alternate between inserted keys and keys from further along the stream.
  uint64_t *inserted = malloc(sizeof(uint64_t) * entries);
  uint64_t s = 88172645463325252ull;
  for (int i = 0; i < entries; i++) {
    inserted[i] = next_key(&s);
    bloom_add(&bloom, &inserted[i], sizeof(uint64_t));
  }
  uint64_t *queries = malloc(sizeof(uint64_t) * nqueries);
  uint64_t q = 0x2545f4914f6cdd1dull;
  for (long i = 0; i < nqueries; i++)
    queries[i] = i % 2 ? next_key(&s) : inserted[next_key(&q) % entries];

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long found = 0;
#pragma memcoro
  for (long i = 0; i < nqueries; i++) {
    if (bloom_check(&bloom, &queries[i], sizeof(uint64_t)) == 1)
      found++;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // Verification: no false negatives; the false positives within bounds.
  long present = (nqueries + 1) / 2, false_negatives = 0;
  for (long i = 0; i < nqueries; i += 2)
    if (bloom_check(&bloom, &queries[i], sizeof(uint64_t)) != 1)
      false_negatives++;
  long false_positives = found - (present - false_negatives);
  double fp_rate = (double)false_positives / (nqueries - present);
  int ok = false_negatives == 0 && fp_rate <= 1.5 * bloom.error;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%d entries, %u bits, %u hashes, %ld queries: %ld found, false-positive rate %.4f\n", entries, bloom.bits,
         bloom.hashes, nqueries, found, fp_rate);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(queries);
  free(inserted);
  free(bloom.bf);
  return ok ? 0 : 1;
}
