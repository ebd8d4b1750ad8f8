// xsbench: the macroscopic cross-section lookup of XSBench (the proxy app of
// OpenMC's hottest kernel), written the way its event-based simulation writes
// it: each lookup draws a particle energy and a material from a per-lookup
// LCG stream, binary-searches the unionized energy grid, then reads, for every
// nuclide of the material, its index-grid entry and the two bracketing points
// of that nuclide's grid, and accumulates the interpolated cross sections.
// The OpenMP reduction sums max_idx + 1 into the verification hash, as
// XSBench does; the verifier recomputes that hash serially with XSBench's
// other lookup method (a binary search on each nuclide's own grid), which
// finds the same bracketing points without the unionized grid.
// One pragma line marks the lookup loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STARTING_SEED 1070
#define N_MATERIALS 12

typedef struct {
  double energy;
  double total_xs;
  double elastic_xs;
  double absorbtion_xs;
  double fission_xs;
  double nu_fission_xs;
} NuclideGridPoint;

typedef struct {
  long n_isotopes;
  long n_gridpoints;
  int lookups;
} Inputs;

typedef struct {
  int *num_nucs;
  double *concs;
  int *mats;
  int max_num_nucs;
  double *unionized_energy_array;
  long length_unionized_energy_array;
  int *index_grid;
  NuclideGridPoint *nuclide_grid;
} SimulationData;

static double LCG_random_double(uint64_t *seed) {
  const uint64_t m = 9223372036854775808ULL; // 2^63
  const uint64_t a = 2806196910506780709ULL;
  const uint64_t c = 1ULL;
  *seed = (a * (*seed) + c) % m;
  return (double)(*seed) / (double)m;
}

// The seed n steps ahead, in log n steps, so that each lookup owns its stream.
static uint64_t fast_forward_LCG(uint64_t seed, uint64_t n) {
  const uint64_t m = 9223372036854775808ULL;
  uint64_t a = 2806196910506780709ULL;
  uint64_t c = 1ULL;
  n = n % m;
  uint64_t a_new = 1;
  uint64_t c_new = 0;
  while (n > 0) {
    if (n & 1) {
      a_new *= a;
      c_new = c_new * a + c;
    }
    c *= (a + 1);
    a *= a;
    n >>= 1;
  }
  return (a_new * seed + c_new) % m;
}

// The share of lookups that land in each material (fuel, cladding, water...).
static int pick_mat(uint64_t *seed) {
  static const double dist[N_MATERIALS] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                           0.066, 0.055, 0.008, 0.015, 0.025, 0.013};
  double roll = LCG_random_double(seed);
  for (int i = 0; i < N_MATERIALS; i++) {
    double running = 0;
    for (int j = i; j > 0; j--)
      running += dist[j];
    if (roll < running)
      return i;
  }
  return 0;
}

static long grid_search(long n, double quarry, const double *A) {
  long lowerLimit = 0;
  long upperLimit = n - 1;
  long examinationPoint;
  long length = upperLimit - lowerLimit;
  while (length > 1) {
    examinationPoint = lowerLimit + (length / 2);
    if (A[examinationPoint] > quarry)
      upperLimit = examinationPoint;
    else
      lowerLimit = examinationPoint;
    length = upperLimit - lowerLimit;
  }
  return lowerLimit;
}

static long grid_search_nuclide(double quarry, const NuclideGridPoint *A, long low, long high) {
  long length = high - low;
  while (length > 1) {
    long examinationPoint = low + (length / 2);
    if (A[examinationPoint].energy > quarry)
      high = examinationPoint;
    else
      low = examinationPoint;
    length = high - low;
  }
  return low;
}

