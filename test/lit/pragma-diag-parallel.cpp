// Diagnostics for parallel(N) in C++: checked per template instantiation (with a note naming it), constexpr calls evaluated, non-constexpr calls rejected.
// RUN: not %memcoro-cxx -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cxx -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

constexpr int huge() { return 4096; }
int runtime_width();

template <int T> long gather(const long *a, int n) {
  long s = 0;
#pragma memcoro parallel(T) remote(a)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

long calls(const long *a, int n) {
  long s = 0;
// CHECK: pragma-diag-parallel.cpp:[[@LINE+1]]:26: error: parallel(4096) is out of range: the number of iterations in flight must be in 1..1024
#pragma memcoro parallel(huge())
  for (int i = 0; i < n; i++) s += a[i];
// CHECK: pragma-diag-parallel.cpp:[[@LINE+1]]:26: error: 'parallel()' needs an integer constant expression
#pragma memcoro parallel(runtime_width())
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

long use(const long *a) {
  return gather<8>(a, 4) + gather<0>(a, 4) + gather<2000>(a, 4);
}
// The instantiations are checked at the end of the translation unit.
// CHECK: pragma-diag-parallel.cpp:10:26: error: parallel(0) is out of range: the number of iterations in flight must be in 1..1024
// CHECK: pragma-diag-parallel.cpp:[[@LINE-4]]:28: note: in instantiation of 'gather<0>' requested here
// CHECK: pragma-diag-parallel.cpp:10:26: error: parallel(2000) is out of range: the number of iterations in flight must be in 1..1024
// CHECK: pragma-diag-parallel.cpp:[[@LINE-6]]:46: note: in instantiation of 'gather<2000>' requested here
