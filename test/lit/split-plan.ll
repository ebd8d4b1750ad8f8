; Tests print<memcoro-plan>: what memcoro-split decides for each marked loop of
; a function, in program order, without transforming anything. Three marked
; loops (split-several-loops.c): a binary search whose suspension sits in an
; inner loop (ring), a gather with a reduction (pipeline), and an outer loop
; whose nested marked loop is interleaved as part of it.
; -memcoro-cost-model=0: the loops here are about the plan's other steps, not about what is worth a suspension.
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -memcoro-dispatch=ring -disable-output %s 2>&1 | FileCheck %s --check-prefix=RING
; RUN: %opt -memcoro-cost-model=0 -passes='print<memcoro-plan>' -S %s 2>/dev/null | FileCheck %s --check-prefix=IR

; CHECK-LABEL: memcoro-plan: loop %bb9 in function 'several': interleaved
; CHECK-NEXT:    parallel(8)
; CHECK-NEXT:    inductions: %i10
; pos[i] may overlap keys[] and a[]: assumed independent, as the pragma says.
; CHECK-NEXT:    assumed independent across iterations: store i64 %i30, ptr %i31{{.*}} | %i13 = load i64, ptr %i12
; CHECK-NEXT:    assumed independent across iterations: store i64 %i30, ptr %i31{{.*}} | %i23 = load i64, ptr %i22
; CHECK-NEXT:    suspension 1: %i23 = load i64, ptr %i22
; CHECK-NEXT:      prefetch %i22
; CHECK-NEXT:    dispatch: ring
; CHECK-LABEL: memcoro-plan: loop %bb37 in function 'several': interleaved
; CHECK-NEXT:    parallel(8)
; CHECK-NEXT:    inductions: %i38
; CHECK-NEXT:    reduction: %i39 add from 0
; CHECK-NEXT:    suspension 1: %i44 = load i64, ptr %i43
; CHECK-NEXT:      prefetch %i43
; CHECK-NEXT:    dispatch: pipeline, distance 8, 16 slots
; CHECK-LABEL: memcoro-plan: loop %bb48 in function 'several': interleaved
; CHECK-NEXT:    parallel(4)
; CHECK-NEXT:    inductions: %i49 %i50
; CHECK-NEXT:    assumed independent across iterations: store i64 %i61, ptr %i59{{.*}} | %i76 = load i64, ptr %i75
; CHECK-NEXT:    suspension 1: %i73 = load i32, ptr %i72
; CHECK-NEXT:      prefetch %i72
; CHECK-NEXT:    suspension 2: %i76 = load i64, ptr %i75
; CHECK-NEXT:      prefetch %i75
; CHECK-NEXT:    dispatch: ring
; CHECK-NEXT:  memcoro-plan: loop %bb65 in function 'several': inside a marked loop that is interleaved instead
; CHECK-NOT:   memcoro-plan

; RING: loop %bb37
; RING: dispatch: ring

