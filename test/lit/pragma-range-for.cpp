// The pragma on C++ loops: a range-for, and a member function naming a data member in remote().
// RUN: %memcoro-cxx -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %opt -passes=verify -S | %FileCheck %s
// RUN: %clang-plain -x c++ -fsyntax-only -Wall -Wno-unknown-pragmas -Werror %s

// CHECK-DAG: @[[REMOTE:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"memcoro.remote {{[^"]+}}\00"
// CHECK-DAG: @[[LOOP:[^ ]+]] = private unnamed_addr constant [13 x i8] c"memcoro.loop\00"

long over_keys(const int (&keys)[32], const long *values) {
  long s = 0;
#pragma memcoro parallel(12) remote(values)
  for (int k : keys)
    s += values[k];
  return s;
}
// CHECK-LABEL: define {{.*}}@_Z9over_keysRA32_KiPKl(
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 10)
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
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 26)
// CHECK: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 26)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 32, ptr @[[LOOP]], ptr @{{[^,]+}}, i32 26)
// CHECK-NOT: llvm.annotation
// CHECK: ret i64

// remote() takes member paths too: `t.entries`, `n->next`, `this->rows_`.
struct HashTable {
  long *entries;
  int *buckets;
};
struct ListNode {
  ListNode *next;
};
long probe(const HashTable &t, ListNode *head, const int *keys, int n) {
  long s = 0;
#pragma memcoro parallel(16) remote(t.entries, t.buckets, head->next)
  for (int i = 0; i < n; i++)
    s += t.entries[t.buckets[keys[i]]];
  return s;
}
// CHECK-LABEL: define {{.*}}@_Z5probeRK9HashTableP8ListNodePKii(
// CHECK-COUNT-3: call i64 @llvm.annotation.i64.p0(i64 %{{.*}}, ptr @{{[^,]+}}, ptr @{{[^,]+}}, i32 50)
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 16, ptr @[[LOOP]]

// A constexpr call for N reaches IR as a constant, also in a lambda inside a
// member function defined in its class (its body is parsed after the class).
constexpr int twice(int k) { return 2 * k; }
struct Walker {
  long *base_;
  long walk(int n) {
    long s = 0;
    auto step = [&](int m) {
#pragma memcoro parallel(twice(5)) remote(base_)
      for (int i = 0; i < m; i++)
        s += base_[i];
    };
    step(n);
    return s;
  }
};
long use_walker(Walker &w) { return w.walk(3); }
// CHECK-LABEL: define {{.*}}@_ZZN6Walker4walkEiENKUliE_clEi(
// CHECK: call i64 @llvm.annotation.i64.p0(
// CHECK-NEXT: call i32 @llvm.annotation.i32.p0(i32 10, ptr @[[LOOP]]


// Each remote() marker carries its name as written, for the remarks.
// RUN: %memcoro-cxx -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck --check-prefix=NAMES %s
// NAMES-DAG: c"memcoro.remote values\00"
// NAMES-DAG: c"memcoro.remote data_\00"
// NAMES-DAG: c"memcoro.remote idx\00"
// NAMES-DAG: c"memcoro.remote t.entries\00"
// NAMES-DAG: c"memcoro.remote t.buckets\00"
// NAMES-DAG: c"memcoro.remote head->next\00"
// NAMES-DAG: c"memcoro.remote base_\00"
