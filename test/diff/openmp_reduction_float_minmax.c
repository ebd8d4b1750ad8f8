// openmp_reduction_float_minmax: `reduction(max : mx) reduction(min : mn)` over doubles and floats, written as `if (v > mx) mx = v` and `mn = v < mn ? v : mn`: the clause permits either of two equal zeros to be kept, so the loop interleaves with the maximum and minimum folded by maxnum and minnum; NaNs in the data are never taken by the ordered tests, as in the serial loop. They stayed serial ("floating-point + * with reassociation" was all memcoro took).
// flags: -fopenmp
#include "common.h"
#include <math.h>
enum { TABLE = 1 << 15 };
static double T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (double)(int64_t)(diff_rand() % 200001) / 7.0 - 14000.0;
  T[3] = NAN;
  T[5] = -0.0;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  double mx = -INFINITY, mn = INFINITY;
  float fmx = -1e30f;
#pragma omp parallel for reduction(max : mx, fmx) reduction(min : mn) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    double v = T[idx[i]];
    if (v > mx)
      mx = v;
    mn = v < mn ? v : mn;
    if ((float)v >= fmx)
      fmx = (float)v;
  }
  printf("%.17g %.17g %.9g\n", mx, mn, fmx);
  return 0;
}
