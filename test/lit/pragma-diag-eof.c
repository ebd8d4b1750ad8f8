// A pragma (or its _Pragma form from a macro) as the last thing in the file is diagnosed, not a crash.
// RUN: not %memcoro-cc -fsyntax-only %s 2>&1 | %FileCheck %s --implicit-check-not=error:
// RUN: not %memcoro-cc -fsyntax-only -DUSE_MACRO %s 2>&1 | %FileCheck %s --check-prefix=MACRO --implicit-check-not=error:
// RUN: not %memcoro-cc -fsyntax-only -DOPEN_HEAD %s 2>&1 | %FileCheck %s --check-prefix=HEAD --implicit-check-not='Stack dump'

#define MARK _Pragma("memcoro parallel(4)")
void f(long *a, int n) {
  for (int i = 0; i < n; i++) a[i] = 0;
}
#ifdef OPEN_HEAD
void g(long *a, int n) {
// The head, unterminated at the end of the file, is left to clang.
// HEAD: pragma-diag-eof.c:{{[0-9]+}}:{{[0-9]+}}: error: expected ';' in 'for' statement specifier
#pragma memcoro remote(a)
  for (int i = 0; i < n
#elif defined(USE_MACRO)
// MACRO: pragma-diag-eof.c:[[@LINE+1]]:1: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
MARK
#else
// CHECK: pragma-diag-eof.c:[[@LINE+1]]:1: error: '#pragma memcoro' must be followed by a 'for' or 'while' loop
#pragma memcoro parallel(4)
#endif
