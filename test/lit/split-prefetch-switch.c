// The run-time switch around the prefetch-ahead code generator
// (split/PrefetchSwitch.cpp): under run-time adaptation (memcoro-cc's
// default) the loop as written is kept beside the prefetching loop, and
// windows of work run the one runtime/adapt/switch.c measures faster.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=off | %FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=plain | %FileCheck %s --check-prefix=PLAIN
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=prefetch | %FileCheck %s --check-prefix=AHEAD
#include <stddef.h>
#include <stdint.h>

// IR: @memcoro.prefetch.switch.level = internal thread_local global [16 x i64] zeroinitializer
// IR-LABEL: define {{.*}} @level(
// Decided with budget left: no call, no cycle counter; the window is the budget.
// IR: [[STATE:%.*]] = {{.*}}call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@memcoro.prefetch.switch.level)
// IR-NEXT: [[BUDGET:%.*]] = load i64, ptr [[STATE]]
// IR-NEXT: [[RUNP:%.*]] = getelementptr i8, ptr [[STATE]], i64 8
// IR-NEXT: [[DEC:%.*]] = load i64, ptr [[RUNP]]
// IR-NEXT: [[DECIDED:%.*]] = icmp ne i64 [[DEC]], 0
// IR-NEXT: [[LEFT:%.*]] = icmp ne i64 [[BUDGET]], 0
// IR-NEXT: [[FAST:%.*]] = and i1 [[DECIDED]], [[LEFT]]
// IR-NEXT: br i1 [[FAST]]
// The exit of an unmeasured window takes its work off the budget in place;
// a measured one reports its cycles.
// IR: call i64 @llvm.readcyclecounter()
// IR: call i64 @__memcoro_switch_next(ptr {{.*}}[[STATE]]
// IR: call i64 @llvm.usub.sat.i64(i64 [[BUDGET]]
// IR-NEXT: store i64 {{.*}}, ptr [[STATE]]
// IR: call i64 @__memcoro_switch_begin(ptr {{.*}}[[STATE]], i32 0)
// IR: call i64 @llvm.readcyclecounter()
// The window counts down the work: one per iteration and the inner loop's trips.
// IR: [[REST:%.*]] = add i64 {{.*}}
// IR-NEXT: [[END:%.*]] = icmp slt i64 [[REST]], 1
// IR-NEXT: br i1 [[END]], label %{{.*}}, label %{{.*}}, !llvm.loop
// Both copies: prefetches in one, none in the other.
// IR-COUNT-3: call void @llvm.prefetch.p0(
// IR-NOT: call void @llvm.prefetch.p0(
// IR: declare i64 @__memcoro_switch_begin(ptr, i32)

// REMARK: remark: loop turned into a prefetching loop in serial order
// REMARK: remark: loop adapts at run time: the prefetching loop and the loop as written are both kept, and each window of work runs the one measured faster (on data near the core the prefetches only cost instructions)

// OFF-NOT: __memcoro_switch
// OFF: call void @llvm.prefetch.p0(
// OFF-NOT: __memcoro_switch

// PLAIN: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 4)
// AHEAD: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 8)
size_t level(const uint64_t *offsets, const uint32_t *adj, int64_t *parent, const uint32_t *frontier,
             size_t nfrontier, uint32_t *next) {
  size_t nnext = 0;
#pragma memcoro parallel(16) remote(offsets, adj, parent)
  for (size_t i = 0; i < nfrontier; ++i) {
    const uint32_t u = frontier[i];
    for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      const uint32_t v = adj[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
  return nnext;
}
