// reduction_clause: the pragma's own `reduction(+: sum) reduction(*: scale)` permits reassociating those floating-point reductions as OpenMP's clause does, without -ffast-math; the integer max beside them needs no permission.
#include "common.h"
enum { TABLE = 1 << 15 };
static double T[TABLE];
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  // Multiples of 1/8 below 2^20: every partial sum is exact, so any order of
  // the additions gives the same double.
  for (int k = 0; k < TABLE; ++k) T[k] = (double)(diff_rand() % 8000) / 8;
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  double sum = 0, scale = 1;
  int widest = -1;
#pragma memcoro parallel(N) reduction(+ : sum), reduction(* : scale) reduction(max : widest)
  for (int i = 0; i < n; ++i) {
    sum += T[idx[i]];
    scale *= T[idx[i]] > 999 ? 2.0 : 1.0;
    widest = idx[i] > widest ? idx[i] : widest;
  }
  printf("%.3f %.1f %d\n", sum, scale, widest);
  return 0;
}
