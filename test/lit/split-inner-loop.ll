; Tests that a suspension inside an inner loop (binary search: one remote load
; per step, an unknown number of steps) resumes inside the inner loop, with the
; inner loop's running values (lo, hi) saved in the slot.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-ring-compact=false -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -memcoro-dispatch=lockstep -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='print<memcoro-plan>' -memcoro-dispatch=lockstep -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; The suspension sits in the inner loop, so iterations drift apart: ring,
; even when lockstep is asked for.
; PLAN:      suspension 1: %1 = load i64, ptr %arrayidx
; PLAN-NEXT:   prefetch %arrayidx
; PLAN-NEXT: dispatch: ring


; Iterations drift out of phase (a different number of steps each), so even
; when lockstep is asked for, the ring scheduler is used.
; REMARK: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch

; CHECK-LABEL: define {{.*}} @lookup(
; CHECK: %memcoro.slots = alloca [8 x %memcoro.slot]
; CHECK: switch i32 %memcoro.state, label %memcoro.next [
; CHECK-NEXT: i32 0, label %memcoro.launch
; CHECK-NEXT: i32 1, label %memcoro.resume.1
; CHECK-NEXT: ]
; CHECK: while.body:
; CHECK: call void @llvm.prefetch.p0(
; CHECK: store i32 1, ptr
; CHECK: memcoro.resume.1:
; CHECK-DAG: %hi{{.*}}.restored = load i64
; CHECK-DAG: %lo{{.*}}.restored = load i64
; CHECK-NOT: %arrayidx.restored
; The address &a[mid] is recomputed from the restored mid, not saved.
; CHECK: %arrayidx.remat = getelementptr inbounds i64, ptr %a, i64 %div9.restored
; CHECK: br label %while.body.split
; The resumed half of the step works on the restored values; the select on the
; far value stays a select (a cmov), marked unpredictable.
; CHECK: while.body.split:
; CHECK: load i64, ptr %arrayidx.remat
; CHECK: select i1 {{.*}}, i64 %lo{{.*}}.restored, !unpredictable

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @lookup(ptr nocapture noundef readonly %a, i64 noundef %n, ptr nocapture noundef readonly %keys, ptr nocapture noundef writeonly %pos, i32 noundef %m) local_unnamed_addr {
entry:
  %cmp13 = icmp sgt i32 %m, 0
  br i1 %cmp13, label %while.cond.preheader.lr.ph, label %for.end

while.cond.preheader.lr.ph:                       ; preds = %entry
  %cmp110 = icmp sgt i64 %n, 0
  %wide.trip.count = zext nneg i32 %m to i64
  br label %while.cond.preheader

while.cond.preheader:                             ; preds = %while.cond.preheader.lr.ph, %while.end
  %indvars.iv = phi i64 [ 0, %while.cond.preheader.lr.ph ], [ %indvars.iv.next, %while.end ]
  br i1 %cmp110, label %while.body.lr.ph, label %while.end

while.body.lr.ph:                                 ; preds = %while.cond.preheader
  %arrayidx2 = getelementptr inbounds i64, ptr %keys, i64 %indvars.iv
  %0 = load i64, ptr %arrayidx2, align 8
  br label %while.body

while.body:                                       ; preds = %while.body.lr.ph, %while.body
  %hi.012 = phi i64 [ %n, %while.body.lr.ph ], [ %hi.1, %while.body ]
  %lo.011 = phi i64 [ 0, %while.body.lr.ph ], [ %lo.1, %while.body ]
  %add = add nuw nsw i64 %hi.012, %lo.011
  %div9 = lshr i64 %add, 1
  %arrayidx = getelementptr inbounds i64, ptr %a, i64 %div9
  %1 = load i64, ptr %arrayidx, align 8
  %cmp3 = icmp slt i64 %1, %0
  %add5 = add nuw nsw i64 %div9, 1
  %lo.1 = select i1 %cmp3, i64 %add5, i64 %lo.011
  %hi.1 = select i1 %cmp3, i64 %hi.012, i64 %div9
  %cmp1 = icmp slt i64 %lo.1, %hi.1
  br i1 %cmp1, label %while.body, label %while.end, !llvm.loop !7

while.end:                                        ; preds = %while.body, %while.cond.preheader
  %lo.0.lcssa = phi i64 [ 0, %while.cond.preheader ], [ %lo.1, %while.body ]
  %arrayidx8 = getelementptr inbounds i64, ptr %pos, i64 %indvars.iv
  store i64 %lo.0.lcssa, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %while.cond.preheader, !llvm.loop !9

for.end:                                          ; preds = %while.end, %entry
  ret void
}


!memcoro.marked = !{!6}

!6 = !{i32 1, !"lookup"}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.mustprogress"}
!9 = distinct !{!9, !8, !10, !11, !12}
!10 = !{!"memcoro.parallel", i32 8}
!11 = !{!"memcoro.id", i32 1}
!12 = !{!"llvm.loop.unroll.disable"}
