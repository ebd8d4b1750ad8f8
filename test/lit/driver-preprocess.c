// -E keeps '#pragma memcoro' (macros in it expanded, as the #defines are gone from the output), so the preprocessed file (-save-temps, distcc) compiles to the same marked loops.
// RUN: %memcoro-cc -E %s -o %t.i
// RUN: %FileCheck %s --check-prefix=PP < %t.i
// PP: #pragma memcoro parallel(8) remote(a)
// PP: #pragma memcoro parallel(2 * 8) remote(a)
// PP: #pragma memcoro parallel(4)
// PP-NOT: __builtin_annotation
// PP-NOT: __memcoro
// RUN: %memcoro-cc -Xclang -disable-llvm-passes -S -emit-llvm -o - %t.i | %FileCheck %s
// RUN: %memcoro-cc -save-temps=obj -Xclang -disable-llvm-passes -S -emit-llvm -o %t.ll %s
// RUN: %FileCheck %s < %t.ll
// CHECK: call i64 @llvm.annotation.i64.p0(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 8,
// CHECK: call i64 @llvm.annotation.i64.p0(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 16,
// CHECK: call i32 @llvm.annotation.i32.p0(i32 4,

#define WIDTH 8
#define PRAGMA(x) _Pragma(#x)
#define LOOP(n) PRAGMA(memcoro parallel(n)) for (int i = 0; i < (n); i++)

long f(long *a, int n) {
  long s = 0;
#pragma memcoro parallel(8) remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma memcoro parallel(2 * WIDTH) remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
  LOOP(4) s += a[i];
  return s;
}
