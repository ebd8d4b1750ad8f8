// gathered_rows: embedding-bag pooling, each bag summing table rows chosen by its indices; the rows' loads are affine streams, and only the row suspension (split/StreamStarts.cpp) interleaves the loop.
// cost-model: on
#include "common.h"
#include <string.h>

#define DIM 64

// Offsets form, rows of a constant length, empty bags among them.
static void bag_sum(const float *table, const int64_t *indices, const int64_t *offsets, int nbags, float *out) {
#pragma memcoro parallel(N)
  for (int b = 0; b < nbags; b++) {
    float *o = out + (int64_t)b * DIM;
    memset(o, 0, DIM * sizeof(float));
    for (int64_t k = offsets[b]; k < offsets[b + 1]; k++)
      for (int64_t d = 0; d < DIM; d++)
        o[d] += table[indices[k] * DIM + d];
  }
}

// Rows as long as an argument, weighted.
static void bag_weighted(int64_t block, const float *table, const int64_t *indices, const float *weights,
                         const int64_t *offsets, int nbags, float *out) {
#pragma memcoro parallel(N)
  for (int b = 0; b < nbags; b++) {
    float *o = out + (int64_t)b * block;
    for (int64_t j = 0; j < block; j++)
      o[j] = 0;
    for (int64_t k = offsets[b]; k < offsets[b + 1]; k++)
      for (int64_t j = 0; j < block; j++)
        o[j] += weights[k] * table[block * indices[k] + j];
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  const int64_t rows = 500 + n % 3; // not a size known to the compiler, which would keep it cached
  float *table = malloc(rows * DIM * sizeof(float));
  for (int64_t i = 0; i < rows * DIM; i++)
    table[i] = (float)(diff_rand() % 1000) / 8;
  int64_t *offsets = malloc((n + 1) * sizeof(int64_t));
  offsets[0] = 0;
  for (int b = 0; b < n; b++)
    offsets[b + 1] = offsets[b] + (int64_t)(diff_rand() % 9);
  int64_t *indices = malloc((offsets[n] + 1) * sizeof(int64_t));
  float *weights = malloc((offsets[n] + 1) * sizeof(float));
  for (int64_t k = 0; k < offsets[n]; k++) {
    indices[k] = (int64_t)(diff_rand() % rows);
    weights[k] = (float)(diff_rand() % 16) / 4;
  }
  float *out = malloc(((int64_t)n * DIM + 1) * sizeof(float));
  bag_sum(table, indices, offsets, n, out);
  double sum = 0;
  for (int64_t i = 0; i < (int64_t)n * DIM; i++)
    sum += out[i] * (double)(i % 7 + 1);
  printf("%.3f\n", sum);
  bag_weighted(24, table, indices, weights, offsets, n, out);
  sum = 0;
  for (int64_t i = 0; i < (int64_t)n * 24; i++)
    sum += out[i] * (double)(i % 5 + 1);
  printf("%.3f\n", sum);
  return 0;
}
