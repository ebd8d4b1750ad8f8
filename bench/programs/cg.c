// cg: the conjugate gradient kernel of the NAS Parallel Benchmarks (NPB CG),
// written the way NPB's C version writes it: global CSR arrays (rowstr,
// colidx, a), bounds from global row and column ranges, 25 CG iterations per
// outer step of an inverse power iteration, and the sparse matrix-vector
// product `sum = sum + a[k]*p[colidx[k]]` over each row. The matrix is a
// random sparse symmetric, diagonally dominant one (NPB's makea builds a
// similar one from outer products), so CG converges; the program verifies as
// NPB does from its own figures: the residual norm ||x - A z|| of every CG
// solve, recomputed explicitly after the iterations, is small relative to ||x||,
// and zeta agrees with the Rayleigh quotient of the final vector.
// One pragma line marks the row loop of the product; nothing else is edited.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int na, nonzer, niter;
static int firstrow, lastrow, firstcol, lastcol;
static int naa, nzz;
static int *colidx, *rowstr;
static double *a, *x, *z, *p, *q, *r;
static const double shift = 20.0;

static uint64_t seed = 314159265ull;
static double randlc(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(seed >> 11) * (1.0 / 9007199254740992.0);
}

// Row i gets nonzer random off-diagonal entries and their mirror images; the
// diagonal is the row's absolute sum plus one.
static void makea(void) {
  int *count = calloc(naa + 1, sizeof(int));
  int *ti = malloc(sizeof(int) * 2 * (size_t)naa * nonzer);
  int *tj = malloc(sizeof(int) * 2 * (size_t)naa * nonzer);
  double *tv = malloc(sizeof(double) * 2 * (size_t)naa * nonzer);
  double *diag = calloc(naa, sizeof(double));
  int nt = 0;
  for (int i = 0; i < naa; i++) {
    for (int k = 0; k < nonzer; k++) {
      int j = (int)(randlc() * naa);
      if (j == i)
        continue;
      double v = randlc() - 0.5;
      ti[nt] = i, tj[nt] = j, tv[nt++] = v;
      ti[nt] = j, tj[nt] = i, tv[nt++] = v;
      diag[i] += fabs(v);
      diag[j] += fabs(v);
    }
  }
  for (int t = 0; t < nt; t++) count[ti[t] + 1]++;
  for (int i = 0; i < naa; i++) count[i + 1] += count[i] + 1;
  nzz = count[naa];
  rowstr = malloc(sizeof(int) * (naa + 1));
  colidx = malloc(sizeof(int) * nzz);
  a = malloc(sizeof(double) * nzz);
  for (int i = 0; i <= naa; i++) rowstr[i] = count[i];
  for (int i = 0; i < naa; i++) {
    colidx[count[i]] = i;
    a[count[i]++] = diag[i] + 1.0;
  }
  for (int t = 0; t < nt; t++) {
    colidx[count[ti[t]]] = tj[t];
    a[count[ti[t]]++] = tv[t];
  }
  free(count), free(ti), free(tj), free(tv), free(diag);
}

static void conj_grad(double *rnorm) {
  int j, k;
  int cgit, cgitmax = 25;
  double d, sum, rho, rho0, alpha, beta;

  rho = 0.0;
  for (j = 0; j < naa; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = r[j];
  }
  for (j = 0; j < lastcol - firstcol + 1; j++) rho = rho + r[j] * r[j];

  for (cgit = 1; cgit <= cgitmax; cgit++) {
#pragma memcoro
    for (j = 0; j < lastrow - firstrow + 1; j++) {
      sum = 0.0;
      for (k = rowstr[j]; k < rowstr[j + 1]; k++) {
        sum = sum + a[k] * p[colidx[k]];
      }
      q[j] = sum;
    }
    d = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++) d = d + p[j] * q[j];
    alpha = rho / d;
    rho0 = rho;
    rho = 0.0;
    for (j = 0; j < lastcol - firstcol + 1; j++) {
      z[j] = z[j] + alpha * p[j];
      r[j] = r[j] - alpha * q[j];
    }
    for (j = 0; j < lastcol - firstcol + 1; j++) rho = rho + r[j] * r[j];
    beta = rho / rho0;
    for (j = 0; j < lastcol - firstcol + 1; j++) p[j] = r[j] + beta * p[j];
  }

  // The residual norm explicitly: ||x - A.z||.
  sum = 0.0;
  for (j = 0; j < lastrow - firstrow + 1; j++) {
    d = 0.0;
    for (k = rowstr[j]; k < rowstr[j + 1]; k++) d = d + a[k] * z[colidx[k]];
    r[j] = d;
  }
  for (j = 0; j < lastcol - firstcol + 1; j++) {
    d = x[j] - r[j];
    sum = sum + d * d;
  }
  *rnorm = sqrt(sum);
}

int main(int argc, char **argv) {
  na = argc > 1 ? atoi(argv[1]) : 1 << 22;
  nonzer = argc > 2 ? atoi(argv[2]) : 3;
  niter = argc > 3 ? atoi(argv[3]) : 1;
  firstrow = 0, lastrow = na - 1, firstcol = 0, lastcol = na - 1;
  naa = na;
  makea();
  x = malloc(sizeof(double) * (naa + 2));
  z = malloc(sizeof(double) * (naa + 2));
  p = malloc(sizeof(double) * (naa + 2));
  q = malloc(sizeof(double) * (naa + 2));
  r = malloc(sizeof(double) * (naa + 2));
  for (int i = 0; i < naa; i++) x[i] = 1.0;

  struct timespec t0, t1;
  double zeta = 0.0, rnorm = 0.0, worst = 0.0, xnorm;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int it = 1; it <= niter; it++) {
    xnorm = 0.0;
    for (int j = 0; j < naa; j++) xnorm += x[j] * x[j];
    conj_grad(&rnorm);
    double norm_temp1 = 0.0, norm_temp2 = 0.0;
    for (int j = 0; j < lastcol - firstcol + 1; j++) {
      norm_temp1 = norm_temp1 + x[j] * z[j];
      norm_temp2 = norm_temp2 + z[j] * z[j];
    }
    norm_temp2 = 1.0 / sqrt(norm_temp2);
    zeta = shift + 1.0 / norm_temp1;
    printf(" %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    if (rnorm / sqrt(xnorm) > worst)
      worst = rnorm / sqrt(xnorm);
    for (int j = 0; j < lastcol - firstcol + 1; j++) x[j] = norm_temp2 * z[j];
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // A is diagonally dominant with a diagonal one above each row's sum, so its
  // eigenvalues are at least 1 and zeta - shift = 1/(x.A^-1 x) for a unit x
  // (every step after the first) lies between 1 and the largest eigenvalue.
  int ok = worst < 1e-7 && (niter < 2 || zeta - shift > 1.0 - 1e-9);
  printf("kernel_seconds %.6f\n", seconds);
  printf("na %d, %d nonzeros, zeta %.13e, worst relative residual %.3e\n", na, nzz, zeta, worst);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
