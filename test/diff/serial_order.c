// serial_order: loops that only their order keeps from being interleaved (an early exit after stores, a running index carried from one iteration to the next, a proven dependence), kept in serial order with their gathers prefetched ahead; their indices end at a guard page, so a read ahead past the last one faults.
// cost-model: on
#include "common.h"
#include <stdbool.h>
#include <string.h>

#define DIM 64

// Caffe2's generic SparseLengthsSum: bags by their lengths, a running index
// over the flattened indices, `false` on an index out of range or lengths
// that overrun the indices (after the bag's row was cleared and partly summed).
static bool lengths_sum(const float *input, int64_t data_size, const int64_t *indices, int64_t index_size,
                        const int *lengths, int output_size, float *out) {
  int64_t current = 0;
#pragma memcoro parallel(N)
  for (int m = 0; m < output_size; ++m) {
    memset(out, 0, sizeof(float) * DIM);
    if (current + lengths[m] > index_size)
      return false;
    for (int i = 0; i < lengths[m]; ++i) {
      int64_t idx = indices[current];
      if (idx < 0 || idx >= data_size)
        return false;
      for (int64_t j = 0; j < DIM; ++j)
        out[j] += input[DIM * indices[current] + j];
      ++current;
    }
    out += DIM;
  }
  return current == index_size;
}

// A hash of gathered values in iteration order: `h` is carried, not a reduction.
static uint64_t ordered_hash(const uint64_t *t, const uint32_t *idx, int n) {
  uint64_t h = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    h = h * 31 + t[idx[i]];
  return h;
}

// A prefix over gathered values: a[i + 1] depends on a[i], which the
// compiler proves.
static void gathered_prefix(int64_t *a, const int64_t *t, const uint32_t *idx, int n) {
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    a[i + 1] = a[i] + t[idx[i]];
}

static double row_checksum(const float *out, int64_t count) {
  double sum = 0;
  for (int64_t i = 0; i < count; i++)
    sum += out[i] * (double)(i % 7 + 1);
  return sum;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  const int64_t rows = 500 + n % 3;
  float *table = malloc(rows * DIM * sizeof(float));
  for (int64_t i = 0; i < rows * DIM; i++)
    table[i] = (float)(diff_rand() % 1000) / 8;
  int *lengths = diff_alloc((n + 1) * sizeof(int));
  int64_t total = 0;
  for (int m = 0; m < n; m++)
    total += lengths[m] = (int)(diff_rand() % 9);
  int64_t *indices = diff_before_guard(total, sizeof(int64_t));
  for (int64_t k = 0; k < total; k++)
    indices[k] = (int64_t)(diff_rand() % rows);
  float *out = diff_alloc(((int64_t)n * DIM + 1) * sizeof(float));

  bool ok = lengths_sum(table, rows, indices, total, lengths, n, out);
  printf("%d %.3f\n", ok, row_checksum(out, (int64_t)n * DIM));
  // Lengths that overrun the indices: refused at the last non-empty bag.
  memset(out, 0, ((int64_t)n * DIM + 1) * sizeof(float));
  ok = lengths_sum(table, rows, indices, total > 0 ? total - 1 : 0, lengths, n, out);
  printf("%d %.3f\n", ok, row_checksum(out, (int64_t)n * DIM));
  // An index out of range in the middle of a bag.
  if (total > 0) {
    int64_t bad = total / 2;
    int64_t saved = indices[bad];
    indices[bad] = rows;
    memset(out, 0, ((int64_t)n * DIM + 1) * sizeof(float));
    ok = lengths_sum(table, rows, indices, total, lengths, n, out);
    printf("%d %.3f\n", ok, row_checksum(out, (int64_t)n * DIM));
    indices[bad] = saved;
  }

  uint64_t *t = malloc(rows * sizeof(uint64_t));
  for (int64_t i = 0; i < rows; i++)
    t[i] = diff_rand();
  uint32_t *idx = diff_before_guard(n, sizeof(uint32_t));
  for (int i = 0; i < n; i++)
    idx[i] = (uint32_t)(diff_rand() % rows);
  printf("%llx\n", (unsigned long long)ordered_hash(t, idx, n));
  int64_t *a = diff_alloc((n + 1) * sizeof(int64_t));
  gathered_prefix(a, (const int64_t *)t, idx, n);
  printf("%lld\n", (long long)a[n]);
  return 0;
}
