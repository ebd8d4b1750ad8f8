// Tests scavenger mode (-memcoro-scavenge, split/ScavengeScheduler.cpp): a
// parallel(1) loop calls memcoro_scavenge after the prefetch at each of its
// suspension points, a ring of several slots only once the other slots have
// retired, a lockstep group of several slots never; the plan and the remark
// say so; without the option nothing scavenges.
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt -passes='default<O2>' -memcoro-scavenge=250 -S %t.ll | FileCheck %s
// RUN: %opt -passes='default<O2>' -memcoro-scavenge=250 -disable-output -pass-remarks=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %opt -passes='memcoro-mark,function(sroa,early-cse,simplifycfg,instcombine,loop-mssa(loop-rotate),loop-simplify,lcssa,print<memcoro-plan>)' -memcoro-scavenge=250 -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %opt -passes='default<O2>' -S %t.ll | FileCheck %s --check-prefix=OFF
#include <stdint.h>

struct node { struct node *next; uint64_t key; };

// The call follows the prefetch in its block (the walk's running total is
// folded into the accumulator in between).
// CHECK-LABEL: define {{.*}} @walk1(
// CHECK: call void @llvm.prefetch
// CHECK-NOT: br
// CHECK: call void @memcoro_scavenge(i64 250)
// p->key lies in p->next's 16-byte granule: one prefetch per node.
// CHECK: call void @llvm.prefetch
// CHECK-NOT: br
// CHECK: call void @memcoro_scavenge(i64 250)
uint64_t walk1(struct node **heads, const uint32_t *req, long n) {
  uint64_t total = 0;
#pragma memcoro parallel(1)
  for (long i = 0; i < n; ++i)
    for (struct node *p = heads[req[i]]; p; p = p->next)
      total += p->key;
  return total;
}

// The ring scavenges only when the slot runs alone: the suspensions share
// the block that calls, laid out before them.
// CHECK-LABEL: define {{.*}} @walk4(
// CHECK: {{^}}[[CALL:memcoro[a-z.0-9]*]]:
// CHECK-NOT: {{^[a-z.0-9_]+:}}
// CHECK: call void @memcoro_scavenge(i64 250)
// CHECK: [[ALONE:%.*]] = icmp eq i64 %memcoro.live{{.*}}, 1
// CHECK-NEXT: br i1 [[ALONE]], label %[[CALL]], label
uint64_t walk4(struct node **heads, const uint32_t *req, long n) {
  uint64_t total = 0;
#pragma memcoro parallel(4)
  for (long i = 0; i < n; ++i)
    for (struct node *p = heads[req[i]]; p; p = p->next)
      total += p->key;
  return total;
}

// CHECK-LABEL: define {{.*}} @gather4(
// CHECK-NOT: memcoro_scavenge
// CHECK: declare void @memcoro_scavenge(i64) [[ATTRS:#[0-9]+]]
// CHECK: attributes [[ATTRS]] = { nounwind }
uint64_t gather4(const uint64_t *t, const uint32_t *idx, long n) {
  uint64_t s = 0;
#pragma memcoro parallel(4)
  for (long i = 0; i < n; ++i)
    s += t[idx[i]];
  return s;
}

// REMARK: remark: {{.*}}: loop turned into 1 interleaved coroutine: {{.*}}; at a suspension with no other iteration to run, the thread's scavengers run for up to 250 ns
// REMARK: remark: {{.*}}: loop turned into 4 interleaved coroutines: {{.*}} ring dispatch, {{.*}}; at a suspension with no other iteration to run, the thread's scavengers run for up to 250 ns
// REMARK: remark: {{.*}}: loop turned into 4 interleaved coroutines: {{.*}} pipeline dispatch, {{[0-9]+}} bytes of context per slot; its stalls are not lent to scavengers: pipelined iterations never run alone

// PLAN: function 'walk1'
// PLAN: scavenge: up to 250 ns at a suspension with no other iteration to run
// PLAN: function 'walk4'
// PLAN: scavenge: up to 250 ns
// PLAN: function 'gather4'
// PLAN-NOT: scavenge

// OFF-NOT: memcoro_scavenge
