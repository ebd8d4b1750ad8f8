// The marker adds no warning to the user's build, even with -Wall -Wextra -Wold-style-cast; the user's own casts next to it still warn.
// RUN: %memcoro-cxx -fsyntax-only -Wall -Wextra -Wold-style-cast %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
// RUN: %memcoro-cxx -fno-memcoro -fsyntax-only -Wall -Wextra -Wold-style-cast %s 2>&1 | %FileCheck %s --implicit-check-not=warning:
#include <memcoro/memcoro.h>

#define PRAGMA(x) _Pragma(#x)
#define FOR_EACH(i, n) PRAGMA(memcoro parallel(4) remote(a)) for (int i = 0; i < (n); i++)

long f(long *a, int n) {
  long s = 0;
#pragma memcoro parallel(8) remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
  FOR_EACH(i, n) s += a[i];
  _Pragma("memcoro remote(a)") for (int i = 0; i < n; i++) s += a[i];
  MEMCORO_LOOP(2)
  for (int i = 0; i < n; i++)
    if (a[i])
      s++;
    else
      s--;
// CHECK: pragma-warnings.cpp:[[@LINE+1]]:10: warning: use of old-style cast
  return (long)s;
}