static void calculate_micro_xs(double p_energy, int nuc, long n_isotopes, long n_gridpoints,
                               const int *index_data, const NuclideGridPoint *nuclide_grids, long idx,
                               double *xs_vector, int use_unionized) {
  const NuclideGridPoint *low, *high;
  if (use_unionized)
    idx = index_data[idx * n_isotopes + nuc];
  else
    idx = grid_search_nuclide(p_energy, &nuclide_grids[nuc * n_gridpoints], 0, n_gridpoints - 1);
  if (idx == n_gridpoints - 1)
    low = &nuclide_grids[nuc * n_gridpoints + idx - 1];
  else
    low = &nuclide_grids[nuc * n_gridpoints + idx];
  high = low + 1;
  double f = (high->energy - p_energy) / (high->energy - low->energy);
  xs_vector[0] = high->total_xs - f * (high->total_xs - low->total_xs);
  xs_vector[1] = high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
  xs_vector[2] = high->absorbtion_xs - f * (high->absorbtion_xs - low->absorbtion_xs);
  xs_vector[3] = high->fission_xs - f * (high->fission_xs - low->fission_xs);
  xs_vector[4] = high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
}

static void calculate_macro_xs(double p_energy, int mat, long n_isotopes, long n_gridpoints, const int *num_nucs,
                               const double *concs, const double *egrid, const int *index_data,
                               const NuclideGridPoint *nuclide_grids, const int *mats, double *macro_xs_vector,
                               int max_num_nucs, int use_unionized) {
  double xs_vector[5];
  long idx = 0;
  for (int k = 0; k < 5; k++)
    macro_xs_vector[k] = 0;
  if (use_unionized)
    idx = grid_search(n_isotopes * n_gridpoints, p_energy, egrid);
  for (int j = 0; j < num_nucs[mat]; j++) {
    int p_nuc = mats[mat * max_num_nucs + j];
    double conc = concs[mat * max_num_nucs + j];
    calculate_micro_xs(p_energy, p_nuc, n_isotopes, n_gridpoints, index_data, nuclide_grids, idx, xs_vector,
                       use_unionized);
    for (int k = 0; k < 5; k++)
      macro_xs_vector[k] += xs_vector[k] * conc;
  }
}

static unsigned long run_event_based_simulation(Inputs in, SimulationData SD, int use_unionized) {
  unsigned long verification = 0;
#pragma omp parallel for schedule(dynamic, 100) reduction(+ : verification)
#pragma memcoro
  for (int i = 0; i < in.lookups; i++) {
    uint64_t seed = STARTING_SEED;
    seed = fast_forward_LCG(seed, 2 * i);
    double p_energy = LCG_random_double(&seed);
    int mat = pick_mat(&seed);
    double macro_xs_vector[5] = {0};
    calculate_macro_xs(p_energy, mat, in.n_isotopes, in.n_gridpoints, SD.num_nucs, SD.concs,
                       SD.unionized_energy_array, SD.index_grid, SD.nuclide_grid, SD.mats, macro_xs_vector,
                       SD.max_num_nucs, use_unionized);
    double max = -1.0;
    int max_idx = 0;
    for (int j = 0; j < 5; j++) {
      if (macro_xs_vector[j] > max) {
        max = macro_xs_vector[j];
        max_idx = j;
      }
    }
    verification += max_idx + 1;
  }
  return verification;
}

// The serial reference: XSBench's nuclide-grid method, no unionized grid.
static unsigned long reference_simulation(Inputs in, SimulationData SD) {
  unsigned long verification = 0;
  for (int i = 0; i < in.lookups; i++) {
    uint64_t seed = fast_forward_LCG(STARTING_SEED, 2 * i);
    double p_energy = LCG_random_double(&seed);
    int mat = pick_mat(&seed);
    double macro_xs_vector[5];
    calculate_macro_xs(p_energy, mat, in.n_isotopes, in.n_gridpoints, SD.num_nucs, SD.concs, NULL, NULL,
                       SD.nuclide_grid, SD.mats, macro_xs_vector, SD.max_num_nucs, 0);
    int max_idx = 0;
    for (int j = 1; j < 5; j++)
      if (macro_xs_vector[j] > macro_xs_vector[max_idx])
        max_idx = j;
    verification += max_idx + 1;
  }
  return verification;
}

static int NGP_compare(const void *a, const void *b) {
  double x = ((const NuclideGridPoint *)a)->energy, y = ((const NuclideGridPoint *)b)->energy;
  return (x > y) - (x < y);
}

