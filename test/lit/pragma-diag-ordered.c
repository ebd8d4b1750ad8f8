// Misplaced or malformed '#pragma memcoro ordered': outside a marked loop, nested, with clauses, with no statement; -fno-memcoro diagnoses the same.
// Errors found while lexing come before those found on the AST, hence CHECK-DAG.
// RUN: not %memcoro-cc -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cc -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

void f(int *a, int n) {
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+1]]:17: error: '#pragma memcoro ordered' must be inside the body of a loop marked with '#pragma memcoro'
#pragma memcoro ordered
  a[0] = 1;
  for (int i = 0; i < n; i++) {
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+1]]:17: error: '#pragma memcoro ordered' must be inside the body of a loop marked with '#pragma memcoro'
#pragma memcoro ordered
    a[i] += 1;
  }
#pragma memcoro parallel(4)
  for (int i = 0; i < n; i++) {
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+1]]:17: note: the enclosing ordered region starts here
#pragma memcoro ordered
    {
      a[i] += 1;
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+1]]:17: error: '#pragma memcoro ordered' inside another ordered region of the same loop
#pragma memcoro ordered
      a[i + 1] += 1;
    }
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+1]]:25: error: '#pragma memcoro ordered' takes no clauses; unexpected 'parallel'
#pragma memcoro ordered parallel(4)
    a[i] -= 1;
// CHECK-DAG: pragma-diag-ordered.c:[[@LINE+2]]:3: error: '#pragma memcoro ordered' must be followed by a statement
#pragma memcoro ordered
  }
  // Fine: in the body of a marked loop, also inside a conditional or an inner loop.
#pragma memcoro parallel(4)
  for (int i = 0; i < n; i++) {
    if (a[i] > 0)
#pragma memcoro ordered
      a[0] += a[i];
    for (int j = 0; j < 3; j++) {
#pragma memcoro ordered
      a[j] += i;
    }
  }
}
