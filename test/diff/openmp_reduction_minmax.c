// openmp_reduction_minmax: `reduction(max : mx) reduction(min : mn)` written as users write them, `if (v > mx) mx = v`: under -fopenmp the private copy is stored on the taken path only, so no select or smax is left for the reduction to be recognised by, and the loop stayed serial ("a value is carried"). Signed and unsigned, strict and not, beside a sum; ties and the extreme values are in the data.
// flags: -fopenmp
#include "common.h"
#include <limits.h>
enum { TABLE = 1 << 15 };
static long T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  for (int k = 0; k < TABLE; ++k) T[k] = (long)(diff_rand() % 2001) - 1000;
  T[7] = LONG_MIN;
  T[9] = LONG_MAX;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  long mx = LONG_MIN, mn = LONG_MAX, sum = 0;
  unsigned umx = 0, umn = UINT_MAX;
#pragma omp parallel for reduction(max : mx, umx) reduction(min : mn, umn) reduction(+ : sum) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    long v = T[idx[i]];
    if (v > mx)
      mx = v;
    if (mn >= v)
      mn = v;
    unsigned u = (unsigned)v;
    if (umx < u)
      umx = u;
    if (!(u >= umn))
      umn = u;
    sum += v;
  }
  printf("%ld %ld %u %u %ld\n", mx, mn, umx, umn, sum);
  return 0;
}
