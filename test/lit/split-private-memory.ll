; Tests stack memory in a marked loop. An array declared in the loop body is
; private to each iteration, but LLVM allocates it once in the entry block:
; each slot gets its own copy (padded to keep the alignment), reached through
; the slot index. An array declared outside the loop is memory like any other,
; shared by the iterations under the pragma's contract: its accesses through
; loaded indices are assumed independent, as those of the heap are. Stack
; memory is never a suspension point of the automatic rule.
; RUN: %opt -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -pass-remarks=memcoro -pass-remarks-missed=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; PLAN-LABEL: function 'private_array': interleaved
; PLAN:       private stack memory: %f
; PLAN:       suspension 1: %1 = load i64, ptr %arrayidx6
; PLAN-NEXT:    shared by: %3 = load i64, ptr %arrayidx6.1
; PLAN-NOT:   suspension 2
; PLAN-LABEL: function 'shared_array': interleaved
; PLAN-NEXT:    parallel(4)
; PLAN-NEXT:    inductions: %indvars.iv
; PLAN-NEXT:    assumed independent across iterations: store i64 %add, ptr %arrayidx11{{.*}} | %4 = load i64, ptr %arrayidx17
; PLAN-NEXT:    assumed independent across iterations: store i64 %4, ptr %arrayidx19{{.*}} | %1 = load i64, ptr %arrayidx7
; PLAN-NEXT:    suspension 1: %1 = load i64, ptr %arrayidx7
; PLAN-NEXT:      prefetch %arrayidx7
; PLAN-NEXT:    dispatch: pipeline, distance 4, 8 slots


; REMARK: loop turned into 4 interleaved coroutines: 1 suspension point, pipeline dispatch
; REMARK: loop turned into 4 interleaved coroutines: 1 suspension point, pipeline dispatch

