// Tests that a marked loop that only its order keeps from being interleaved
// (an early exit after a store, a value carried from one iteration to the
// next, a proven dependence) is kept in serial order with its gathers
// prefetched ahead: a missed remark says why it is not interleaved, at the
// place that forbids it, and a remark what was prefetched. A row read whole
// is prefetched whole. Without an indirect access, or with
// -memcoro-prefetch-serial-loops=0, such a loop stays serial as before; a
// loop whose shape memcoro cannot handle is never touched.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass-missed=memcoro -mllvm -memcoro-prefetch-serial-loops=0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// Caffe2's generic SparseLengthsSum: `return false` after the bag's row was
// cleared, a running index `current` over the flattened indices.
bool lengths_sum(const float *input, int64_t data_size, const int64_t *indices, int64_t index_size,
                 const int *lengths, int output_size, float *out) {
  int64_t current = 0;
#pragma memcoro parallel(8)
  for (int m = 0; m < output_size; ++m) {
    memset(out, 0, sizeof(float) * 64);
    if (current + lengths[m] > index_size)
      return false;
    for (int i = 0; i < lengths[m]; ++i) {
      int64_t idx = indices[current];
      if (idx < 0 || idx >= data_size)
        return false;
      for (int64_t j = 0; j < 64; ++j)
        out[j] += input[64 * indices[current] + j];
      ++current;
    }
    out += 64;
  }
  return current == index_size;
}
// CHECK: split-serial-order.c:[[#@LINE-15]]:5: remark: marked loop not interleaved, kept in serial order with prefetches ahead: the loop has an early exit (break, return or goto out of the loop at {{.*}}split-serial-order.c:[[#@LINE-14]]:9, {{.*}}split-serial-order.c:[[#@LINE-10]]:19) and writes memory
// CHECK-NOT: left serial
// CHECK: split-serial-order.c:[[#@LINE-18]]:3: remark: loop turned into a prefetching loop in serial order: prefetching the load at {{.*}}:[[#@LINE-9]]:19 (its row of 4 lines) 16 iterations ahead in the inner loop; the loop cannot be interleaved (the missed remark says why)
// OFF: remark: marked loop left serial: the loop has an early exit
// The index 16 ahead is read only within the page of the one just read (the
// loop's bound is not its trip count), and the row's four lines prefetched.
// IR-LABEL: define {{.*}}@lengths_sum(
// IR: %memcoro.ahead.inpage = icmp ult i64 %{{.*}}, 4096
// IR-NEXT: br i1 %memcoro.ahead.inpage
// IR: %memcoro.ahead.ptr = getelementptr i8, ptr %{{.*}}, i64 128
// IR-NEXT: %{{.*}}.ahead = load i64, ptr %memcoro.ahead.ptr
// IR: call void @llvm.prefetch.p0(ptr [[ROW:%[^ ,]+]], i32 0, i32 3, i32 1)
// IR-NEXT: [[L1:%[^ ]+]] = getelementptr i8, ptr [[ROW]], i64 64
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[L1]], i32 0, i32 3, i32 1)
// IR-NEXT: [[L2:%[^ ]+]] = getelementptr i8, ptr [[ROW]], i64 128
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[L2]], i32 0, i32 3, i32 1)
// IR-NEXT: [[L3:%[^ ]+]] = getelementptr i8, ptr [[ROW]], i64 192
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[L3]], i32 0, i32 3, i32 1)
// IR-NOT: memcoro.slots

// A hash in iteration order carries `h`; its trip count is known, so the
// index ahead is read up to the last one.
uint64_t ordered_hash(const uint64_t *t, const uint32_t *idx, int n) {
  uint64_t h = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    h = h * 31 + t[idx[i]];
  return h;
}
// CHECK-NOT: left serial
// CHECK: split-serial-order.c:[[#@LINE-4]]:16: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a value is carried from one iteration to the next
// CHECK: split-serial-order.c:[[#@LINE-6]]:3: remark: loop turned into a prefetching loop in serial order: prefetching the load at {{.*}}:[[#@LINE-5]]:18 64 iterations ahead; the loop cannot be interleaved
// OFF: remark: marked loop left serial: a value is carried
// IR-LABEL: define {{.*}}@ordered_hash(
// IR: %memcoro.ahead.inrange{{.*}} = icmp {{ule|ugt}} ptr
// IR: call void @llvm.prefetch.p0(

// A dependence the compiler proves: a[i + 2] is read two iterations on.
void proven(int64_t *a, const int64_t *t, const uint32_t *idx, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    a[i + 2] = a[i] + t[idx[i]];
}
// CHECK-NOT: left serial
// CHECK: split-serial-order.c:[[#@LINE-3]]:14: remark: marked loop not interleaved, kept in serial order with prefetches ahead: its iterations depend on each other through memory
// CHECK: remark: loop turned into a prefetching loop in serial order
// OFF: remark: marked loop left serial: its iterations depend on each other through memory

// Nothing gathered: the early exit keeps the loop serial, untouched.
int first_negative_cleared(int64_t *a, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++) {
    if (a[i] < 0)
      return i;
    a[i] = 0;
  }
  return -1;
}
// CHECK: remark: marked loop left serial: the loop has an early exit
// OFF: remark: marked loop left serial: the loop has an early exit
// IR-LABEL: define {{.*}}@first_negative_cleared(
// IR-NOT: llvm.prefetch
// IR: ret i32

// A volatile access: never touched.
void with_volatile(volatile int *flag, int64_t *a, const int64_t *t, const uint32_t *idx, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    a[i] = t[idx[i]] + *flag;
}
// CHECK: remark: marked loop left serial: the loop has a volatile access
// IR-LABEL: define {{.*}}@with_volatile(
// IR-NOT: llvm.prefetch
// IR: ret void
