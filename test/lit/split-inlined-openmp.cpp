// Tests that the remark of a loop in an OpenMP region names the function the
// user wrote, not the outlined function's mangled name, and says nothing more
// when the region's body is only inlined into its own outlined function.
// RUN: %memcoro-cxx -fopenmp -g -fno-memcoro-adapt -O2 -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=omp_outlined --implicit-check-not=_Z
static long gather(const long *t, const int *ix, int n) {
  long s = 0;
#pragma omp parallel for reduction(+ : s)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
long first(const long *t, const int *ix, int n) { return gather(t, ix, n); }
// CHECK: remark: loop turned into 8 interleaved coroutines: {{.*}} per slot{{(; floating[^[]*)?}} [-Rpass=memcoro]

namespace app {
template <typename T> T total(const T *t, const int *ix, int n) {
  T s = 0;
#pragma omp parallel for reduction(+ : s)
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  return s;
}
} // namespace app
long second(const long *t, const int *ix, int n) { return app::total(t, ix, n); }
// CHECK: remark: loop turned into 8 interleaved coroutines: {{.*}} per slot [-Rpass=memcoro]
