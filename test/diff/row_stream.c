// row_stream: a remote row pointer, then an affine inner loop over the row.
#include "common.h"
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { ROWS = 4096, COLS = 8 };
  int64_t *storage = diff_alloc(sizeof *storage * ROWS * COLS);
  int64_t **rows = diff_alloc(sizeof *rows * ROWS);
  for (int r = 0; r < ROWS; ++r) {
    rows[r] = &storage[(size_t)((r * 2654435761u) % ROWS) * COLS];
    for (int c = 0; c < COLS; ++c) rows[r][c] = (int64_t)(diff_rand() % 100);
  }
  int32_t *which = diff_alloc(sizeof *which * (n + 1));
  int64_t *out = diff_alloc(sizeof *out * (n + 1));
  for (int i = 0; i < n; ++i) which[i] = diff_rand() % ROWS;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    const int64_t *row = rows[which[i]];
    int64_t s = 0;
    for (int c = 0; c < COLS; ++c) s += row[c] * (c + 1);
    out[i] = s;
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64((uint64_t *)out, n));
  return 0;
}
