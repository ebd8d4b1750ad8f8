; Tests lockstep dispatch, chosen on its own when every iteration meets the
; same suspension points in the same order: no resume state in the slot, no
; retire block, the switch is on the group's phase (the same for N slots in a
; row), and groups of N iterations follow each other.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-dispatch=lockstep -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -memcoro-dispatch=lockstep -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; REMARK: loop turned into 4 interleaved coroutines: 1 suspension point, lockstep dispatch, 8 bytes of context per slot

; CHECK: %memcoro.slot = type { ptr }
; CHECK-LABEL: define {{.*}} @gather(
; CHECK-NOT: llvm.memset
; CHECK: call i64 @llvm.umin.i64(i64 %memcoro.trips, i64 4)
; CHECK: memcoro.sched:
; CHECK: %memcoro.phase.0 = phi i32 [ 0, %{{.*}} ], [ %memcoro.phase.0, %memcoro.next ]
; CHECK: switch i32 %memcoro.phase.0, label %memcoro.next [
; CHECK-NEXT: i32 0, label %memcoro.launch
; CHECK-NEXT: i32 1, label %memcoro.resume.1
; CHECK: memcoro.launch:
; CHECK-NEXT: %memcoro.k = add i64
; CHECK-NOT: memcoro.retire:
; CHECK: call void @llvm.prefetch.p0(
; CHECK-NEXT: br label %memcoro.next
; CHECK: memcoro.next.phase:
; CHECK: icmp ule i32 {{.*}}, 1
; CHECK: memcoro.next.group:
; CHECK: icmp ult i64 {{.*}}, %memcoro.trips

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @gather(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %s.05 = phi i64 [ 0, %if.else.preheader ], [ %add, %if.else ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %1, %s.05
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !7

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %if.else ]
  ret i64 %s.0.lcssa
}


!memcoro.marked = !{!6}

!6 = !{i32 1, !"gather"}
!7 = distinct !{!7, !8, !9, !10, !11}
!8 = !{!"llvm.loop.mustprogress"}
!9 = !{!"memcoro.parallel", i32 4}
!10 = !{!"memcoro.id", i32 1}
!11 = !{!"llvm.loop.unroll.disable"}
