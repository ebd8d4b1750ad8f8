; Tests a remote read-modify-write (GUPS): the load and the store to the same
; address share one suspension, prefetched for writing.
; RUN: %opt -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -pass-remarks-analysis=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; PLAN:      suspension 1: %1 = load i64, ptr %arrayidx3
; PLAN-NEXT:   shared by: store i64 %xor, ptr %arrayidx3
; PLAN-NEXT:   prefetch %arrayidx3 for writing
; PLAN-NEXT: dispatch: pipeline, distance 16, 32 slots


; REMARK: suspension point: load prefetched, then resumed after 15 other iterations (1 more access shares it)

; CHECK: %memcoro.slot = type {}
; CHECK-LABEL: define {{.*}} @gups(
; CHECK: call void @llvm.prefetch.p0(ptr [[P:%.*]], i32 1, i32 3, i32 1)
; CHECK-NOT: call void @llvm.prefetch
; The pipeline knows the iteration it resumes: r[k] is read again and the
; address recomputed, and the slot holds nothing.
; CHECK: memcoro.resume.1:
; CHECK-NEXT: %memcoro.k.resumed = sub i64 %memcoro.step.{{[0-9]+}}, 16
; CHECK: [[R:%.*]] = load i64, ptr %arrayidx.remat
; CHECK: [[Q:%.*]] = getelementptr inbounds i64, ptr %t, i64 %and.remat
; CHECK: [[OLD:%.*]] = load i64, ptr [[Q]]
; CHECK: [[NEW:%.*]] = xor i64 [[OLD]], [[R]]
; CHECK: store i64 [[NEW]], ptr [[Q]]

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @gups(ptr nocapture noundef %t, ptr nocapture noundef readonly %r, i32 noundef %n, i64 noundef %mask) local_unnamed_addr {
entry:
  %cmp5 = icmp sgt i32 %n, 0
  br i1 %cmp5, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %arrayidx = getelementptr inbounds i64, ptr %r, i64 %indvars.iv
  %0 = load i64, ptr %arrayidx, align 8
  %and = and i64 %0, %mask
  %arrayidx3 = getelementptr inbounds i64, ptr %t, i64 %and
  %1 = load i64, ptr %arrayidx3, align 8
  %xor = xor i64 %1, %0
  store i64 %xor, ptr %arrayidx3, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !7

for.end:                                          ; preds = %if.else, %entry
  ret void
}


!memcoro.marked = !{!6}

!6 = !{i32 1, !"gups"}
!7 = distinct !{!7, !8, !9, !10, !11}
!8 = !{!"llvm.loop.mustprogress"}
!9 = !{!"memcoro.parallel", i32 16}
!10 = !{!"memcoro.id", i32 1}
!11 = !{!"llvm.loop.unroll.disable"}
