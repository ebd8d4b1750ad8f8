// Diagnostics for names in remote() that are not declared, not variables, or not pointers or arrays, at the name's line:column; -fno-memcoro diagnoses the same.
// RUN: not %memcoro-cc -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

typedef long *row_t;
enum { WIDTH = 4 };
struct pair { long *p, *q; int n; };
long g(int);

long undeclared(long *a, int n) {
  long s = 0;
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:27: error: use of undeclared identifier 'b' in 'remote()'
#pragma memcoro remote(a, b)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

long not_pointers(long *a, int n, struct pair pr) {
  long s = 0;
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'n' in 'remote()' is not a pointer or array: it has type 'int'
#pragma memcoro remote(n)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:27: error: 'pr' in 'remote()' is not a pointer or array: it has type 'struct pair'
#pragma memcoro remote(a, pr)
  for (int i = 0; i < n; i++) s += pr.p[i];
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'WIDTH' in 'remote()' is not a pointer or array: it has type 'int'
#pragma memcoro remote(WIDTH)
  for (int i = 0; i < n; i++) s += a[i];
  // Member paths: pointers and arrays are fine, anything else is diagnosed
  // on the AST (so after the function's other errors), as written.
#pragma memcoro remote(pr.p, pr.q)
  for (int i = 0; i < n; i++) s += pr.p[i] + pr.q[i];
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: use of undeclared identifier 'other' in 'remote()'
#pragma memcoro remote(other.p)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'pr.n' in 'remote()' is not a pointer or array: it has type 'int'
#pragma memcoro remote(pr.n)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

long not_variables(long *a, int n) {
  long s = 0;
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'g' in 'remote()' is not a variable; expected a pointer or array
#pragma memcoro remote(g)
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'row_t' in 'remote()' is not a variable; expected a pointer or array
#pragma memcoro remote(row_t)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

// A name declared in the loop head is in scope in the loop: accepted when it
// is a pointer, diagnosed on the AST otherwise.
long declared_in_head(long *a, int n) {
  long s = 0;
#pragma memcoro remote(p)
  for (long *p = a; p != a + n; p++) s += *p;
// CHECK: pragma-diag-remote.c:[[@LINE+1]]:24: error: 'k' in 'remote()' is not a pointer or array: it has type 'int'
#pragma memcoro remote(k)
  for (int k = 0; k < n; k++) s += a[k];
  return s;
}
