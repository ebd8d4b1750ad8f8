// openmp_carried_rows: a neighbour-list loop nest under `omp parallel for` whose sum is no reduction (`t = t * 0.5 + x[...]`, each step halving what came before), so it keeps its serial order with the inner loop's gathers prefetched ahead, switched at run time with the loop as written. With -fopenmp the chunk's counter starts at its lower bound, and the read ahead's bound (the row's last element) was expanded through an induction variable of the expander's own, which the switch's windows did not carry: the compiler crashed in loop-simplify (diff-switch-openmp-*). The answer equals the serial loop's.
// cost-model: on
#include "common.h"

enum { SLOTS = 32 };

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *count = diff_alloc(sizeof *count * (n + 1));
  int32_t *neighbours = diff_alloc(sizeof *neighbours * ((int64_t)n * SLOTS + 1));
  double *x = diff_alloc(sizeof *x * (n + 1));
  for (int i = 0; i < n; i++) {
    count[i] = (int32_t)(diff_rand() % (SLOTS + 1));
    x[i] = (double)(diff_rand() % 1024);
    for (int k = 0; k < SLOTS; k++) neighbours[(int64_t)i * SLOTS + k] = (int32_t)(diff_rand() % n);
  }
  double t = 0;
#pragma omp parallel for reduction(+ : t) num_threads(2)
#pragma memcoro parallel(N)
  for (int i = 0; i < n; i++)
    for (int k = 0; k < count[i]; k++)
      t = t * 0.5 + x[neighbours[i * SLOTS + k]];
  printf("%.6f\n", t);
  return 0;
}
