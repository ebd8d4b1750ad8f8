// The run-time switch of a flat loop (split/PrefetchSwitchRanges.cpp): its
// windows are ranges of iterations. Each copy's exit test compares its
// induction variable with the window's end, so neither copy counts work per
// iteration (the loop as written stays an ordinary counted loop, unrolled
// as without the pragma), and the controller runs the faster copy
// (MEMCORO_SWITCH_FLAT, 32). A loop with an inner loop counts work down
// (split-prefetch-ahead.c).
// RUN: %memcoro-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o - | %FileCheck %s
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=OFF
#include <stdint.h>

// CHECK-LABEL: define {{.*}} @gather(
// CHECK: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 32)
// CHECK: memcoro.prefetch.pick:
// CHECK: %memcoro.window.lo = phi i64 [ %memcoro.window.hi, %memcoro.prefetch.report ]
// CHECK: %memcoro.window.hi = {{.*}}call i64 @llvm.umin.i64(i64 {{%.*}}, i64 %wide.trip.count)
// CHECK: memcoro.prefetch.switch:
// CHECK: %memcoro.window.ran = sub {{.*}}i64 %memcoro.window.hi, %memcoro.window.lo
// CHECK: call i64 @__memcoro_switch_next(ptr {{.*}}, i64 %memcoro.window.ran,
// Each copy runs a window in a function of its own (split/OutlineSerialCopy.cpp).
// CHECK: call void @gather.memcoro.prefetching({{.*}}i64 %memcoro.window.hi,
// CHECK: call void @gather.memcoro.plain({{.*}}i64 %memcoro.window.hi,
// CHECK-NOT: memcoro.window.rest
// The loop as written, unrolled by 4 as without the pragma, leaves at the window's end.
// CHECK-LABEL: define internal void @gather.memcoro.plain(
// CHECK: %add.plain.3 = add
// CHECK: [[PLAST:%.*]] = icmp eq i64 %indvars.iv.next.plain.3, %memcoro.window.end
// CHECK-NEXT: br i1 [[PLAST]], label %if.else.plain.window.end, label %if.else.plain
// What the window leaves with is stored once, after the loop.
// CHECK: if.else.plain.window.end:
// CHECK-NEXT: phi
// CHECK: store
// CHECK-LABEL: define internal void @gather.memcoro.prefetching(
// CHECK: call void @llvm.prefetch
// CHECK: [[LAST:%.*]] = icmp eq i64 %indvars.iv.next{{.*}}, %memcoro.window.end
// CHECK-NEXT: br i1 [[LAST]], label %if.else.window.end, label %if.else
// A pointer range: the window's end is a pointer.
// CHECK-LABEL: define {{.*}} @histogram(
// CHECK: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 32)
// CHECK: %memcoro.window.hi = {{.*}}call i64 @llvm.umin.i64
// CHECK: %memcoro.window.end = getelementptr i8, ptr %key,
// CHECK-NOT: memcoro.window.rest
// CHECK-LABEL: define internal void @histogram.memcoro.plain(
// CHECK: icmp eq ptr %incdec.ptr.plain, %memcoro.window.end

// REMARK: remark: loop turned into a prefetching loop in serial order
// REMARK: remark: loop adapts at run time: the prefetching loop and the loop as written are both kept

// OFF-LABEL: define {{.*}} @gather(
// OFF-NOT: __memcoro_switch
// OFF: call void @llvm.prefetch
// OFF-NOT: __memcoro_switch
// OFF: ret i64

int64_t gather(const int64_t *t, const int32_t *ix, int n) {
  int64_t s = 0;
#pragma memcoro
  for (int i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}

void histogram(uint32_t *h, const uint32_t *key, const uint32_t *end) {
#pragma memcoro
  for (const uint32_t *k = key; k != end; ++k)
    h[*k]++;
}
