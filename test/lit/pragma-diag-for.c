// Diagnostics for a pragma that is not immediately followed by a 'for' or 'while' loop, at the offending token's line:column; -fno-memcoro diagnoses the same.
// RUN: not %memcoro-cc -fopenmp -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fopenmp -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

#define MARK _Pragma("memcoro parallel(4)")

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
#pragma memcoro parallel(8)
// CHECK: pragma-diag-for.c:[[@LINE+2]]:1: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
// CHECK: pragma-diag-for.c:[[@LINE+1]]:1: note: put '#pragma memcoro' after the OpenMP directive, right before the 'for'
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i];
  // The same pair in the right order is fine.
#pragma omp parallel for reduction(+ : s)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