static int double_compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static SimulationData grid_init(Inputs in) {
  SimulationData SD;
  uint64_t seed = 42;
  long n = in.n_isotopes * in.n_gridpoints;
  SD.nuclide_grid = malloc(n * sizeof(NuclideGridPoint));
  for (long i = 0; i < n; i++) {
    SD.nuclide_grid[i].energy = LCG_random_double(&seed);
    SD.nuclide_grid[i].total_xs = LCG_random_double(&seed);
    SD.nuclide_grid[i].elastic_xs = LCG_random_double(&seed);
    SD.nuclide_grid[i].absorbtion_xs = LCG_random_double(&seed);
    SD.nuclide_grid[i].fission_xs = LCG_random_double(&seed);
    SD.nuclide_grid[i].nu_fission_xs = LCG_random_double(&seed);
  }
  for (long i = 0; i < in.n_isotopes; i++)
    qsort(&SD.nuclide_grid[i * in.n_gridpoints], in.n_gridpoints, sizeof(NuclideGridPoint), NGP_compare);

  SD.length_unionized_energy_array = n;
  SD.unionized_energy_array = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++)
    SD.unionized_energy_array[i] = SD.nuclide_grid[i].energy;
  qsort(SD.unionized_energy_array, n, sizeof(double), double_compare);

  // For each unionized point, the last point of each nuclide at or below it.
  SD.index_grid = malloc((size_t)n * in.n_isotopes * sizeof(int));
  int *idx_low = calloc(in.n_isotopes, sizeof(int));
  double *energy_high = malloc(in.n_isotopes * sizeof(double));
  for (long i = 0; i < in.n_isotopes; i++)
    energy_high[i] = SD.nuclide_grid[i * in.n_gridpoints + 1].energy;
  for (long e = 0; e < n; e++) {
    double unionized_energy = SD.unionized_energy_array[e];
    for (long i = 0; i < in.n_isotopes; i++) {
      if (unionized_energy < energy_high[i])
        SD.index_grid[e * in.n_isotopes + i] = idx_low[i];
      else if (idx_low[i] == in.n_gridpoints - 2)
        SD.index_grid[e * in.n_isotopes + i] = idx_low[i];
      else {
        idx_low[i]++;
        SD.index_grid[e * in.n_isotopes + i] = idx_low[i];
        energy_high[i] = SD.nuclide_grid[i * in.n_gridpoints + idx_low[i] + 1].energy;
      }
    }
  }
  free(idx_low);
  free(energy_high);

  // XSBench's material composition for the small (68-nuclide) problem.
  static const int num_nucs[N_MATERIALS] = {34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9};
  SD.num_nucs = malloc(sizeof num_nucs);
  memcpy(SD.num_nucs, num_nucs, sizeof num_nucs);
  SD.max_num_nucs = 34;
  SD.mats = malloc(N_MATERIALS * SD.max_num_nucs * sizeof(int));
  SD.concs = malloc(N_MATERIALS * SD.max_num_nucs * sizeof(double));
  for (int m = 0; m < N_MATERIALS; m++) {
    for (int j = 0; j < num_nucs[m]; j++) {
      SD.mats[m * SD.max_num_nucs + j] = (int)((m * 17 + j * 7) % in.n_isotopes);
      SD.concs[m * SD.max_num_nucs + j] = LCG_random_double(&seed);
    }
  }
  return SD;
}

int main(int argc, char **argv) {
  Inputs in;
  in.n_isotopes = 68;
  in.n_gridpoints = argc > 1 ? atol(argv[1]) : 11303;
  in.lookups = argc > 2 ? atoi(argv[2]) : 1000000;
  SimulationData SD = grid_init(in);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long verification = run_event_based_simulation(in, SD, 1);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  unsigned long expected = reference_simulation(in, SD);
  int ok = verification == expected;
  printf("kernel_seconds %.6f\n", seconds);
  printf("lookups %d, verification checksum %lu (reference %lu)\n", in.lookups, verification, expected);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
