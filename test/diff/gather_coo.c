// gather_coo: a COO SpMV nonzero loop, `y[row[k]] += val[k] * x[col[k]]`, short independent gathers the core overlaps: kept in serial order with x[col[k + 128]] prefetched ahead (split/OverlappedGathers.cpp), never read past the last nonzero.
// cost-model: on
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  // Sized at run time, as a matrix read from a file is: its size is not
  // known to the cost model, which would leave a small vector serial.
  int ROWS = (1 << 10) + (argc > 99);
  int32_t *row = diff_alloc(sizeof *row * (n + 1)), *col = diff_alloc(sizeof *col * (n + 1));
  int64_t *val = diff_alloc(sizeof *val * (n + 1)), *x = diff_alloc(sizeof *x * ROWS);
  int64_t *y = diff_alloc(sizeof *y * ROWS);
  for (int i = 0; i < ROWS; ++i) {
    x[i] = (int64_t)(diff_rand() % 1000);
    y[i] = 0;
  }
  for (int k = 0; k < n; ++k) {
    row[k] = (int32_t)((int64_t)k * ROWS / (n + 1));
    col[k] = (int32_t)(diff_rand() % ROWS);
    val[k] = (int64_t)(diff_rand() % 100) - 50;
  }
#pragma memcoro
  for (int64_t k = 0; k < n; k++)
    y[row[k]] += val[k] * x[col[k]];
  int64_t sum = 0;
  for (int i = 0; i < ROWS; ++i)
    sum = sum * 31 + y[i];
  printf("%lld\n", (long long)sum);
  return 0;
}
