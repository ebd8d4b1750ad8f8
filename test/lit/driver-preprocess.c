// -E keeps '#pragma memcoro' as written (the plugin only acts when parsing), so the preprocessed file compiles to the same marked loop.
// RUN: %memcoro-cc -E %s -o %t.i
// RUN: %FileCheck %s --check-prefix=PP < %t.i
// PP: #pragma memcoro parallel(8) remote(a)
// PP-NOT: __builtin_annotation
// RUN: %memcoro-cc -Xclang -disable-llvm-passes -S -emit-llvm -o - %t.i | %FileCheck %s
// CHECK: call i64 @llvm.annotation.i64.p0(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 8,

long f(long *a, int n) {
  long s = 0;
#pragma memcoro parallel(8) remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
