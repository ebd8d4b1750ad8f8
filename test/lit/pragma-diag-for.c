// Diagnostics for a pragma that is not immediately followed by a 'for' or 'while' loop, at the offending token's line:column; -fno-memcoro diagnoses the same.
// RUN: not %memcoro-cc -fopenmp -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fopenmp -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

#define MARK _Pragma("memcoro parallel(4)")
#define PARALLEL_FOR _Pragma("omp parallel for") for

long f(long *a, int n) {
  long s = 0;
#pragma memcoro
// CHECK: pragma-diag-for.c:[[@LINE+1]]:3: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
  s++;
#pragma memcoro remote(a)
// CHECK: pragma-diag-for.c:[[@LINE+1]]:3: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
  do s--; while (s > 100);
  {
#pragma memcoro
// CHECK: pragma-diag-for.c:[[@LINE+1]]:3: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
  }
  MARK
// CHECK: pragma-diag-for.c:[[@LINE+1]]:3: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
  { for (int i = 0; i < n; i++) s += a[i]; }
  // An OpenMP directive between the pragma and the loop is handed back
  // before the loop, as if the pragma followed it: a macro such as Ligra's
  // parallel_for puts the directive where the pragma cannot follow it.
#pragma memcoro parallel(8)
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i];
#pragma memcoro parallel(8)
  PARALLEL_FOR(int i = 0; i < n; i++) s += a[i];
#pragma omp parallel for reduction(+ : s)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) s += a[i];
  // A directive followed by something else than a loop is still an error.
#pragma memcoro parallel(8)
// CHECK: pragma-diag-for.c:[[@LINE+2]]:3: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
#pragma omp parallel
  { s += a[0]; }
  return s;
}
