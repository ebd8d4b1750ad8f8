// The pragma's own reduction(op: list) clause, as OpenMP writes it: + - and *
// permit reassociating floating-point reductions (the loop interleaves without
// -ffast-math), min and max permit a floating-point minimum or maximum to keep
// either of two equal zeros, other operators are accepted and change nothing, bad clauses are
// errors at their token, and the serial remark of a floating-point reduction
// names the clause that would interleave it.
// RUN: %memcoro-cc -O2 -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -c -o /dev/null %s -Rpass=memcoro -Rpass-missed=memcoro 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not %memcoro-cc -fsyntax-only -ferror-limit=0 -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
// RUN: not %memcoro-cc -fno-memcoro -fsyntax-only -ferror-limit=0 -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:

// IR-DAG: c"memcoro.loop reassoc +\00"
// IR-DAG: c"memcoro.loop reassoc +*\00"
// IR-DAG: c"memcoro.loop reassoc m\00"

// REMARK: pragma-reduction.c:[[@LINE+4]]:3: remark: loop turned into 8 interleaved coroutines{{.*}}; floating-point reductions reassociated, as the reduction clause permits
double sum(const double *a, const int *idx, int n) {
  double s = 0;
#pragma memcoro parallel(8) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}

// REMARK: pragma-reduction.c:[[@LINE+4]]:3: remark: loop turned into 8 interleaved coroutines
double both(const double *a, const int *idx, int n) {
  double s = 0, p = 1;
#pragma memcoro parallel(8), reduction(-: s) reduction(task, *: p)
  for (int i = 0; i < n; i++) {
    s -= a[idx[i]];
    p *= a[idx[i]];
  }
  return s + p;
}

// REMARK: pragma-reduction.c:[[@LINE+6]]:{{[0-9]+}}: remark: marked loop not interleaved, kept in serial order with prefetches ahead: floating-point reduction ('s') whose result depends on the order of the additions; allow reassociation (-ffast-math, or -fassociative-math -fno-signed-zeros, or a reduction(+: s) clause on the pragma) to interleave it
double only_max(const double *a, const int *idx, int n, int *m) {
  double s = 0;
  int mx = 0;
#pragma memcoro parallel(8) reduction(max : mx)
  for (int i = 0; i < n; i++) {
    s += a[idx[i]];
    mx = idx[i] > mx ? idx[i] : mx;
  }
  *m = mx;
  return s;
}

#ifdef BAD
void f(void);
double bad(const double *a, int n) {
  double s = 0;
// BAD: pragma-reduction.c:[[@LINE+1]]:27: error: expected a reduction operator ('+', '-', '*', '&', '|', '^', '&&', '||', 'min' or 'max') in 'reduction()'
#pragma memcoro reduction(% : s)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:29: error: expected ':' after the operator in 'reduction()'
#pragma memcoro reduction(+ s)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:30: error: expected the name of a variable in 'reduction()'
#pragma memcoro reduction(+ :)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:33: error: expected ',' or ')' after a name in 'reduction()'
#pragma memcoro reduction(+ : s t)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:33: error: use of undeclared identifier 't' in 'reduction()'
#pragma memcoro reduction(+ : s,t)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:31: error: 'f' in 'reduction()' is not a variable
#pragma memcoro reduction(+ : f)
  for (int i = 0; i < n; i++) s += a[i];
// BAD: pragma-reduction.c:[[@LINE+1]]:27: error: expected '(' after 'reduction' in '#pragma memcoro'
#pragma memcoro reduction + : s
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
#endif
