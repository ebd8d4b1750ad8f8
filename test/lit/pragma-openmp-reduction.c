// Tests that the pragma plugin reads the reduction() clauses of the OpenMP
// directive right before #pragma memcoro (over continuation lines, with or
// without -fopenmp) and records the operators whose floating-point reductions
// may be reassociated (min and max: which of two equal zeros a floating-point
// minimum keeps), the directive written as `#pragma omp` or `_Pragma("omp")`;
// other operators and other directives add nothing.
// RUN: %memcoro-cc -Wno-unknown-pragmas -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s
// RUN: %memcoro-cc -fopenmp -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s
// RUN: %memcoro-cc -O2 -Wno-unknown-pragmas -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=memcoro-mark -S | FileCheck %s --check-prefix=MD

// CHECK-DAG: c"memcoro.loop reassoc +*\00"
// CHECK-DAG: c"memcoro.loop reassoc +\00"
// CHECK-DAG: c"memcoro.loop reassoc m\00"
// CHECK-DAG: c"memcoro.loop\00"
// CHECK-DAG: c"memcoro.loop reassoc *\00"
// MD-DAG: !{!"memcoro.reassoc", !"+*"}
// MD-DAG: !{!"memcoro.reassoc", !"+"}
// MD-DAG: !{!"memcoro.reassoc", !"m"}

double both(const double *a, const int *idx, int n) {
  double e = 0, p = 1;
#pragma omp parallel for \
    reduction(+ : e) reduction(*: p)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    e += a[idx[i]];
    p *= a[idx[i]];
  }
  return e + p;
}

double minus(const double *a, const int *idx, int n) {
  double e = 0;
#pragma omp parallel for reduction(-: e)

#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    e -= a[idx[i]];
  return e;
}

double others(const double *a, const int *idx, int n) {
  double m = 0;
#pragma omp parallel for reduction(max: m)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    m = a[idx[i]] > m ? a[idx[i]] : m;
  return m;
}

long bits(const long *a, const int *idx, int n) {
  long b = 0;
#pragma omp parallel for reduction(| : b)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    b |= a[idx[i]];
  return b;
}

double product(const double *a, const int *idx, int n) {
  double p = 1;
  _Pragma("omp parallel for reduction(* : p)")
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    p *= a[idx[i]];
  return p;
}
