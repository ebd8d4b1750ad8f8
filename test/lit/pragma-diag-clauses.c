// Diagnostics for the clause syntax of '#pragma memcoro': unknown and duplicate clauses, malformed parallel() and remote(), each at its line:column; -fno-memcoro diagnoses the same.
// RUN: not %memcoro-cc -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

struct pair { long *p, *q; };
long f(long *a, long *b, int n, struct pair pr) {
  long s = 0;
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:29: error: unknown clause 'vector' in '#pragma memcoro'; expected 'parallel', 'remote', 'reduction' or 'insist'
#pragma memcoro parallel(4) vector(8)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:17: error: unknown clause 'Parallel' in '#pragma memcoro'; expected 'parallel', 'remote', 'reduction' or 'insist'
#pragma memcoro Parallel(4)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:29: error: expected a clause ('parallel', 'remote', 'reduction' or 'insist') in '#pragma memcoro'
#pragma memcoro parallel(4) 17
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:26: error: expected '(' after 'parallel' in '#pragma memcoro'
#pragma memcoro parallel 4
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:23: error: expected '(' after 'remote' in '#pragma memcoro'
#pragma memcoro remote
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:33: error: expected ')' to close 'parallel(' in '#pragma memcoro'
#pragma memcoro parallel((4 + 1)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:26: error: expected an expression in 'parallel()'
#pragma memcoro parallel()
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:27: error: 'parallel()' takes one expression, not a list
#pragma memcoro parallel(4, 8)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:24: error: expected the name of a pointer or array in 'remote()'
#pragma memcoro remote()
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:26: error: expected ',' or ')' after a name in 'remote()'
#pragma memcoro remote(a b)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:26: error: expected the name of a pointer or array in 'remote()'
#pragma memcoro remote(a,)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:25: error: expected ',' or ')' after a name in 'remote()'
#pragma memcoro remote(a[0])
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:24: error: expected the name of a pointer or array in 'remote()'
#pragma memcoro remote(*a)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:27: error: expected a member name after 'a->' in 'remote()'
#pragma memcoro remote(a->)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+2]]:39: error: duplicate 'parallel' clause in '#pragma memcoro'
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:17: note: first given here
#pragma memcoro parallel(4) remote(a) parallel(8)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+2]]:28: error: duplicate 'remote' clause in '#pragma memcoro'
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:17: note: first given here
#pragma memcoro remote(a), remote(b)
  for (int i = 0; i < n; i++) s += a[i] + b[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+2]]:30: error: 'a' appears twice in 'remote()'
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:24: note: first given here
#pragma memcoro remote(a, b, a)
  for (int i = 0; i < n; i++) s += a[i] + b[i];
// CHECK: pragma-diag-clauses.c:[[@LINE+2]]:36: error: 'pr.p' appears twice in 'remote()'
// CHECK: pragma-diag-clauses.c:[[@LINE+1]]:24: note: first given here
#pragma memcoro remote(pr.p, pr.q, pr . p)
  for (int i = 0; i < n; i++) s += pr.p[i];
  return s;
}