; The printer plans; it does not transform.
; IR-LABEL: define {{.*}} @several(
; IR-NOT:   memcoro.sched
; IR:       !{!"memcoro.parallel", i32 8}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local i64 @several(ptr nocapture noundef readonly %arg, i64 noundef %arg1, ptr nocapture noundef readonly %arg2, ptr nocapture noundef %arg3, ptr nocapture noundef readonly %arg4, i32 noundef %arg5) local_unnamed_addr #0 {
bb:
  %i = icmp sgt i32 %arg5, 0
  br i1 %i, label %bb6, label %bb55

bb6:                                              ; preds = %bb
  %i7 = icmp sgt i64 %arg1, 0
  %i8 = zext nneg i32 %arg5 to i64
  br label %bb9

bb9:                                              ; preds = %bb29, %bb6
  %i10 = phi i64 [ 0, %bb6 ], [ %i32, %bb29 ]
  br i1 %i7, label %bb11, label %bb29

bb11:                                             ; preds = %bb9
  %i12 = getelementptr inbounds i64, ptr %arg2, i64 %i10
  %i13 = load i64, ptr %i12, align 8, !tbaa !9
  br label %bb17

bb14:                                             ; preds = %bb29
  br i1 %i, label %bb15, label %bb55

bb15:                                             ; preds = %bb14
  %i16 = zext nneg i32 %arg5 to i64
  br label %bb37

bb17:                                             ; preds = %bb17, %bb11
  %i18 = phi i64 [ %arg1, %bb11 ], [ %i27, %bb17 ]
  %i19 = phi i64 [ 0, %bb11 ], [ %i26, %bb17 ]
  %i20 = add nuw nsw i64 %i18, %i19
  %i21 = lshr i64 %i20, 1
  %i22 = getelementptr inbounds i64, ptr %arg, i64 %i21
  %i23 = load i64, ptr %i22, align 8, !tbaa !9
  %i24 = icmp slt i64 %i23, %i13
  %i25 = add nuw nsw i64 %i21, 1
  %i26 = select i1 %i24, i64 %i25, i64 %i19
  %i27 = select i1 %i24, i64 %i18, i64 %i21
  %i28 = icmp slt i64 %i26, %i27
  br i1 %i28, label %bb17, label %bb29, !llvm.loop !13

bb29:                                             ; preds = %bb17, %bb9
  %i30 = phi i64 [ 0, %bb9 ], [ %i26, %bb17 ]
  %i31 = getelementptr inbounds i64, ptr %arg3, i64 %i10
  store i64 %i30, ptr %i31, align 8, !tbaa !9
  %i32 = add nuw nsw i64 %i10, 1
  %i33 = icmp eq i64 %i32, %i8
  br i1 %i33, label %bb14, label %bb9, !llvm.loop !15

bb34:                                             ; preds = %bb37
  br i1 %i, label %bb35, label %bb55

bb35:                                             ; preds = %bb34
  %i36 = zext nneg i32 %arg5 to i64
  br label %bb48

bb37:                                             ; preds = %bb37, %bb15
  %i38 = phi i64 [ 0, %bb15 ], [ %i46, %bb37 ]
  %i39 = phi i64 [ 0, %bb15 ], [ %i45, %bb37 ]
  %i40 = getelementptr inbounds i32, ptr %arg4, i64 %i38
  %i41 = load i32, ptr %i40, align 4, !tbaa !19
  %i42 = sext i32 %i41 to i64
  %i43 = getelementptr inbounds i64, ptr %arg, i64 %i42
  %i44 = load i64, ptr %i43, align 8, !tbaa !9
  %i45 = add nsw i64 %i44, %i39
  %i46 = add nuw nsw i64 %i38, 1
  %i47 = icmp eq i64 %i46, %i16
  br i1 %i47, label %bb34, label %bb37, !llvm.loop !21

bb48:                                             ; preds = %bb57, %bb35
  %i49 = phi i64 [ 0, %bb35 ], [ %i62, %bb57 ]
  %i50 = phi i32 [ 0, %bb35 ], [ %i63, %bb57 ]
  %i51 = and i32 %i50, 7
  %i52 = trunc nuw nsw i64 %i49 to i32
  %i53 = and i32 %i52, 7
  %i54 = icmp eq i32 %i53, 0
  br i1 %i54, label %bb57, label %bb65

bb55:                                             ; preds = %bb57, %bb34, %bb14, %bb
  %i56 = phi i64 [ %i45, %bb34 ], [ 0, %bb14 ], [ 0, %bb ], [ %i45, %bb57 ]
  ret i64 %i56

bb57:                                             ; preds = %bb65, %bb48
  %i58 = phi i64 [ 0, %bb48 ], [ %i77, %bb65 ]
  %i59 = getelementptr inbounds i64, ptr %arg3, i64 %i49
  %i60 = load i64, ptr %i59, align 8, !tbaa !9
  %i61 = add nsw i64 %i60, %i58
  store i64 %i61, ptr %i59, align 8, !tbaa !9
  %i62 = add nuw nsw i64 %i49, 1
  %i63 = add nuw nsw i32 %i50, 1
  %i64 = icmp eq i64 %i62, %i36
  br i1 %i64, label %bb55, label %bb48, !llvm.loop !23

bb65:                                             ; preds = %bb65, %bb48
  %i66 = phi i32 [ %i78, %bb65 ], [ 0, %bb48 ]
  %i67 = phi i64 [ %i77, %bb65 ], [ 0, %bb48 ]
  %i68 = mul nuw nsw i32 %i66, 97
  %i69 = add nuw nsw i32 %i68, %i52
  %i70 = urem i32 %i69, %arg5
  %i71 = zext nneg i32 %i70 to i64
  %i72 = getelementptr inbounds i32, ptr %arg4, i64 %i71
  %i73 = load i32, ptr %i72, align 4, !tbaa !19
  %i74 = sext i32 %i73 to i64
  %i75 = getelementptr inbounds i64, ptr %arg, i64 %i74
  %i76 = load i64, ptr %i75, align 8, !tbaa !9
  %i77 = add nsw i64 %i76, %i67
  %i78 = add nuw nsw i32 %i66, 1
  %i79 = icmp eq i32 %i78, %i51
  br i1 %i79, label %bb57, label %bb65, !llvm.loop !26
}

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!memcoro.marked = !{!5, !6, !7, !8}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i32 1, !"several"}
!6 = !{i32 2, !"several"}
!7 = !{i32 3, !"several"}
!8 = !{i32 4, !"several"}
!9 = !{!10, !10, i64 0}
!10 = !{!"long", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.mustprogress"}
!15 = distinct !{!15, !14, !16, !17, !18}
!16 = !{!"memcoro.parallel", i32 8}
!17 = !{!"memcoro.id", i32 1}
!18 = !{!"llvm.loop.unroll.disable"}
!19 = !{!20, !20, i64 0}
!20 = !{!"int", !11, i64 0}
!21 = distinct !{!21, !14, !16, !22, !18}
!22 = !{!"memcoro.id", i32 2}
!23 = distinct !{!23, !14, !24, !25, !18}
!24 = !{!"memcoro.parallel", i32 4}
!25 = !{!"memcoro.id", i32 3}
!26 = distinct !{!26, !14, !27, !28, !18}
!27 = !{!"memcoro.parallel", i32 2}
!28 = !{!"memcoro.id", i32 4}
