; Tests code that must run in iteration order: a BFS level (first-writer-wins
; test-and-set and the frontier append, ring dispatch: turns), a gather that
; appends (pipeline: each phase runs in iteration order, nothing added) and an
; ordered region after list walks (ring). Made from C with memcoro-cc -O2
; -mllvm -print-before=memcoro-split; the C is in the comments of each function.
; -memcoro-cost-model=0: the loops here are about the plan's other steps, not about what is worth a suspension.
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -memcoro-dispatch=ring -disable-output %s 2>&1 | FileCheck %s --check-prefix=RING
; RUN: %opt -memcoro-cost-model=0 -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -memcoro-cost-model=0 -passes='memcoro-split' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; PLAN-LABEL: memcoro-plan: loop %10 in function 'bfs_level': interleaved
; PLAN:       no suspension, line fetched earlier in the iteration: store i64 %15, ptr %34
; PLAN-NEXT:  no suspension, line fetched earlier in the iteration: %40 = load i64, ptr %20
; PLAN-NEXT:  append counter: %11
; PLAN-NEXT:  ordered append: %39 = getelementptr inbounds i32, ptr %5, i64 %29
; PLAN-NEXT:    store: store i32 %32, ptr %39
; PLAN-NEXT:  ordered first-writer-wins: %35 = load i64, ptr %34
; PLAN-NEXT:    store: store i64 %15, ptr %34
; PLAN-NEXT:  dispatch: ring
; PLAN-NEXT:  order kept by: turns (an iteration waits for the one before it)
; PLAN-LABEL: memcoro-plan: loop %8 in function 'gather_append': interleaved
; PLAN:       append counter: %9
; PLAN-NEXT:  ordered append: %20 = getelementptr inbounds i64, ptr %3, i64 %9
; PLAN-NEXT:    store: store i64 %15, ptr %20
; PLAN-NEXT:  dispatch: pipeline, distance 8, 16 slots
; PLAN-NEXT:  order kept by: pipeline phase order
; PLAN-LABEL: memcoro-plan: loop %9 in function 'walks': interleaved
; PLAN:       ordered region: tail call void @__memcoro_ordered()
; PLAN-NEXT:  dispatch: ring
; PLAN-NEXT:  order kept by: turns

; RING-LABEL: function 'gather_append': interleaved
; RING:       dispatch: ring
; RING-NEXT:  order kept by: turns

; REMARK:      remark: <unknown>:0:0: append runs in iteration order: the counter is shared by the iterations (ring dispatch: an iteration that reaches it before its turn waits)
; REMARK-NEXT: remark: <unknown>:0:0: first-writer-wins test runs in iteration order, so the first iteration in serial order wins (ring dispatch: an iteration that reaches it before its turn waits)
; REMARK-NEXT: remark: <unknown>:0:0: loop turned into 16 interleaved coroutines: 3 suspension points, ring dispatch, {{[0-9]+}} bytes of context per slot, 2 run in iteration order
; REMARK-NEXT: remark: <unknown>:0:0: append runs in iteration order: the counter is shared by the iterations (pipeline dispatch runs each phase in iteration order)
; REMARK-NEXT: remark: <unknown>:0:0: loop turned into 8 interleaved coroutines: 1 suspension point, pipeline dispatch, 8 bytes of context per slot, 1 run in iteration order
; REMARK-NEXT: remark: <unknown>:0:0: ordered region runs in iteration order (ring dispatch: an iteration that reaches it before its turn waits)

