// The prefetch-ahead code generator (split/PrefetchAhead.cpp): an ordered
// loop (first writer wins, append) and, under -memcoro-prefetch-overlapped, a
// neighbour sum the cost model leaves to the core keep their serial order,
// with prefetches of their misses ahead.
// The page test of an edge loop whose bound is re-read: with the versioning of
// split/GuardedBound.cpp off (split-guarded-bound.c checks it on).
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-overlapped -mllvm -memcoro-version-guarded-bound=0 | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -mllvm -memcoro-prefetch-overlapped 2>%t.remarks
// RUN: %FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -mllvm -memcoro-prefetch-overlapped -mllvm -memcoro-prefetch-distance=8 2>&1 | %FileCheck %s --check-prefix=DIST
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -Rpass-missed=memcoro 2>&1 | %FileCheck %s --check-prefix=DEFAULT
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -Rpass-missed=memcoro -mllvm -memcoro-prefetch-ahead=0 2>&1 | %FileCheck %s --check-prefix=NOAHEAD
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -fno-memcoro-cost-model 2>&1 | %FileCheck %s --check-prefix=INSIST
// The run-time switch (split/PrefetchSwitch.cpp): under run-time adaptation
// (memcoro-cc's default) the loop as written is kept beside the prefetching
// loop, and windows of work run the one runtime/adapt/switch.c measures faster.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=SWITCH
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=SWREMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=SWOFF
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=off | %FileCheck %s --check-prefix=SWOFF
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=plain | %FileCheck %s --check-prefix=SWPLAIN
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-prefetch-switch=prefetch | %FileCheck %s --check-prefix=SWAHEAD
#include <stddef.h>
#include <stdint.h>

// SWITCH: @memcoro.prefetch.switch.level = internal thread_local global [16 x i64] zeroinitializer
// SWITCH-LABEL: define {{.*}} @level(
// Decided with budget left: no call, no cycle counter; the window is the budget.
// SWITCH: [[STATE:%.*]] = {{.*}}call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@memcoro.prefetch.switch.level)
// SWITCH-NEXT: [[BUDGET:%.*]] = load i64, ptr [[STATE]]
// SWITCH-NEXT: [[RUNP:%.*]] = getelementptr i8, ptr [[STATE]], i64 8
// SWITCH-NEXT: [[DEC:%.*]] = load i64, ptr [[RUNP]]
// SWITCH-NEXT: [[DECIDED:%.*]] = icmp ne i64 [[DEC]], 0
// SWITCH-NEXT: [[LEFT:%.*]] = icmp ne i64 [[BUDGET]], 0
// SWITCH-NEXT: [[FAST:%.*]] = and i1 [[DECIDED]], [[LEFT]]
// SWITCH-NEXT: br i1 [[FAST]]
// The exit of an unmeasured window takes its work off the budget in place;
// a measured one reports its cycles.
// SWITCH: call i64 @llvm.readcyclecounter()
// SWITCH: call i64 @__memcoro_switch_next(ptr {{.*}}[[STATE]]
// SWITCH: call i64 @llvm.usub.sat.i64(i64 [[BUDGET]]
// SWITCH-NEXT: store i64 {{.*}}, ptr [[STATE]]
// SWITCH: call i64 @__memcoro_switch_begin(ptr {{.*}}[[STATE]], i32 0)
// SWITCH: call i64 @llvm.readcyclecounter()
// The window counts down the work: one per iteration and the inner loop's trips.
// SWITCH: [[REST:%.*]] = add i64 {{.*}}
// SWITCH-NEXT: [[END:%.*]] = icmp slt i64 [[REST]], 1
// SWITCH-NEXT: br i1 [[END]], label %{{.*}}, label %{{.*}}, !llvm.loop
// Both copies: prefetches in one, none in the other.
// SWITCH-COUNT-3: call void @llvm.prefetch.p0(
// SWITCH-NOT: call void @llvm.prefetch.p0(
// SWITCH: declare i64 @__memcoro_switch_begin(ptr, i32)

