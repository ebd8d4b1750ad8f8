// embbag: DLRM's sparse feature pooling, SparseLengthsSum over an embedding
// table, written the way Caffe2's generic embedding-lookup kernel writes it:
// bags given by their lengths, a running index `current` over the flattened
// indices, each bag's output row cleared and then the table rows of its
// indices added to it (the inner loop over the embedding dimension
// vectorised), optional per-index weights and mean pooling, and `false`
// returned on an index out of range or lengths that overrun the indices.
// The table (2^19 rows of 64 floats, 128 MiB) is far larger than the cache;
// the indices are uniform, as in DLRM's random-data benchmark. Verified
// against a straightforward pooling that walks the bags by an offsets prefix
// array, in the same order (the same float sums).
// One pragma line marks the loop over the bags; nothing else is edited.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool EmbeddingLookup_int64_t_float_float(const int64_t block_size, const int64_t output_size,
                                                const int64_t index_size, const int64_t data_size,
                                                const float *input, const int64_t *indices, const int *lengths,
                                                const float *weights, bool normalize_by_lengths, float *out) {
  int64_t current = 0;
#pragma memcoro
  for (int m = 0; m < output_size; ++m) {
    memset(out, 0, sizeof(float) * block_size);
    if (current + lengths[m] > index_size) {
      return false;
    }
    for (int i = 0; i < lengths[m]; ++i) {
      int64_t idx = indices[current];
      if (idx < 0 || idx >= data_size) {
        return false;
      }
      float w = 1.f;
      if (weights) {
        w = weights[current];
      }
      for (int64_t j = 0; j < block_size; ++j) {
        out[j] += w * input[block_size * indices[current] + j];
      }
      ++current;
    }
    if (normalize_by_lengths && lengths[m]) {
      float scale = 1.f / lengths[m];
      for (int64_t j = 0; j < block_size; ++j) {
        out[j] *= scale;
      }
    }
    out += block_size;
  }
  return current == index_size;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  int64_t rows = argc > 1 ? strtoll(argv[1], 0, 10) : 1 << 19;
  int64_t bags = argc > 2 ? strtoll(argv[2], 0, 10) : 2048;
  int batches = argc > 3 ? atoi(argv[3]) : 16;
  const int64_t dim = 64;
  const int max_pooling = 64;

  float *table = malloc(rows * dim * sizeof(float));
  for (int64_t k = 0; k < rows * dim; k++)
    table[k] = (float)((next_rand() >> 44) % 1024) / 64.0f - 8.0f;
  int *lengths = malloc(batches * bags * sizeof(int));
  int64_t *offsets = malloc((batches * bags + 1) * sizeof(int64_t));
  offsets[0] = 0;
  for (int64_t b = 0; b < batches * bags; b++) {
    lengths[b] = (int)(next_rand() % max_pooling) + 1;
    offsets[b + 1] = offsets[b] + lengths[b];
  }
  int64_t nindices = offsets[batches * bags];
  int64_t *indices = malloc(nindices * sizeof(int64_t));
  for (int64_t k = 0; k < nindices; k++)
    indices[k] = (int64_t)(next_rand() % (uint64_t)rows);
  float *out = malloc(batches * bags * dim * sizeof(float));

  bool ok = true;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int batch = 0; batch < batches; batch++) {
    int64_t first = offsets[batch * bags];
    ok &= EmbeddingLookup_int64_t_float_float(dim, bags, offsets[(batch + 1) * bags] - first, rows, table,
                                              indices + first, lengths + batch * bags, NULL, false,
                                              out + batch * bags * dim);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // A batch whose lengths overrun its indices must be refused.
  float *scratch = malloc(bags * dim * sizeof(float));
  ok &= !EmbeddingLookup_int64_t_float_float(dim, bags, offsets[bags] - 1, rows, table, indices, lengths, NULL,
                                             false, scratch);
  double checksum = 0;
  float expect[64];
  for (int64_t b = 0; b < batches * bags && ok; b++) {
    for (int64_t j = 0; j < dim; j++)
      expect[j] = 0;
    for (int64_t k = offsets[b]; k < offsets[b + 1]; k++)
      for (int64_t j = 0; j < dim; j++)
        expect[j] += table[indices[k] * dim + j];
    ok = memcmp(expect, out + b * dim, sizeof(expect)) == 0;
    for (int64_t j = 0; j < dim; j++)
      checksum += expect[j];
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%lld rows of %lld floats, %lld bags, %lld lookups, checksum %.3f\n", (long long)rows, (long long)dim,
         (long long)(batches * bags), (long long)nindices, checksum);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
