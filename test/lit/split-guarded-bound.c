// An inner loop of a prefetching loop whose bound only a first-writer-wins
// claim may write (split/GuardedBound.cpp): bfs's edge loop re-reads
// offsets[u + 1] after `parent[v] = u` (both 64-bit integers). A check before
// the inner loop (the claim covers the bound's bytes exactly or not at all,
// and the bound's value fails the claim's test) picks a copy that reads the
// bound once, whose reads ahead are bounded by the last edge instead of the
// page; otherwise the loop as written runs, without prefetches.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -mllvm -memcoro-version-guarded-bound=0 | %FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -mllvm -memcoro-version-guarded-bound=0 2>&1 | %FileCheck %s --check-prefix=OFFREMARK
// Under run-time adaptation too (the window's counter sits in front of the loop).
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=ADAPT
#include <stddef.h>
#include <stdint.h>

// IR-LABEL: define {{.*}} @level(
// IR: [[U1:%.*]] = add i32 {{%.*}}, 1
// IR-NEXT: [[U1X:%.*]] = zext i32 [[U1]] to i64
// IR-NEXT: [[BOUNDP:%.*]] = getelementptr inbounds i64, ptr %0, i64 [[U1X]]
// IR-NEXT: [[BOUND:%.*]] = load i64, ptr [[BOUNDP]], align 8
// The check: the bound's distance from parent[] is a multiple of 8, and its
// value fails `parent[v] < 0`.
// IR: [[AT:%.*]] = ptrtoint ptr [[BOUNDP]] to i64
// IR-NEXT: [[APART:%.*]] = sub i64 [[AT]], [[PARENT:%.*]]
// IR-NEXT: [[LOW:%.*]] = and i64 [[APART]], 7
// IR-NEXT: [[WHOLE:%.*]] = icmp eq i64 [[LOW]], 0
// IR-NEXT: [[REFUSED:%.*]] = icmp sgt i64 [[BOUND]], -1
// IR-NEXT: [[FAST:%.*]] = and i1 [[WHOLE]], [[REFUSED]]
// IR-NEXT: br i1 [[FAST]], label %[[ONCE:.*]], label %[[WRITTEN:.*]]
// The loop as written: the bound re-read after the claim, no prefetch.
// IR: [[WRITTEN]]:
// IR-NOT: llvm.prefetch
// IR: store i64 {{.*}}, ptr [[CLAIM:%.*]], align 8
// IR-NOT: llvm.prefetch
// IR: load i64, ptr [[BOUNDP]], align 8
// IR-NOT: llvm.prefetch
// IR: [[ONCE]]:
// The copy that reads it once: adj[e + 64] read up to the last edge.
// IR: [[LAST:%.*]] = getelementptr i8, ptr {{%.*}}, i64 {{%.*}}
// IR: [[V:%.*]] = load i32, ptr [[VP:%.*]], align 4
// IR-NEXT: [[VA:%.*]] = getelementptr i8, ptr [[VP]], i64 256
// IR-NEXT: [[PAST:%.*]] = icmp ugt ptr [[VA]], [[LAST]]
// IR-NEXT: br i1 [[PAST]], label %{{.*}}, label %[[AHEAD:.*]]
// IR: [[AHEAD]]:
// IR-NEXT: [[W:%.*]] = load i32, ptr [[VA]], align 1
// IR-NEXT: [[WX:%.*]] = zext i32 [[W]] to i64
// IR-NEXT: [[PP:%.*]] = getelementptr i64, ptr %2, i64 [[WX]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[PP]], i32 0, i32 3, i32 1)
// No page test, no second read of the bound: the exit test compares with the
// value read before the loop.
// IR-NOT: 4096
// IR-NOT: load i64, ptr [[BOUNDP]]
// IR: icmp ult i64 {{%.*}}, [[BOUND]]
// IR-LABEL: {{^}}}

// REMARK: remark: inner loop reads its bound once (the load of 'offsets[...]' at {{.*}}split-guarded-bound.c:[[#@LINE+14]]:{{[0-9]+}}): the store at {{.*}}split-guarded-bound.c:[[#@LINE+17]]:{{[0-9]+}} could change it only where its test passes, and a check before the loop shows that the bound's value fails the test; otherwise the inner loop runs as written
// REMARK: remark: loop turned into a prefetching loop in serial order

// OFF: icmp ult i64 {{%.*}}, 4096
// OFFREMARK-NOT: reads its bound once

// ADAPT: call i64 @__memcoro_switch_begin(
// ADAPT: icmp sgt i64 {{%.*}}, -1
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
