// Diagnostics for parallel(N) that is not an integer constant expression or not in 1..1024, at the expression's line:column; -fno-memcoro diagnoses the same.
// RUN: not %memcoro-cc -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

#define TOO_MANY 2048
const int not_ice = 8; // a const object is not an integer constant expression in C

long f(long *a, int n, int k) {
  long s = 0;
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:26: error: 'parallel()' needs an integer constant expression
#pragma memcoro parallel(k)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:26: error: 'parallel()' needs an integer constant expression
#pragma memcoro parallel(not_ice)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:26: error: 'parallel()' needs an integer, not an expression of type 'double'
#pragma memcoro parallel(1.5)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:26: error: parallel(0) is out of range: the number of iterations in flight must be in 1..1024
#pragma memcoro parallel(0)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:36: error: parallel(-3) is out of range: the number of iterations in flight must be in 1..1024
#pragma memcoro remote(a) parallel(-3)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+1]]:26: error: parallel(1025) is out of range: the number of iterations in flight must be in 1..1024
#pragma memcoro parallel(1024 + 1)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.c:[[@LINE+2]]:26: error: parallel(2048) is out of range: the number of iterations in flight must be in 1..1024
// CHECK: pragma-diag-parallel.c:5:18: note: expanded from macro 'TOO_MANY'
#pragma memcoro parallel(TOO_MANY)
  for (int i = 0; i < n; i++) s += a[i];
  // The bounds themselves are fine.
#pragma memcoro parallel(1)
  for (int i = 0; i < n; i++) s += a[i];
#pragma memcoro parallel(1024)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
