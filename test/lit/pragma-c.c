// The pragma on C loops: one memcoro.remote annotation per remote() name in clause order, then memcoro.loop with N (0 when absent), each at its own source location.
// RUN: %memcoro-cc -g -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck %s
// RUN: %memcoro-cc -g -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck --check-prefix=LOC %s
// Plain clang compiles the same source with nothing but the unknown-pragma warning.
// RUN: %clang-plain -fsyntax-only -Wall -Wno-unknown-pragmas -Werror %s
// RUN: %clang-plain -fsyntax-only -Wall %s 2>&1 | %FileCheck %s --check-prefix=PLAIN --implicit-check-not=error: --implicit-check-not=warning:
// PLAIN-COUNT-5: warning: unknown pragma ignored [-Wunknown-pragmas]

#define WIDTH 8
enum { SMALL = 2 };
static long table[64];

// CHECK-DAG: @[[REMOTE:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"memcoro.remote {{[^"]+}}\00"
// CHECK-DAG: @[[LOOP:[^ ]+]] = private unnamed_addr constant [13 x i8] c"memcoro.loop\00"

long gather(long *a, const int *idx, int n) {
  long s = 0;
#pragma memcoro parallel(WIDTH) remote(a, idx)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @gather(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 [[#@LINE-6]])
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 [[#@LINE-7]])
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 8, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-8]])
// The marker sits between the loop head and the body: the condition block.
// CHECK: br i1 false,
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// LOC-LABEL: define {{.*}}i64 @gather(
// LOC: call i64 @llvm.annotation.i64.p0({{.*}}), !dbg ![[A:[0-9]+]]
// LOC: call i64 @llvm.annotation.i64.p0({{.*}}), !dbg ![[IDX:[0-9]+]]
// LOC-NEXT: call i32 @llvm.annotation.i32.p0({{.*}}), !dbg ![[PRAGMA:[0-9]+]]
// LOC-DAG: ![[A]] = !DILocation(line: 18, column: 40,
// LOC-DAG: ![[IDX]] = !DILocation(line: 18, column: 43,
// LOC-DAG: ![[PRAGMA]] = !DILocation(line: 18, column: 1,

long unmarked_width(long *a, int n) {
  long s = 0;
#pragma memcoro
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @unmarked_width(
// CHECK-NOT: @llvm.annotation.i64
// CHECK: call i32 @llvm.annotation.i32.p0(i32 0, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 [[#@LINE-7]])
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// Clauses in either order, an OpenMP-style comma between them, an enum
// constant for N, an array (global) and a pointer parameter in remote().
long arrays(long *p, int n) {
  long s = 0;
#pragma memcoro remote(table, p), parallel(SMALL * 3)
  for (int i = 0; i < n; i++) {
    if (p[i] < 0)
      continue;
    s += table[p[i] & 63];
  }
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @arrays(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 ptrtoint (ptr @table to i64), ptr @{{[^,]+}}
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 6, ptr @[[LOOP]]
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// Two marked loops, nested: each gets its own marker.
long nested(long **rows, int n, int m) {
  long s = 0;
#pragma memcoro parallel(4) remote(rows)
  for (int i = 0; i < n; i++)
#pragma memcoro parallel(16)
    for (int j = 0; j < m; j++)
      s += rows[i][j];
  return s;
}
// CHECK-LABEL: define {{.*}}i64 @nested(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 4, ptr @[[LOOP]]
// CHECK: call i32 @llvm.annotation.i32.p0(i32 16, ptr @[[LOOP]]
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// Each remote() marker carries its name as written, for the remarks.
// RUN: %memcoro-cc -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck --check-prefix=NAMES %s
// NAMES-DAG: c"memcoro.remote a\00"
// NAMES-DAG: c"memcoro.remote idx\00"
// NAMES-DAG: c"memcoro.remote table\00"
// NAMES-DAG: c"memcoro.remote p\00"
// NAMES-DAG: c"memcoro.remote rows\00"
