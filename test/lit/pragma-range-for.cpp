// The pragma on C++ loops: a range-for, and a member function naming a data member in remote().
// RUN: %memcoro-cxx -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck %s
// RUN: %clang-plain -x c++ -fsyntax-only -Wall -Wno-unknown-pragmas -Werror %s

// CHECK-DAG: @[[REMOTE:[^ ]+]] = private unnamed_addr constant [15 x i8] c"memcoro.remote\00"
// CHECK-DAG: @[[LOOP:[^ ]+]] = private unnamed_addr constant [13 x i8] c"memcoro.loop\00"

long over_keys(const int (&keys)[32], const long *values) {
  long s = 0;
#pragma memcoro parallel(12) remote(values)
  for (int k : keys)
    s += values[k];
  return s;
}
// CHECK-LABEL: define {{.*}}@_Z9over_keysRA32_KiPKl(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @[[REMOTE]], ptr @{{[^,]+}}, i32 10)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 12, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 10)
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

struct Table {
  long *data_;
  static constexpr int kWidth = 32;
  long sum(const int *idx, int n) const {
    long s = 0;
#pragma memcoro remote(data_, idx) parallel(kWidth)
    for (int i = 0; i < n; ++i)
      s += data_[idx[i]];
    return s;
  }
};
long use_table(Table &t, const int *idx) { return t.sum(idx, 4); }
// CHECK-LABEL: define {{.*}}@_ZNK5Table3sumEPKii(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @[[REMOTE]], ptr @{{[^,]+}}, i32 26)
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @[[REMOTE]], ptr @{{[^,]+}}, i32 26)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 32, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 26)
// CHECK-NOT: llvm.annotation
// CHECK: ret i64