; The ring: the slot remembers its iteration; an iteration holding the turn
; does not yield; one that is not its turn yields in a wait state and tests
; again before restoring; the turn moves on when an iteration ends; the
; counter is one shared scalar read at the end.
; CHECK-LABEL: define {{.*}} @bfs_level(
; CHECK:       memcoro.iter.end:
; CHECK-NEXT:    [[NEXTTURN:%.*]] = add i64 %memcoro.turn.{{[0-9]+}}, 1
; CHECK:       memcoro.sched:
; CHECK:         switch i32 %memcoro.state, label %memcoro.next [
; CHECK:           i32 4, label %memcoro.retry.1
; CHECK:           i32 5, label %memcoro.retry.2
; CHECK:           i32 6, label %memcoro.retry.3
; CHECK:       memcoro.iter.start:
; CHECK:         store i64 %memcoro.next.iter.{{[0-9]+}}, ptr
; CHECK:         %memcoro.holds.turn = icmp eq i64 %memcoro.turn.slot.{{[0-9]+}}, %memcoro.slot.0
; CHECK-NEXT:    br i1 %memcoro.holds.turn, label %{{.*}}, label %memcoro.yield.1
; CHECK:       memcoro.wait.3:
; CHECK:         store i32 6, ptr
; CHECK:       memcoro.retry.3:
; CHECK:         br i1 %memcoro.my.turn{{[0-9]*}}, label %memcoro.resume.6, label %memcoro.next
; CHECK-NOT:   call void @__memcoro_ordered
; CHECK-LABEL: define {{.*}} @gather_append(
; CHECK-NOT:   memcoro.wait
; CHECK-NOT:   memcoro.turn
; CHECK:       ret i64
; CHECK-LABEL: define {{.*}} @walks(
; CHECK:       memcoro.wait.1:
; CHECK-NOT:   call void @__memcoro_ordered

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.node = type { ptr, i32 }

; Function Attrs: nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable
define dso_local i64 @bfs_level(ptr nocapture noundef readonly %0, i64 noundef %1, ptr nocapture noundef readonly %2, ptr nocapture noundef readonly %3, ptr nocapture noundef %4, ptr nocapture noundef writeonly %5) local_unnamed_addr #0 {
  %7 = icmp eq i64 %1, 0
  br i1 %7, label %8, label %10

8:                                                ; preds = %23, %6
  %9 = phi i64 [ 0, %6 ], [ %24, %23 ]
  ret i64 %9

10:                                               ; preds = %23, %6
  %11 = phi i64 [ %24, %23 ], [ 0, %6 ]
  %12 = phi i64 [ %25, %23 ], [ 0, %6 ]
  tail call void @__memcoro_remote_base(ptr %2)
  tail call void @__memcoro_remote_base(ptr %3)
  tail call void @__memcoro_remote_base(ptr %4)
  %13 = getelementptr inbounds i32, ptr %0, i64 %12
  %14 = load i32, ptr %13, align 4, !tbaa !10
  %15 = zext i32 %14 to i64
  %16 = getelementptr inbounds i64, ptr %2, i64 %15
  %17 = load i64, ptr %16, align 8, !tbaa !14
  %18 = add i32 %14, 1
  %19 = zext i32 %18 to i64
  %20 = getelementptr inbounds i64, ptr %2, i64 %19
  %21 = load i64, ptr %20, align 8, !tbaa !14
  %22 = icmp ult i64 %17, %21
  br i1 %22, label %27, label %23

23:                                               ; preds = %41, %10
  %24 = phi i64 [ %11, %10 ], [ %43, %41 ]
  %25 = add nuw i64 %12, 1
  %26 = icmp eq i64 %25, %1
  br i1 %26, label %8, label %10, !llvm.loop !16

27:                                               ; preds = %41, %10
  %28 = phi i64 [ %42, %41 ], [ %21, %10 ]
  %29 = phi i64 [ %43, %41 ], [ %11, %10 ]
  %30 = phi i64 [ %44, %41 ], [ %17, %10 ]
  %31 = getelementptr inbounds i32, ptr %3, i64 %30
  %32 = load i32, ptr %31, align 4, !tbaa !10
  %33 = zext i32 %32 to i64
  %34 = getelementptr inbounds i64, ptr %4, i64 %33
  %35 = load i64, ptr %34, align 8, !tbaa !14
  %36 = icmp slt i64 %35, 0
  br i1 %36, label %37, label %41

37:                                               ; preds = %27
  store i64 %15, ptr %34, align 8, !tbaa !14
  %38 = add i64 %29, 1
  %39 = getelementptr inbounds i32, ptr %5, i64 %29
  store i32 %32, ptr %39, align 4, !tbaa !10
  %40 = load i64, ptr %20, align 8, !tbaa !14
  br label %41

41:                                               ; preds = %37, %27
  %42 = phi i64 [ %40, %37 ], [ %28, %27 ]
  %43 = phi i64 [ %38, %37 ], [ %29, %27 ]
  %44 = add nuw i64 %30, 1
  %45 = icmp ult i64 %44, %42
  br i1 %45, label %27, label %23, !llvm.loop !22
}

; Function Attrs: mustprogress nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @__memcoro_remote_base(ptr nocapture readnone) local_unnamed_addr #1

; Function Attrs: nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable
define dso_local i64 @gather_append(ptr nocapture noundef readonly %0, ptr nocapture noundef readonly %1, i64 noundef %2, ptr nocapture noundef writeonly %3) local_unnamed_addr #0 {
  %5 = icmp eq i64 %2, 0
  br i1 %5, label %6, label %8

6:                                                ; preds = %21, %4
  %7 = phi i64 [ 0, %4 ], [ %22, %21 ]
  ret i64 %7

8:                                                ; preds = %21, %4
  %9 = phi i64 [ %22, %21 ], [ 0, %4 ]
  %10 = phi i64 [ %23, %21 ], [ 0, %4 ]
  tail call void @__memcoro_remote_base(ptr %0)
  %11 = getelementptr inbounds i32, ptr %1, i64 %10
  %12 = load i32, ptr %11, align 4, !tbaa !10
  %13 = zext i32 %12 to i64
  %14 = getelementptr inbounds i64, ptr %0, i64 %13
  %15 = load i64, ptr %14, align 8, !tbaa !14
  %16 = and i64 %15, 1
  %17 = icmp eq i64 %16, 0
  br i1 %17, label %21, label %18

18:                                               ; preds = %8
  %19 = add i64 %9, 1
  %20 = getelementptr inbounds i64, ptr %3, i64 %9
  store i64 %15, ptr %20, align 8, !tbaa !14
  br label %21

21:                                               ; preds = %18, %8
  %22 = phi i64 [ %19, %18 ], [ %9, %8 ]
  %23 = add nuw i64 %10, 1
  %24 = icmp eq i64 %23, %2
  br i1 %24, label %6, label %8, !llvm.loop !23
}

; Function Attrs: nounwind uwtable
define dso_local void @walks(ptr noundef readonly %0, ptr nocapture noundef readonly %1, i64 noundef %2, ptr nocapture noundef %3) local_unnamed_addr #2 {
  %5 = icmp eq i64 %2, 0
  br i1 %5, label %8, label %6

6:                                                ; preds = %4
  %7 = icmp eq ptr %0, null
  br label %9

8:                                                ; preds = %24, %4
  ret void

9:                                                ; preds = %24, %6
  %10 = phi i64 [ %32, %24 ], [ 0, %6 ]
  br i1 %7, label %24, label %11

11:                                               ; preds = %9
  %12 = getelementptr inbounds i32, ptr %1, i64 %10
  %13 = load i32, ptr %12, align 4, !tbaa !10
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds %struct.node, ptr %0, i64 %14
  br label %16

16:                                               ; preds = %16, %11
  %17 = phi i32 [ %21, %16 ], [ 0, %11 ]
  %18 = phi ptr [ %22, %16 ], [ %15, %11 ]
  %19 = getelementptr inbounds i8, ptr %18, i64 8
  %20 = load i32, ptr %19, align 8, !tbaa !27
  %21 = add i32 %20, %17
  %22 = load ptr, ptr %18, align 8, !tbaa !30
  %23 = icmp eq ptr %22, null
  br i1 %23, label %24, label %16, !llvm.loop !31

24:                                               ; preds = %16, %9
  %25 = phi i32 [ 0, %9 ], [ %21, %16 ]
  tail call void @__memcoro_ordered()
  %26 = and i32 %25, 63
  %27 = zext nneg i32 %26 to i64
  %28 = getelementptr inbounds i64, ptr %3, i64 %27
  %29 = load i64, ptr %28, align 8, !tbaa !14
  %30 = mul i64 %29, 31
  %31 = add i64 %30, %10
  store i64 %31, ptr %28, align 8, !tbaa !14
  %32 = add nuw i64 %10, 1
  %33 = icmp eq i64 %32, %2
  br i1 %33, label %8, label %9, !llvm.loop !32
}

; Function Attrs: mustprogress nounwind willreturn memory(readwrite)
declare void @__memcoro_ordered() local_unnamed_addr #3

attributes #0 = { nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nounwind willreturn memory(inaccessiblemem: readwrite) }
attributes #2 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { mustprogress nounwind willreturn memory(readwrite) }

!llvm.ident = !{!0, !0, !0}
!memcoro.marked = !{!1, !2, !3, !1, !2, !3, !1, !2, !3}
!llvm.module.flags = !{!4, !5, !6, !7}
!memcoro.seen = !{!8, !8, !9}

!0 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!1 = !{i32 1, !"bfs_level"}
!2 = !{i32 2, !"gather_append"}
!3 = !{i32 3, !"walks"}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 1}
!9 = !{i32 2}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{!15, !15, i64 0}
!15 = !{!"long", !12, i64 0}
!16 = distinct !{!16, !17, !18, !19, !20, !21}
!17 = !{!"llvm.loop.mustprogress"}
!18 = !{!"memcoro.parallel", i32 16}
!19 = !{!"memcoro.id", i32 1}
!20 = !{!"llvm.loop.unroll.disable"}
!21 = !{!"memcoro.remote.names", !"offsets, adj, parent"}
!22 = distinct !{!22, !17}
!23 = distinct !{!23, !17, !24, !25, !20, !26}
!24 = !{!"memcoro.parallel", i32 8}
!25 = !{!"memcoro.id", i32 2}
!26 = !{!"memcoro.remote.names", !"table"}
!27 = !{!28, !11, i64 8}
!28 = !{!"node", !29, i64 0, !11, i64 8}
!29 = !{!"any pointer", !12, i64 0}
!30 = !{!28, !29, i64 0}
!31 = distinct !{!31, !17}
!32 = distinct !{!32, !17, !24, !33, !20}
!33 = !{!"memcoro.id", i32 3}
