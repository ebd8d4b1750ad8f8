; Tests the pipelined lockstep, memcoro-split's choice where every iteration
; meets the same suspension points in the same order: two dependent loads
; (b[a[idx[i]]], two suspensions) with parallel(8) give distance d = 8 / 2 = 4
; and 16 slots (iteration k holds slot k mod 16 from step k to step k + 8).
; Each step launches iteration t, then runs phase 1 of iteration t - 4 and
; phase 2 of iteration t - 8, reached by direct branches: no dispatch on a
; phase, no group. Each stage skips an iteration outside 0..TC-1 (the first
; and last 8 steps); after the last launch the pipeline drains. In between, a
; copy of the blocks without those tests runs (the steady state).
; -memcoro-dispatch=lockstep still forces groups.
; RUN: %opt -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: %opt -passes='memcoro-split' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='print<memcoro-plan>' -memcoro-dispatch=lockstep -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOCKSTEP

; PLAN:      suspension 1: %{{.*}} = load i64, ptr
; PLAN:      suspension 2: %{{.*}} = load i64, ptr
; PLAN:      dispatch: pipeline, distance 4, 16 slots
; LOCKSTEP:  dispatch: lockstep{{$}}
; REMARK: loop turned into 8 interleaved coroutines: 2 suspension points, pipeline dispatch

; CHECK-LABEL: define {{.*}} @chase2(
; CHECK:       %memcoro.slots = alloca [16 x %memcoro.slot]
; CHECK:       memcoro.stage.1:
; CHECK:         %memcoro.k.1 = sub i64 %memcoro.step.{{[0-9]+}}, 4
; CHECK-NEXT:    and i64 %memcoro.k.1, 15
; CHECK-NEXT:    [[OK1:%.*]] = icmp ult i64 %memcoro.k.1, %memcoro.trips
; CHECK-NEXT:    br i1 [[OK1]], label %memcoro.resume.1, label %memcoro.stage.2
; CHECK:       memcoro.stage.2:
; CHECK:         %memcoro.k.2 = sub i64 %memcoro.step.{{[0-9]+}}, 8
; CHECK-NEXT:    and i64 %memcoro.k.2, 15
; CHECK-NEXT:    [[OK2:%.*]] = icmp ult i64 %memcoro.k.2, %memcoro.trips
; CHECK-NEXT:    br i1 [[OK2]], label %memcoro.resume.2, label %memcoro.next
; CHECK:       memcoro.next:
; CHECK:         %memcoro.t = add i64 %memcoro.step.{{[0-9]+}}, 1
; CHECK-NEXT:    and i64 %memcoro.t, 15
; CHECK-NEXT:    [[MORE:%.*]] = icmp ult i64 %memcoro.t, %memcoro.trips
; CHECK-NEXT:    br i1 [[MORE]], label %memcoro.steady, label %memcoro.drain
; CHECK:       memcoro.drain:
; CHECK:         [[PAST:%.*]] = sub i64 %memcoro.step.{{[0-9]+}}, %memcoro.trips
; CHECK-NEXT:    [[DRAINING:%.*]] = icmp ult i64 [[PAST]], 8
; CHECK-NEXT:    br i1 [[DRAINING]], label %memcoro.stage.1, label %memcoro.done
; From step 8 until the last launch, every stage has an iteration: the steady
; copy of the blocks runs without the stages' tests.
; CHECK:       memcoro.steady:
; CHECK-NEXT:    [[FULL:%.*]] = icmp uge i64 %memcoro.t, 8
; CHECK-NEXT:    br i1 [[FULL]], label %memcoro.launch.steady, label %memcoro.launch
; CHECK:       memcoro.sched:
; CHECK-NEXT:    br label %memcoro.launch
; CHECK:       memcoro.launch:
; CHECK:         %memcoro.step.{{[0-9]+}} = phi i64
; CHECK-NOT:   memcoro.phase
; The first phase prefetches a[idx[t]] and goes straight to stage 1.
; CHECK:         call void @llvm.prefetch.p0(
; CHECK-NEXT:    br label %memcoro.stage.1
; The second prefetches b[...] and goes to stage 2.
; CHECK:         call void @llvm.prefetch.p0(
; CHECK-NEXT:    br label %memcoro.stage.2
; CHECK:       memcoro.stage.1.steady:
; CHECK-NEXT:    %memcoro.k.1.steady = sub i64 %memcoro.step.{{[0-9]+}}, 4
; CHECK-NEXT:    and i64 %memcoro.k.1.steady, 15
; CHECK-NEXT:    br label %memcoro.resume.1.steady
; The steady state is a loop LLVM unrolls by 4, as it does the hand loop.
; CHECK:       memcoro.next.steady:
; CHECK:         br i1 {{.*}}, label %memcoro.launch.steady, label %memcoro.drain, !llvm.loop [[STEADY:![0-9]+]]
; CHECK:       [[STEADY]] = distinct !{[[STEADY]], [[COUNT:![0-9]+]]}
; CHECK:       [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}

target triple = "x86_64-pc-linux-gnu"

define dso_local i64 @chase2(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %b, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %preheader, label %exit

preheader:
  %wide = zext nneg i32 %n to i64
  br label %body

exit:
  %s.out = phi i64 [ 0, %entry ], [ %s.next, %body ]
  ret i64 %s.out

body:
  %i = phi i64 [ 0, %preheader ], [ %i.next, %body ]
  %s = phi i64 [ 0, %preheader ], [ %s.next, %body ]
  %pi = getelementptr inbounds i32, ptr %idx, i64 %i
  %x = load i32, ptr %pi, align 4
  %xx = sext i32 %x to i64
  %pa = getelementptr inbounds i64, ptr %a, i64 %xx
  %y = load i64, ptr %pa, align 8
  %pb = getelementptr inbounds i64, ptr %b, i64 %y
  %z = load i64, ptr %pb, align 8
  %s.next = add nsw i64 %z, %s
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %wide
  br i1 %done, label %exit, label %body, !llvm.loop !0
}

!memcoro.marked = !{!5}
!5 = !{i32 1, !"chase2"}
!0 = distinct !{!0, !1, !2, !3, !4}
!1 = !{!"llvm.loop.mustprogress"}
!2 = !{!"memcoro.parallel", i32 8}
!3 = !{!"memcoro.id", i32 1}
!4 = !{!"llvm.loop.unroll.disable"}