; CHECK-LABEL: define {{.*}} @private_array(
; CHECK: %f.memcoro.private = alloca [384 x i8], align 16
; CHECK-NOT: alloca [5 x i64]
; CHECK: memcoro.iter.start:
; CHECK: [[OFF:%.*]] = mul i64 %memcoro.slot{{.*}}, 48
; CHECK: %f.own = getelementptr inbounds i8, ptr %f.memcoro.private, i64 [[OFF]]
; CHECK-NOT: llvm.lifetime.start{{.*}}%f.own
; CHECK-LABEL: define {{.*}} @shared_array(
; CHECK: %f = alloca [5 x i64]
; CHECK-NOT: memcoro.private
; CHECK: memcoro.sched:

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @private_array(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, ptr nocapture noundef readonly %which, ptr nocapture noundef writeonly %out, i32 noundef %n) local_unnamed_addr {
entry:
  %f = alloca [5 x i64], align 16
  %cmp11 = icmp sgt i32 %n, 0
  br i1 %cmp11, label %if.else.preheader, label %for.cond.cleanup

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  %arrayidx8.1 = getelementptr inbounds i8, ptr %f, i64 8
  %arrayidx8.2 = getelementptr inbounds i8, ptr %f, i64 16
  %arrayidx8.3 = getelementptr inbounds i8, ptr %f, i64 24
  %arrayidx8.4 = getelementptr inbounds i8, ptr %f, i64 32
  br label %if.else

for.cond.cleanup:                                 ; preds = %if.else, %entry
  ret void

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  call void @llvm.lifetime.start.p0(i64 40, ptr nonnull %f)
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4, !tbaa !7
  %and = and i32 %0, 32767
  %idxprom5 = zext nneg i32 %and to i64
  %arrayidx6 = getelementptr inbounds i64, ptr %a, i64 %idxprom5
  %1 = load i64, ptr %arrayidx6, align 8, !tbaa !11
  store i64 %1, ptr %f, align 8, !tbaa !11
  %2 = add i32 %0, 977
  %and.1 = and i32 %2, 32767
  %idxprom5.1 = zext nneg i32 %and.1 to i64
  %arrayidx6.1 = getelementptr inbounds i64, ptr %a, i64 %idxprom5.1
  %3 = load i64, ptr %arrayidx6.1, align 8, !tbaa !11
  store i64 %3, ptr %arrayidx8.1, align 8, !tbaa !11
  %4 = add i32 %0, 1954
  %and.2 = and i32 %4, 32767
  %idxprom5.2 = zext nneg i32 %and.2 to i64
  %arrayidx6.2 = getelementptr inbounds i64, ptr %a, i64 %idxprom5.2
  %5 = load i64, ptr %arrayidx6.2, align 8, !tbaa !11
  store i64 %5, ptr %arrayidx8.2, align 8, !tbaa !11
  %6 = add i32 %0, 2931
  %and.3 = and i32 %6, 32767
  %idxprom5.3 = zext nneg i32 %and.3 to i64
  %arrayidx6.3 = getelementptr inbounds i64, ptr %a, i64 %idxprom5.3
  %7 = load i64, ptr %arrayidx6.3, align 8, !tbaa !11
  store i64 %7, ptr %arrayidx8.3, align 8, !tbaa !11
  %8 = add i32 %0, 3908
  %and.4 = and i32 %8, 32767
  %idxprom5.4 = zext nneg i32 %and.4 to i64
  %arrayidx6.4 = getelementptr inbounds i64, ptr %a, i64 %idxprom5.4
  %9 = load i64, ptr %arrayidx6.4, align 8, !tbaa !11
  store i64 %9, ptr %arrayidx8.4, align 8, !tbaa !11
  %arrayidx10 = getelementptr inbounds i32, ptr %which, i64 %indvars.iv
  %10 = load i32, ptr %arrayidx10, align 4, !tbaa !7
  %rem = srem i32 %10, 5
  %idxprom11 = sext i32 %rem to i64
  %arrayidx12 = getelementptr inbounds [5 x i64], ptr %f, i64 0, i64 %idxprom11
  %11 = load i64, ptr %arrayidx12, align 8, !tbaa !11
  %mul13 = mul nsw i64 %11, 3
  %add16 = add nsw i32 %10, 1
  %rem17 = srem i32 %add16, 5
  %idxprom18 = sext i32 %rem17 to i64
  %arrayidx19 = getelementptr inbounds [5 x i64], ptr %f, i64 0, i64 %idxprom18
  %12 = load i64, ptr %arrayidx19, align 8, !tbaa !11
  %sub = sub nsw i64 %mul13, %12
  %arrayidx21 = getelementptr inbounds i64, ptr %out, i64 %indvars.iv
  store i64 %sub, ptr %arrayidx21, align 8, !tbaa !11
  call void @llvm.lifetime.end.p0(i64 40, ptr nonnull %f)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %if.else, !llvm.loop !13
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @shared_array(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, ptr nocapture noundef readonly %which, ptr nocapture noundef writeonly %out, i32 noundef %n) local_unnamed_addr {
entry:
  %f = alloca [5 x i64], align 16
  call void @llvm.lifetime.start.p0(i64 40, ptr nonnull %f)
  %cmp7 = icmp sgt i32 %n, 0
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(40) %f, i8 0, i64 40, i1 false)
  br i1 %cmp7, label %if.else.preheader, label %for.cond.cleanup

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

for.cond.cleanup:                                 ; preds = %if.else, %entry
  call void @llvm.lifetime.end.p0(i64 40, ptr nonnull %f)
  ret void

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %arrayidx5 = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx5, align 4, !tbaa !7
  %idxprom6 = sext i32 %0 to i64
  %arrayidx7 = getelementptr inbounds i64, ptr %a, i64 %idxprom6
  %1 = load i64, ptr %arrayidx7, align 8, !tbaa !11
  %arrayidx9 = getelementptr inbounds i32, ptr %which, i64 %indvars.iv
  %2 = load i32, ptr %arrayidx9, align 4, !tbaa !7
  %rem = srem i32 %2, 5
  %idxprom10 = sext i32 %rem to i64
  %arrayidx11 = getelementptr inbounds [5 x i64], ptr %f, i64 0, i64 %idxprom10
  %3 = load i64, ptr %arrayidx11, align 8, !tbaa !11
  %add = add nsw i64 %3, %1
  store i64 %add, ptr %arrayidx11, align 8, !tbaa !11
  %add14 = add nsw i32 %2, 1
  %rem15 = srem i32 %add14, 5
  %idxprom16 = sext i32 %rem15 to i64
  %arrayidx17 = getelementptr inbounds [5 x i64], ptr %f, i64 0, i64 %idxprom16
  %4 = load i64, ptr %arrayidx17, align 8, !tbaa !11
  %arrayidx19 = getelementptr inbounds i64, ptr %out, i64 %indvars.iv
  store i64 %4, ptr %arrayidx19, align 8, !tbaa !11
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %if.else, !llvm.loop !18
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)


!memcoro.marked = !{!5, !6}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, !"private_array"}
!6 = !{i32 2, !"shared_array"}
!7 = !{!8, !8, i64 0}
!8 = !{!"int", !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C/C++ TBAA"}
!11 = !{!12, !12, i64 0}
!12 = !{!"long", !9, i64 0}
!13 = distinct !{!13, !14, !15, !16, !17}
!14 = !{!"llvm.loop.mustprogress"}
!15 = !{!"memcoro.parallel", i32 4}
!16 = !{!"memcoro.id", i32 1}
!17 = !{!"llvm.loop.unroll.disable"}
!18 = distinct !{!18, !14, !15, !19, !17}
!19 = !{!"memcoro.id", i32 2}
