; Tests reductions and the default parallelism: the xor over list sums is
; accumulated in place from the identity (never saved in a slot), the per-list
; sum inside the inner loop is private and saved, and with no parallel(N) the
; pass picks 32 and says so.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-ring-compact=false -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='memcoro-split' -memcoro-default-parallelism=5 -memcoro-ring-compact=false -S %s | FileCheck %s --check-prefix=FIVE
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; PLAN:      parallel(32), chosen by memcoro
; PLAN-NEXT: inductions: %indvars.iv
; PLAN-NEXT: reduction: %total.014 xor from 0
; out[i] might overlap the nodes and the list heads: only the pragma says not.
; PLAN-NEXT: assumed independent across iterations: store i64 %s.0.lcssa, ptr %arrayidx4, align 8 | %p.09 = load ptr, ptr %arrayidx
; PLAN-NEXT: assumed independent across iterations: store i64 %s.0.lcssa, ptr %arrayidx4, align 8 | %0 = load i64, ptr %p.012
; PLAN-NEXT: assumed independent across iterations: store i64 %s.0.lcssa, ptr %arrayidx4, align 8 | %p.0 = load ptr, ptr %next
; The address of p->next is computed above the suspension at p->v, so the
; walk yields once per node; p->next lies in p->v's 16-byte granule (one
; line), so one prefetch fetches both.
; PLAN-NEXT: hoist: %next = getelementptr inbounds i8, ptr %p.012, i64 8
; PLAN-NEXT: suspension 1: %0 = load i64, ptr %p.012
; PLAN-NEXT:   shared by: %p.0 = load ptr, ptr %next
; PLAN-NEXT:   prefetch %p.012
; PLAN-NOT:    prefetch %next
; PLAN-NEXT: dispatch: ring


; REMARK: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): 1 suspension point
; FIVE: alloca [5 x %memcoro.slot]
; FIVE: select i1 {{.*}}, i64 0, i64

; CHECK-LABEL: define {{.*}} @chase(
; CHECK: %memcoro.slots = alloca [32 x %memcoro.slot]
; CHECK: memcoro.sched:
; CHECK: %total{{.*}}.memcoro.acc{{.*}} = phi i64 [ 0, %
; CHECK: memcoro.iter.end:
; CHECK: xor i64 %total
; CHECK: memcoro.done:
; CHECK-NOT: store i64 %total

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(read, argmem: readwrite, inaccessiblemem: none) uwtable
define dso_local i64 @chase(ptr nocapture noundef readonly %heads, i32 noundef %m, ptr nocapture noundef writeonly %out) local_unnamed_addr {
entry:
  %cmp13 = icmp sgt i32 %m, 0
  br i1 %cmp13, label %if.else.preheader, label %for.end6

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %m to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %for.end
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %for.end ]
  %total.014 = phi i64 [ 0, %if.else.preheader ], [ %xor, %for.end ]
  %arrayidx = getelementptr inbounds ptr, ptr %heads, i64 %indvars.iv
  %p.09 = load ptr, ptr %arrayidx, align 8
  %tobool.not10 = icmp eq ptr %p.09, null
  br i1 %tobool.not10, label %for.end, label %for.body2

for.body2:                                        ; preds = %if.else, %for.body2
  %p.012 = phi ptr [ %p.0, %for.body2 ], [ %p.09, %if.else ]
  %s.011 = phi i64 [ %add, %for.body2 ], [ 0, %if.else ]
  %0 = load i64, ptr %p.012, align 8
  %add = add nsw i64 %0, %s.011
  %next = getelementptr inbounds i8, ptr %p.012, i64 8
  %p.0 = load ptr, ptr %next, align 8
  %tobool.not = icmp eq ptr %p.0, null
  br i1 %tobool.not, label %for.end, label %for.body2, !llvm.loop !7

for.end:                                          ; preds = %for.body2, %if.else
  %s.0.lcssa = phi i64 [ 0, %if.else ], [ %add, %for.body2 ]
  %arrayidx4 = getelementptr inbounds i64, ptr %out, i64 %indvars.iv
  store i64 %s.0.lcssa, ptr %arrayidx4, align 8
  %xor = xor i64 %s.0.lcssa, %total.014
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end6, label %if.else, !llvm.loop !9

for.end6:                                         ; preds = %for.end, %entry
  %total.0.lcssa = phi i64 [ 0, %entry ], [ %xor, %for.end ]
  ret i64 %total.0.lcssa
}


!memcoro.marked = !{!6}

!6 = !{i32 1, !"chase"}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.mustprogress"}
!9 = distinct !{!9, !8, !10, !11, !12}
!10 = !{!"memcoro.parallel", i32 0}
!11 = !{!"memcoro.id", i32 1}
!12 = !{!"llvm.loop.unroll.disable"}