// SWREMARK: remark: loop turned into a prefetching loop in serial order
// SWREMARK: remark: loop adapts at run time: the prefetching loop and the loop as written are both kept, and each window of work runs the one measured faster (on data near the core the prefetches only cost instructions)

// SWOFF-NOT: __memcoro_switch
// SWOFF: call void @llvm.prefetch.p0(
// SWOFF-NOT: __memcoro_switch

// SWPLAIN: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 4)
// SWAHEAD: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 8)

// IR-LABEL: define {{.*}} @level(
// The frontier is read 32 ahead only up to its last element (the trip count
// is known before the loop), and offsets[] of that vertex prefetched.
// IR: [[LAST:%.*]] = getelementptr i8, ptr {{.*}}, i64 -4
// IR: [[U:%.*]] = load i32, ptr [[UP:%.*]], align 4
// IR-NEXT: [[RAW:%.*]] = getelementptr i8, ptr [[UP]], i64 128
// IR-NEXT: [[PAST:%.*]] = icmp ugt ptr [[RAW]], [[LAST]]
// IR-NEXT: br i1 [[PAST]], label %[[NEXT:.*]], label %[[AHEAD1:.*]]
// IR: [[AHEAD1]]:
// IR-NEXT: [[UA:%.*]] = load i32, ptr [[RAW]], align 1
// IR-NEXT: [[UAX:%.*]] = zext i32 [[UA]] to i64
// IR-NEXT: [[OFF:%.*]] = getelementptr i64, ptr %0, i64 [[UAX]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[OFF]], i32 0, i32 3, i32 1)
// The pragma asserts that no other iteration writes frontier[i + 16]: its
// value is the loop's own, and offsets[] of it may be loaded ahead, for the
// first line of the vertex's edges (pfd's adj[offsets[frontier[i + d/2]]]).
// IR: [[NEXT]]:
// IR-NEXT: [[RAW16:%.*]] = getelementptr i8, ptr [[UP]], i64 64
// IR-NEXT: [[PAST16:%.*]] = icmp ugt ptr [[RAW16]], [[LAST]]
// IR-NEXT: br i1 [[PAST16]], label %{{.*}}, label %[[AHEAD2:.*]]
// IR: [[AHEAD2]]:
// IR-NEXT: [[U16:%.*]] = load i32, ptr [[RAW16]], align 1
// IR-NEXT: [[U16X:%.*]] = zext i32 [[U16]] to i64
// IR-NEXT: [[BEGINP:%.*]] = getelementptr i64, ptr %0, i64 [[U16X]]
// IR-NEXT: [[BEGIN:%.*]] = load i64, ptr [[BEGINP]], align 8
// IR-NEXT: [[ADJ:%.*]] = getelementptr i32, ptr %1, i64 [[BEGIN]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[ADJ]], i32 0, i32 3, i32 1)
// The edge loop's bound is re-read after the store: adj[] is read 64 ahead
// only while e + 64 is below the bound (a branch, as pfd's `if (e + d <
// end)`, the only cost on a short list) and the element lies in the page of
// adj[e]; parent[] of it is prefetched.
// IR: [[V:%.*]] = load i32, ptr [[VP:%.*]], align 4
// IR-NEXT: [[VA:%.*]] = getelementptr i8, ptr [[VP]], i64 256
// IR-NEXT: [[E64:%.*]] = add i64 [[E:%.*]], 64
// IR-NEXT: [[RANGE:%.*]] = icmp ult i64 [[E64]], [[BOUND:%.*]]
// IR-NEXT: br i1 [[RANGE]], label %[[INRANGE:.*]], label %[[BODY:.*]]
// IR: [[INRANGE]]:
// IR-NEXT: [[A:%.*]] = ptrtoint ptr [[VP]] to i64
// IR-NEXT: [[AL:%.*]] = add i64 [[A]], 259
// IR-NEXT: [[X:%.*]] = xor i64 [[AL]], [[A]]
// IR-NEXT: [[PAGE:%.*]] = icmp ult i64 [[X]], 4096
// IR-NEXT: br i1 [[PAGE]], label %[[AHEAD:.*]], label %[[BODY]]
// IR: [[AHEAD]]:
// IR-NEXT: [[W:%.*]] = load i32, ptr [[VA]], align 1
// IR-NEXT: [[WX:%.*]] = zext i32 [[W]] to i64
// IR-NEXT: [[PP:%.*]] = getelementptr i64, ptr %2, i64 [[WX]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[PP]], i32 0, i32 3, i32 1)
// IR-NEXT: br label %[[BODY]]
// No coroutine: no slot array, no dispatch.
// IR-NOT: memcoro.slots
// IR-LABEL: {{^}}}
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

