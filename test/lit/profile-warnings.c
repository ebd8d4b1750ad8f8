// -fmemcoro-profile-use with a profile that cannot be used: a missing file, garbage, a malformed site line, or a profile of other source is a warning, never an error; the loop keeps memcoro's own suspension points.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-use=%t.none -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=MISSING,STATIC
// RUN: head -c 300 %s > %t.garbage
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-use=%t.garbage -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=GARBAGE,STATIC
// RUN: printf 'memcoro-profile 1\nsite f 19:3 load 20:10 zero 1 2 3 4 5\n' > %t.bad
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-use=%t.bad -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=BAD,STATIC
// RUN: printf 'memcoro-profile 1\nsite f 19:3 load 18:10 0 500 500 0.0 0.1 0.0\n' > %t.stale
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fmemcoro-profile-use=%t.stale -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=STALE,STATIC

// MISSING: warning: memcoro: ignoring the profile '{{.*}}.none' (cannot read it: No such file or directory): marked loops keep memcoro's own choice of suspension points
// GARBAGE: warning: memcoro: ignoring the profile '{{.*}}.garbage' (line 1: not a memcoro profile (the first line must be 'memcoro-profile 1')): marked loops keep memcoro's own choice of suspension points
// BAD: warning: memcoro: ignoring the profile '{{.*}}.bad' (line 2: malformed site 'site f 19:3 load 20:10 zero 1 2 3 4 5')
// STALE: 19:3: warning: memcoro: the profile '{{.*}}.stale' does not match the marked loop in 'f': it has no entry for 1 of the loop's 1 candidate accesses and 1 that name none of them; was it made from other source? Accesses without an entry keep memcoro's own choice
// STATIC: remark: loop turned into 8 interleaved coroutines: 1 suspension point

long f(const long *t, const int *ix, int n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
