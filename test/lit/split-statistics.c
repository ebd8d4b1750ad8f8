// Tests that -stats prints memcoro's counters even on Debian's release LLVM,
// whose own printer only says that statistics are disabled.
// RUN: %memcoro-cc -O2 -mllvm -stats -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: ... Statistics Collected ...
// CHECK-DAG: 1 NumLoopsMarked
// CHECK-DAG: 1 NumLoopsSplit
// CHECK-DAG: 1 NumSuspensionPoints
// CHECK-DAG: 1 NumReductions
long gather(const long *a, const int *idx, int n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}
