// The _Pragma form inside macros (the loop head inside the macro, and the loop head after it) and the MEMCORO_LOOP(N) fallback of memcoro.h.
// RUN: %memcoro-cc -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck %s
// Without memcoro-cc, MEMCORO_LOOP expands to nothing and _Pragma is an unknown pragma.
// RUN: %clang-plain -fsyntax-only -Wall -Wno-unknown-pragmas -Werror -I %S/../../include %s
#include <memcoro/memcoro.h>

// CHECK-DAG: @[[REMOTE:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"memcoro.remote {{[^"]+}}\00"
// CHECK-DAG: @[[LOOP:[^ ]+]] = private unnamed_addr constant [13 x i8] c"memcoro.loop\00"

#define PRAGMA(x) _Pragma(#x)
#define FOR_EACH(i, n, width)                                                  \
  PRAGMA(memcoro parallel(width) remote(a)) for (int i = 0; i < (n); i++)
#define MARKED _Pragma("memcoro parallel(5)")

long whole_loop_in_macro(long *a, int n) {
  long s = 0;
  FOR_EACH(i, n, 16) s += a[i];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @whole_loop_in_macro(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 [[#@LINE-4]])
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 16, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-5]])
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

long pragma_only_in_macro(long *a, int n) {
  long s = 0;
  MARKED
  for (int i = 0; i < n; i++)
    s += a[i];
  _Pragma("memcoro parallel(3) remote(a)") for (int i = 0; i < n; i++) s -= a[i];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @pragma_only_in_macro(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 5, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-7]])
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 [[#@LINE-5]])
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 3, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-6]])
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

long fallback(long *a, int n) {
  long s = 0;
  MEMCORO_LOOP(7)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @fallback(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 7, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-6]])
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// Each remote() marker carries its name as written, for the remarks.
// RUN: %memcoro-cc -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck --check-prefix=NAMES %s
// NAMES-DAG: c"memcoro.remote a\00"
