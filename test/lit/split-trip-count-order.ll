; Tests that the trip count of a pointer-iterator loop is found whatever order
; scalar evolution met its values in. Reduced (llvm-reduce) from GAP-style BFS
; (bench/programs/bfs.cpp) inlined into main: with this use-list order the
; first exit-count query fails, and the loop was refused with "the number of
; iterations cannot be computed"; asked again after forgetting the loop, scalar
; evolution computes it. The loop has no far access, so it stays serial for
; that reason instead.
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s
; CHECK: memcoro-plan: loop %3 in function 'main': left serial (NoSuspension)
; CHECK-NOT: UnknownTripCount

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @main(ptr %0) personality ptr null {
  br label %3

2:                                                ; preds = %6
  ret i32 0

3:                                                ; preds = %6, %1
  %4 = phi ptr [ null, %1 ], [ %7, %6 ]
  %5 = load i32, ptr %4, align 4
  br label %6

6:                                                ; preds = %3
  call void @llvm.memcpy.p0.p0.i64(ptr null, ptr null, i64 0, i1 false)
  %7 = getelementptr nusw i8, ptr %4, i64 4
  %8 = icmp ult ptr %7, %0
  br i1 %8, label %3, label %2, !llvm.loop !0
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #0

; uselistorder directives
uselistorder ptr null, { 1, 2, 3, 4, 5, 0 }

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }

!0 = distinct !{!0, !1, !2, !3, !4}
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"memcoro.parallel", i32 0}
!3 = !{!"memcoro.id", i32 1}
!4 = !{!"llvm.loop.unroll.disable"}
