// Tests several marked loops in one function: the first one's state machine
// (irreducible by construction: the scheduler enters its inner loop mid-body)
// does not keep the next one serial, and a marked loop nested in a transformed
// one is reported as such, not as removed by other optimisations.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="left serial" --implicit-check-not="removed it"
long several(const long *a, long n, const long *keys, long *pos, const int *idx, int m) {
#pragma memcoro parallel(8)
  for (int i = 0; i < m; i++) {
    long lo = 0, hi = n;
    while (lo < hi) {
      long mid = (lo + hi) / 2;
      if (a[mid] < keys[i]) lo = mid + 1; else hi = mid;
    }
    pos[i] = lo;
  }
// CHECK: split-several-loops.c:[[@LINE-8]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch
  long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < m; i++)
    s += a[idx[i]];
// CHECK: split-several-loops.c:[[@LINE-2]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, pipeline dispatch
#pragma memcoro parallel(4)
  for (int i = 0; i < m; i++) {
    long t = 0;
#pragma memcoro parallel(2)
    for (int j = 0; j < (i & 7); j++)
      t += a[idx[(i + j * 97) % m]];
    pos[i] += t;
  }
// CHECK: split-several-loops.c:[[@LINE-7]]:3: remark: loop turned into 4 interleaved coroutines
// CHECK: split-several-loops.c:[[@LINE-5]]:5: remark: marked loop not interleaved on its own: it is inside another marked loop, whose iterations memcoro interleaves instead
  return s;
}
