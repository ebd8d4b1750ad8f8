// -fno-memcoro: the pragma is accepted and leaves no trace in IR, which is exactly plain clang's IR for the same source.
// RUN: %memcoro-cc -fno-memcoro -Xclang -disable-llvm-passes -S -emit-llvm -o %t.off.ll %s
// RUN: %FileCheck %s --implicit-check-not=llvm.annotation --implicit-check-not='c"memcoro' < %t.off.ll
// RUN: %clang-plain -I %S/../../include -Xclang -disable-llvm-passes -S -emit-llvm -o %t.plain.ll %s
// RUN: diff %t.off.ll %t.plain.ll
// The last of -fmemcoro / -fno-memcoro wins.
// RUN: %memcoro-cc -fno-memcoro -fmemcoro -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck %s --check-prefix=ON
// RUN: %memcoro-cc -fmemcoro -fno-memcoro -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck %s --implicit-check-not=llvm.annotation

#include <memcoro/memcoro.h>

#define PRAGMA(x) _Pragma(#x)

long gather(long *a, const int *idx, int n) {
  long s = 0;
#pragma memcoro parallel(8) remote(a, idx)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  PRAGMA(memcoro parallel(4)) for (int i = 0; i < n; i++) s -= a[i];
  MEMCORO_LOOP(2)
  for (int i = 0; i < n; i++)
    s ^= a[i];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @gather(
// CHECK: ret i64

// ON-LABEL: define {{.*}}i64 @gather(
// ON-COUNT-2: call i64 @llvm.annotation.i64
// ON: call i32 @llvm.annotation.i32.p0(i32 8,
// ON: call i32 @llvm.annotation.i32.p0(i32 4,
// ON: call i32 @llvm.annotation.i32.p0(i32 2,
