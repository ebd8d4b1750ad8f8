// Tests the pragma's `insist` clause: it reaches IR as a suffix of the loop
// marker (after an OpenMP reduction clause's), memcoro-mark records it as
// memcoro.insist, the cost model then leaves every remote access a
// suspension point, and a second `insist` is an error.
// RUN: %memcoro-cc -Wno-unknown-pragmas -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | FileCheck %s
// RUN: %memcoro-cc -O2 -Wno-unknown-pragmas -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=memcoro-mark -S | FileCheck %s --check-prefix=MD
// RUN: %memcoro-cc -O2 -Wno-unknown-pragmas -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not %memcoro-cc -DTWICE -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=TWICE

// CHECK-DAG: c"memcoro.loop insist\00"
// CHECK-DAG: c"memcoro.loop reassoc + insist\00"
// MD-DAG: !{!"memcoro.insist"}
// MD-DAG: !{!"memcoro.reassoc", !"+"}

void copy(double *a, const double *b, int n) {
#pragma memcoro parallel(8) insist remote(a, b)
  for (int i = 0; i < n; i++)
    a[i] = b[i];
}
// REMARK: pragma-insist.c:[[@LINE-3]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point

double sum(const double *a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
#pragma memcoro insist, remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// REMARK: pragma-insist.c:[[@LINE-4]]:3: remark: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): 1 suspension point

#ifdef TWICE
void twice(double *a, int n) {
// TWICE: pragma-insist.c:[[@LINE+2]]:34: error: duplicate 'insist' clause in '#pragma memcoro'
// TWICE: pragma-insist.c:[[@LINE+1]]:17: note: first given here
#pragma memcoro insist remote(a) insist
  for (int i = 0; i < n; i++)
    a[i] = 0;
}
#endif
