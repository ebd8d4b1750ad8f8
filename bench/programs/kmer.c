// kmer: k-mer counting into a count-min sketch, written the way read
// processing tools write it: the reads are a flat buffer of fixed-length
// reads, a loop over the reads (OpenMP-parallel in such tools) rolls the
// 2-bit encoded k-mer along each read, and every k-mer increments one
// counter in each of the sketch's rows. The program checks itself as a
// sketch is checked: each row's counters add up to the number of k-mers, and
// for a sample of k-mers counted exactly, the sketch's estimate is never
// below the true count.
// One pragma line marks the loop over the reads; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define K 31
#define READ_LEN 100
#define DEPTH 4

static uint64_t rng = 0x853C49E6748FEA9Bull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static inline uint64_t hash64(uint64_t key, uint64_t seed) {
  key ^= seed;
  key = (~key) + (key << 21);
  key = key ^ (key >> 24);
  key = (key + (key << 3)) + (key << 8);
  key = key ^ (key >> 14);
  key = (key + (key << 2)) + (key << 4);
  key = key ^ (key >> 28);
  key = key + (key << 31);
  return key;
}

static const uint64_t seeds[DEPTH] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                      0x27D4EB2F165667C5ull};

static uint8_t encode(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : 3; }

typedef struct {
  uint32_t *counts;
  uint64_t width_mask;
} sketch_t;

static void count_kmers(sketch_t *cms, const char *reads, long nreads) {
  const uint64_t kmask = (K == 32) ? ~0ull : ((1ull << (2 * K)) - 1);
#pragma memcoro
  for (long r = 0; r < nreads; r++) {
    const char *s = reads + r * READ_LEN;
    uint64_t kmer = 0;
    for (int i = 0; i < READ_LEN; i++) {
      kmer = ((kmer << 2) | encode(s[i])) & kmask;
      if (i >= K - 1) {
        for (int d = 0; d < DEPTH; d++)
          cms->counts[(uint64_t)d * (cms->width_mask + 1) + (hash64(kmer, seeds[d]) & cms->width_mask)]++;
      }
    }
  }
}

static uint32_t estimate(const sketch_t *cms, uint64_t kmer) {
  uint32_t best = UINT32_MAX;
  for (int d = 0; d < DEPTH; d++) {
    uint32_t c = cms->counts[(uint64_t)d * (cms->width_mask + 1) + (hash64(kmer, seeds[d]) & cms->width_mask)];
    if (c < best)
      best = c;
  }
  return best;
}

int main(int argc, char **argv) {
  int log_width = argc > 1 ? atoi(argv[1]) : 25;
  long nreads = argc > 2 ? atol(argv[2]) : 1 << 17;
  // A genome of a million bases, read at random offsets: k-mers repeat.
  long genome_len = 1 << 20;
  char *genome = malloc(genome_len + READ_LEN);
  for (long i = 0; i < genome_len + READ_LEN; i++) genome[i] = "ACGT"[next_rand() & 3];
  char *reads = malloc((size_t)nreads * READ_LEN);
  for (long r = 0; r < nreads; r++) memcpy(reads + r * READ_LEN, genome + next_rand() % genome_len, READ_LEN);
  sketch_t cms = {calloc((size_t)DEPTH << log_width, sizeof(uint32_t)), (1ull << log_width) - 1};

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  count_kmers(&cms, reads, nreads);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  const uint64_t kmask = (1ull << (2 * K)) - 1;
  uint64_t total = (uint64_t)nreads * (READ_LEN - K + 1);
  int ok = 1;
  for (int d = 0; d < DEPTH && ok; d++) {
    uint64_t sum = 0;
    for (uint64_t c = 0; c <= cms.width_mask; c++) sum += cms.counts[(uint64_t)d * (cms.width_mask + 1) + c];
    ok = sum == total;
  }
  // Exact counts of the k-mers of the first 100 reads, in a small
  // open-addressing table, over every k-mer of every read.
  enum { SLOTS = 1 << 14 };
  uint64_t *sample = calloc(SLOTS, sizeof(uint64_t));
  uint32_t *exact = calloc(SLOTS, sizeof(uint32_t));
  long sample_reads = nreads < 100 ? nreads : 100;
  for (long r = 0; r < nreads; r++) {
    uint64_t kmer = 0;
    for (int i = 0; i < READ_LEN; i++) {
      kmer = ((kmer << 2) | encode(reads[r * READ_LEN + i])) & kmask;
      if (i < K - 1)
        continue;
      uint64_t slot = hash64(kmer, 0) & (SLOTS - 1);
      while (exact[slot] && sample[slot] != kmer) slot = (slot + 1) & (SLOTS - 1);
      if (exact[slot] || r < sample_reads) {
        sample[slot] = kmer;
        exact[slot]++;
      }
    }
  }
  for (long slot = 0; slot < SLOTS && ok; slot++)
    ok = !exact[slot] || estimate(&cms, sample[slot]) >= exact[slot];
  printf("kernel_seconds %.6f\n", seconds);
  printf("%ld reads, %llu k-mers, sketch %d x 2^%d\n", nreads, (unsigned long long)total, DEPTH, log_width);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