// IR-LABEL: define {{.*}} @pull(
// The inner trip count is known at its start: col[] is read 64 ahead up to
// the neighbour list's last element.
// IR: [[C:%.*]] = load i32, ptr [[CP:%.*]], align 4
// IR-NEXT: [[CRAW:%.*]] = getelementptr i8, ptr [[CP]], i64 256
// IR-NEXT: [[CPAST:%.*]] = icmp ugt ptr [[CRAW]], [[CLAST:%.*]]
// IR-NEXT: br i1 [[CPAST]], label %{{.*}}, label %[[CAHEAD:.*]]
// IR: [[CAHEAD]]:
// IR-NEXT: [[CV:%.*]] = load i32, ptr [[CRAW]], align 1
// IR-NEXT: [[CVX:%.*]] = zext i32 [[CV]] to i64
// IR-NEXT: [[CONTRIB:%.*]] = getelementptr i64, ptr %2, i64 [[CVX]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[CONTRIB]], i32 0, i32 3, i32 1)
void pull(const uint64_t *rowptr, const uint32_t *col, const uint64_t *contrib, uint64_t *out, size_t n) {
#pragma memcoro parallel(16) remote(contrib)
  for (size_t u = 0; u < n; u++) {
    uint64_t sum = 0;
    for (uint64_t k = rowptr[u]; k < rowptr[u + 1]; k++)
      sum += contrib[col[k]];
    out[u] = sum;
  }
}

// REMARK: split-prefetch-ahead.c:[[#@LINE-35]]:3: remark: loop turned into a prefetching loop in serial order: prefetching 'offsets[...]' 32 iterations ahead, 'adj[...]' 16 iterations ahead (through 2 loads ahead), 'parent[...]' 64 iterations ahead in the inner loop; its first-writer-wins test must run in iteration order, and interleaved iterations would wait behind long ones for their turn
// REMARK: split-prefetch-ahead.c:[[#@LINE-9]]:3: remark: loop turned into a prefetching loop in serial order: prefetching 'contrib[...]' 64 iterations ahead in the inner loop; the processor already overlaps the inner loop's independent loads, and prefetches ahead add what lies beyond its reorder window
// DIST: prefetching 'offsets[...]' 8 iterations ahead, 'adj[...]' 4 iterations ahead (through 2 loads ahead), 'parent[...]' 8 iterations ahead in the inner loop
// DIST: prefetching 'contrib[...]' 8 iterations ahead in the inner loop
// DEFAULT: remark: loop turned into a prefetching loop in serial order
// DEFAULT: remark: marked loop left serial: no access in the loop is worth a suspension
// NOAHEAD: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch
// NOAHEAD: remark: marked loop left serial: no access in the loop is worth a suspension
// INSIST-NOT: prefetching loop
// INSIST: loop turned into 16 interleaved coroutines
// INSIST: loop turned into 16 interleaved coroutines
// INSIST-NOT: prefetching loop
