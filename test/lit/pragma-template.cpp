// parallel(T) with T a template parameter and remote() of a dependent type: checked and marked per instantiation.
// RUN: %memcoro-cxx -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck %s
// RUN: %clang-plain -x c++ -fsyntax-only -Wall -Wno-unknown-pragmas -Werror %s

// CHECK-DAG: @[[REMOTE:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"memcoro.remote {{[^"]+}}\00"
// CHECK-DAG: @[[LOOP:[^ ]+]] = private unnamed_addr constant [13 x i8] c"memcoro.loop\00"

template <int T, typename Ptr> long gather(Ptr a, const int *idx, int n) {
  long s = 0;
#pragma memcoro parallel(T) remote(a, idx)
  for (int i = 0; i < n; i++)
    s += a[idx[i]];
  return s;
}

// Never instantiated with a bad value, so never diagnosed.
template <int T> long unused(long *a) {
#pragma memcoro parallel(T - 5000)
  for (int i = 0; i < 4; i++)
    a[i] = 0;
  return 0;
}

template <typename T> constexpr int width() { return 2 * sizeof(T); }

template <typename T> long by_type(T *a, int n) {
  long s = 0;
#pragma memcoro parallel(width<T>()) remote(a)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

long use(long *a, const int *idx) {
  return gather<4>(a, idx, 8) + gather<1024, long *>(a, idx, 8) +
         by_type(reinterpret_cast<short *>(a), 8);
}

// CHECK-LABEL: define {{.*}}@_Z6gatherILi4EPlElT0_PKii(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 10)
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 10)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 4, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 10)
// CHECK-LABEL: define {{.*}}@_Z6gatherILi1024EPlElT0_PKii(
// CHECK: call i32 @llvm.annotation.i32.p0(i32 1024, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 10)
// CHECK-LABEL: define {{.*}}@_Z7by_typeIsElPT_i(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 28)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 4, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 28)

// Each remote() marker carries its name as written, for the remarks.
// RUN: %memcoro-cxx -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck --check-prefix=NAMES %s
// NAMES-DAG: c"memcoro.remote a\00"
// NAMES-DAG: c"memcoro.remote idx\00"
