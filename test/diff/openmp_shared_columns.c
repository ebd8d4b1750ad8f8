// openmp_shared_columns: a row loop under `omp parallel for` whose inner loop writes `out[r * C + c]`: with -fopenmp `C` is a shared variable read through a pointer, read again after each store that may alias it and carried from row to row by a phi of its reload and of itself (a row the inner loop skips). That web reached a store's index, so memcoro took it for an append counter in a register and kept the loop serial ("every access worth a suspension comes after the start of code that runs in iteration order (an append ...)"); a value only ever read from memory is no counter, and each iteration reads it again.
// flags: -fopenmp
#include "common.h"
enum { TABLE = 1 << 15 };
static uint64_t T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  long rows = n / 8 + 1, cols = diff_rand() % 2 + 7;
  uint32_t *idx = diff_alloc(sizeof *idx * (rows * cols + 1));
  uint64_t *out = diff_alloc(sizeof *out * (rows * cols + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = diff_rand();
  for (long i = 0; i < rows * cols; ++i) idx[i] = diff_rand() % TABLE;
#pragma omp parallel for num_threads(2)
#pragma memcoro parallel(N)
  for (long r = 0; r < rows; r++)
    for (long c = 0; c < cols; c++)
      out[r * cols + c] = T[T[idx[r * cols + c]] % TABLE] + r;
  uint64_t h = 0;
  for (long i = 0; i < rows * cols; ++i) h = h * 31 + out[i];
  printf("%llu\n", (unsigned long long)h);
  return 0;
}
