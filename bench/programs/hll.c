// hll: COUNT(DISTINCT item) GROUP BY group, one HyperLogLog per group, fed
// from an event stream, written the way the widely used C HyperLogLog
// library writes it (avz/hll's shape): a struct HLL with 8-bit registers,
// hll_add hashing the item's bytes with MurmurHash3_x86_32, the register
// index from the hash's top bits and the rank from the position of the first
// set bit of the rest, kept if larger than the register. With a thousand
// groups' registers per megabyte, each event touches one register line far
// from the last. The program checks itself the way such code is tested
// against a reference: the registers are rebuilt from the events by a
// straightforward loop into one flat array (the rank by count-trailing-zeros)
// and compared byte for byte, and the estimates' sum is printed. One pragma
// line marks the event loop.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct HLL {
  uint8_t bits;
  size_t size;
  uint8_t *registers;
};

static inline uint32_t rotl32(uint32_t x, int8_t r) { return (x << r) | (x >> (32 - r)); }

// MurmurHash3_x86_32, by Austin Appleby (public domain algorithm).
static inline uint32_t murmur3_32(const void *key, uint32_t len, uint32_t seed) {
  const uint8_t *data = (const uint8_t *)key;
  const int nblocks = (int)len / 4;
  uint32_t h1 = seed, k1;
  const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  for (int i = 0; i < nblocks; i++) {
    memcpy(&k1, data + 4 * i, 4);
    k1 *= c1;
    k1 = rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
    h1 = rotl32(h1, 13);
    h1 = h1 * 5 + 0xe6546b64;
  }
  const uint8_t *tail = data + nblocks * 4;
  k1 = 0;
  switch (len & 3) {
  case 3:
    k1 ^= (uint32_t)tail[2] << 16; /* fallthrough */
  case 2:
    k1 ^= (uint32_t)tail[1] << 8; /* fallthrough */
  case 1:
    k1 ^= tail[0];
    k1 *= c1;
    k1 = rotl32(k1, 15);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= len;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6b;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35;
  h1 ^= h1 >> 16;
  return h1;
}

static inline uint8_t hll_rank(uint32_t hash, uint8_t bits) {
  uint8_t i;
  for (i = 1; i <= 32 - bits; i++) {
    if (hash & 1)
      break;
    hash >>= 1;
  }
  return i;
}

static int hll_init(struct HLL *hll, uint8_t bits) {
  hll->bits = bits;
  hll->size = (size_t)1 << bits;
  hll->registers = calloc(hll->size, 1);
  return hll->registers ? 0 : -1;
}

static inline void hll_add_hash(struct HLL *hll, uint32_t hash) {
  uint32_t index = hash >> (32 - hll->bits);
  uint8_t rank = hll_rank(hash << hll->bits, hll->bits);
  if (rank > hll->registers[index])
    hll->registers[index] = rank;
}

static inline void hll_add(struct HLL *hll, const void *buf, size_t size) {
  hll_add_hash(hll, murmur3_32(buf, (uint32_t)size, 0x5f61767a));
}

static double hll_count(const struct HLL *hll) {
  double alpha_mm = 0.7213 / (1.0 + 1.079 / (double)hll->size) * (double)hll->size * (double)hll->size;
  double sum = 0;
  for (size_t i = 0; i < hll->size; i++)
    sum += 1.0 / (double)(1u << hll->registers[i]);
  double estimate = alpha_mm / sum;
  if (estimate <= 2.5 * (double)hll->size) {
    size_t zeros = 0;
    for (size_t i = 0; i < hll->size; i++)
      zeros += hll->registers[i] == 0;
    if (zeros)
      estimate = (double)hll->size * log((double)hll->size / (double)zeros);
  }
  return estimate;
}

struct event {
  uint32_t group;
  uint64_t item;
};

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__attribute__((noinline)) static void add_events(struct HLL *groups, const struct event *ev, size_t nev) {
#pragma memcoro
  for (size_t e = 0; e < nev; e++)
    hll_add(&groups[ev[e].group], &ev[e].item, sizeof(ev[e].item));
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s GROUPS EVENTS\n", argv[0]);
    return 2;
  }
  size_t ngroups = strtoull(argv[1], NULL, 10), nev = strtoull(argv[2], NULL, 10);
  const uint8_t bits = 10;
  struct HLL *groups = malloc(ngroups * sizeof *groups);
  struct event *ev = malloc(nev * sizeof *ev);
  for (size_t g = 0; g < ngroups; g++)
    if (hll_init(&groups[g], bits))
      return 1;
  uint64_t s = 5;
  for (size_t e = 0; e < nev; e++) {
    ev[e].group = (uint32_t)(splitmix64(&s) % ngroups);
    ev[e].item = splitmix64(&s) % 100000; // items repeat: distinct counts per group
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  add_events(groups, ev, nev);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

  uint8_t *flat = calloc(ngroups << bits, 1);
  for (size_t e = 0; e < nev; e++) {
    uint32_t h = murmur3_32(&ev[e].item, 8, 0x5f61767a);
    uint32_t w = h << bits;
    uint8_t rank = w ? (uint8_t)(__builtin_ctz(w) + 1) : (uint8_t)(32 - bits + 1);
    if (rank > 32 - bits + 1) // the rank counts at most the bits below the index
      rank = 32 - bits + 1;
    uint8_t *r = &flat[((size_t)ev[e].group << bits) + (h >> (32 - bits))];
    *r = rank > *r ? rank : *r;
  }
  size_t differ = 0;
  double estimates = 0;
  for (size_t g = 0; g < ngroups; g++) {
    differ += memcmp(groups[g].registers, flat + (g << bits), (size_t)1 << bits) != 0;
    estimates += hll_count(&groups[g]);
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%zu groups, %zu events: estimates sum to %.3f, %zu groups differ from the reference\n", ngroups, nev,
         estimates, differ);
  printf("%s\n", differ ? "FAILED verification" : "verified");
  for (size_t g = 0; g < ngroups; g++)
    free(groups[g].registers);
  free(groups);
  free(ev);
  free(flat);
  return differ ? 1 : 0;
}
