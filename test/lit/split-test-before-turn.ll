; Tests -memcoro-test-before-turn on a BFS level (the function of
; split-ordered.ll): the first-writer-wins test reads parent[v] before the
; iteration's turn, and only its "free" side waits, reads again in turn and
; tests again; -memcoro-check reports the re-read, not the early read. A test
; whose stored value may pass it again keeps waiting before it reads.
; RUN: %opt -memcoro-cost-model=0 -memcoro-test-before-turn -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: %opt -memcoro-cost-model=0 -memcoro-test-before-turn -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -memcoro-cost-model=0 -memcoro-test-before-turn -passes='memcoro-split' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -memcoro-cost-model=0 -memcoro-test-before-turn -memcoro-check -passes='memcoro-split,verify' -S %s | FileCheck %s --check-prefix=CHECKED
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=OFF

; PLAN-LABEL: memcoro-plan: loop %10 in function 'bfs_level': interleaved
; PLAN:       ordered first-writer-wins (tested before the turn): %35 = load i64, ptr %34
; PLAN-LABEL: memcoro-plan: loop %10 in function 'bfs_may_pass': interleaved
; PLAN:       ordered first-writer-wins: %35 = load i64, ptr %34
; OFF:        ordered first-writer-wins: %35 = load i64, ptr %34

; REMARK: remark: <unknown>:0:0: first-writer-wins test runs in iteration order, so the first iteration in serial order wins (ring dispatch: an iteration tests before its turn, and waits for it only to claim a free location, which it tests again then)
; REMARK: remark: <unknown>:0:0: first-writer-wins test runs in iteration order, so the first iteration in serial order wins (ring dispatch: an iteration that reaches it before its turn waits)

; The early read, its test, and on the "free" side the wait, the re-read and
; the second test, whose "taken" side joins the first's.
; CHECK-LABEL: define {{.*}} @bfs_level(
; CHECK:         [[EARLY:%.*]] = load i64, ptr [[P:%.*]], align 8, {{.*}}!memcoro.speculative
; CHECK-NEXT:    [[FREE:%.*]] = icmp slt i64 [[EARLY]], 0
; CHECK-NEXT:    br i1 [[FREE]], label %[[RECHECK:.*]], label %[[TAKEN:[0-9]+]]
; CHECK:       [[RECHECK]]:
; CHECK:         br i1 %memcoro.my.turn{{[0-9]*}}, label %memcoro.pass.{{[0-9]+}}, label %memcoro.wait.{{[0-9]+}}
; CHECK:         %memcoro.reread = load i64, ptr {{%.*}}, align 8
; CHECK-NEXT:    [[STILL:%.*]] = icmp slt i64 %memcoro.reread, 0
; CHECK-NEXT:    br i1 [[STILL]], label %{{.*}}, label %[[TAKEN]]
; CHECK-LABEL: define {{.*}} @bfs_may_pass(
; CHECK-NOT:     !memcoro.speculative
; CHECK:         ret i64

; Only the re-read is reported to the checking runtime.
; CHECKED-LABEL: define {{.*}} @bfs_level(
; CHECKED:         load i64, ptr {{%.*}}, align 8, {{.*}}!memcoro.speculative
; CHECKED-NOT:     call void @__memcoro_check_access
; CHECKED:         br i1
; CHECKED:         %memcoro.reread = load i64, ptr [[Q:%.*]], align 8
; CHECKED-NEXT:    call void @__memcoro_check_access(ptr @memcoro.check.site{{.*}}, i64 %{{.*}}, ptr [[Q]], i64 8)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; for (i = 0; i < n; i++) { u = frontier[i];
;   for (e = offsets[u]; e < offsets[u + 1]; e++) { v = adj[e];
;     if (parent[v] < 0) { parent[v] = u; next[nnext++] = v; } } }
; Function Attrs: nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable
define dso_local i64 @bfs_level(ptr nocapture noundef readonly %0, i64 noundef %1, ptr nocapture noundef readonly %2, ptr nocapture noundef readonly %3, ptr nocapture noundef %4, ptr nocapture noundef writeonly %5) local_unnamed_addr {
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

; The same with parent[v] = u - 1, which may be negative: "free" again.
; Function Attrs: nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable
define dso_local i64 @bfs_may_pass(ptr nocapture noundef readonly %0, i64 noundef %1, ptr nocapture noundef readonly %2, ptr nocapture noundef readonly %3, ptr nocapture noundef %4, ptr nocapture noundef writeonly %5) local_unnamed_addr {
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
  br i1 %26, label %8, label %10, !llvm.loop !40

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
  %u1 = add i64 %15, -1
  store i64 %u1, ptr %34, align 8, !tbaa !14
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

declare void @__memcoro_remote_base(ptr nocapture readnone)

!llvm.module.flags = !{!4, !5, !6, !7}
!memcoro.seen = !{!8, !9}

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
!40 = distinct !{!40, !17, !18, !41, !20, !21}
!41 = !{!"memcoro.id", i32 2}
