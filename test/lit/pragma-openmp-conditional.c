// Tests that the pragma plugin reads the OpenMP directive above a
// `#pragma memcoro` guarded by its own conditional (`#ifdef USE_MEMCORO`, a
// comment line between), and not one above a closing #endif, which may be a
// directive the preprocessor skipped.
// RUN: %memcoro-cc -DUSE_MEMCORO -Wno-unknown-pragmas -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s
// RUN: %memcoro-cc -DUSE_MEMCORO -fopenmp -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s

// CHECK-DAG: c"memcoro.loop reassoc *\00"
// CHECK-DAG: c"memcoro.loop\00"
// CHECK-NOT: c"memcoro.loop reassoc +\00"

double guarded(const double *a, const int *idx, int n) {
  double p = 1;
#pragma omp parallel for reduction(*: p)
// the hot loop
#if defined(USE_MEMCORO)
#pragma memcoro parallel(8)
#endif
  for (int i = 0; i < n; i++)
    p *= a[idx[i]];
  return p;
}

double skipped(const double *a, const int *idx, int n) {
  double e = 0;
#ifdef NOT_DEFINED
#pragma omp parallel for reduction(+: e)
#endif
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    e += a[idx[i]];
  return e;
}
