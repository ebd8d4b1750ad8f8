// Diagnostics for remote() names checked on the AST: in member functions defined in their class, and dependent types in template instantiations (with a note naming the instantiation).
// RUN: not %memcoro-cxx -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not %memcoro-cxx -fno-memcoro -fsyntax-only -ferror-limit=0 %s 2>&1 | %FileCheck %s --implicit-check-not=error: --implicit-check-not=note:

struct Table {
  long *data_;
  int size_;
  long sum(const int *idx, int n) const {
    long s = 0;
#pragma memcoro remote(data_, idx)
    for (int i = 0; i < n; i++) s += data_[idx[i]];
// CHECK: pragma-diag-remote.cpp:[[@LINE+1]]:24: error: 'size_' in 'remote()' is not a pointer or array: it has type 'const int'
#pragma memcoro remote(size_)
    for (int i = 0; i < n; i++) s += data_[i];
    return s;
  }
};

template <typename T> long first(T a, int n) {
  long s = 0;
// CHECK: pragma-diag-remote.cpp:[[@LINE+1]]:24: error: 'a' in 'remote()' is not a pointer or array: it has type 'int'
#pragma memcoro remote(a)
  for (int i = 0; i < n; i++) s += (long)a;
  return s;
}

// CHECK: pragma-diag-remote.cpp:[[@LINE+1]]:49: note: in instantiation of 'first<int>' requested here
long use(long *p, int x) { return first(p, 2) + first<int>(x, 2); }
