; Tests run-time adaptation's window loop (-memcoro-adapt, -memcoro-adapt-n;
; memcoro-cc turns both on): the controller is asked per window, the window
; runs either the serial copy of the loop (counted from lo to hi on its own
; induction variable, no memcoro properties, unrolling allowed again) or the
; coroutines with the window's trip count and n slots; without a parallel
; clause the slot array
; holds the most slots run-time N may choose. A loop whose iterations meet the
; same suspensions in order is a pipeline in each window, its distance the
; window's n when run-time N chooses it (one suspension: d = n, up to 128,
; and 2n slots for the most n), the pragma's N otherwise. Off by default in opt.
; The gathers stand for any loop: -memcoro-gather-body=0 keeps memcoro from
; running them in order with prefetches ahead (split/OverlappedGathers.cpp).
; RUN: %opt -memcoro-gather-body=0 -passes='memcoro-split,verify' -S %s | FileCheck %s --check-prefix=OFF
; The serial copy's own function (OUTLINE) is split/OutlineSerialCopy.cpp's;
; SAMPLE checks the copy where the lowering leaves it.
; RUN: %opt -memcoro-gather-body=0 -passes='memcoro-split,verify' -memcoro-adapt -memcoro-outline-serial-copy=0 -S %s | FileCheck %s --check-prefix=SAMPLE
; RUN: %opt -memcoro-gather-body=0 -passes='memcoro-split,verify' -memcoro-adapt -S %s | FileCheck %s --check-prefix=OUTLINE
; RUN: %opt -memcoro-gather-body=0 -passes='memcoro-split,verify' -memcoro-adapt-n -S %s | FileCheck %s --check-prefix=NONLY
; RUN: %opt -memcoro-gather-body=0 -passes='memcoro-split' -memcoro-adapt -memcoro-adapt-n -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; OFF-NOT: memcoro.adapt
; OFF-NOT: readcyclecounter

; REMARK: loop adapts at run time: it runs a sample of 256 iterations serially and stays serial while they are not slower than interleaved ones (checked again every 16Ki to 4Mi iterations)
; REMARK-NOT: number of coroutines
; REMARK: loop adapts at run time: it runs a sample of 256 iterations serially {{.*}}; the number of coroutines is chosen at run time, up to 128, by hill climbing on measured throughput

; SAMPLE: @memcoro.adapt.gather = internal thread_local global [18 x i64] zeroinitializer
; SAMPLE-LABEL: define {{.*}} @gather(
; SAMPLE: alloca [8 x %memcoro.slot]
; SAMPLE: memcoro.adapt:
; SAMPLE: %memcoro.budget = load i64, ptr [[ST:%[0-9]+]]
; SAMPLE: %memcoro.run = load i64
; SAMPLE: icmp ule i64 %memcoro.trips, %memcoro.budget
; SAMPLE: icmp ult i64 %memcoro.trips, 16
; SAMPLE: memcoro.adapt.decided:
; SAMPLE: store i64 %{{.*}}, ptr [[ST]]
; SAMPLE: select i1 %{{.*}}, i64 4, i64
; SAMPLE: memcoro.adapt.begin:
; SAMPLE: call i64 @__memcoro_adapt_begin(ptr %{{.*}}, i32 17, i32 4, i32 4)
; SAMPLE: memcoro.adapt.pick:
; SAMPLE: %memcoro.lo = phi i64
; SAMPLE: %memcoro.hi = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 %memcoro.trips)
; SAMPLE: %memcoro.n = and i64 %memcoro.decision, 255
; SAMPLE: br i1 %memcoro.measured, label %memcoro.adapt.clock, label %memcoro.adapt.go
; SAMPLE: memcoro.adapt.clock:
; SAMPLE: %memcoro.t0 = call i64 @llvm.readcyclecounter()
; SAMPLE: memcoro.adapt.go:
; SAMPLE: br i1 %{{.*}}, label %memcoro.serial.ph, label %memcoro.window
; SAMPLE: memcoro.window:
; SAMPLE: %memcoro.window.trips = sub i64 %memcoro.hi, %memcoro.lo
; SAMPLE-NOT: %memcoro.distance
; SAMPLE: memcoro.iter.start:
; SAMPLE: %memcoro.k.loop = add i64 %memcoro.lo, %memcoro.step.{{[0-9]+}}
; SAMPLE: memcoro.drain:
; SAMPLE: [[PAST:%.*]] = sub i64 %memcoro.step.{{[0-9]+}}, %memcoro.window.trips
; SAMPLE-NEXT: icmp ult i64 [[PAST]], 4
; SAMPLE: memcoro.steady:
; SAMPLE-NEXT: icmp uge i64 %memcoro.t, 4
; SAMPLE: memcoro.adapt.report:
; SAMPLE: %memcoro.t1 = call i64 @llvm.readcyclecounter()
; SAMPLE: call i64 @__memcoro_adapt_next(
; SAMPLE: memcoro.adapt.more:
; SAMPLE: br i1 %{{.*}}, label %memcoro.adapt.pick, label %memcoro.done
; SAMPLE: memcoro.stage.1:
; SAMPLE: %memcoro.k.1 = sub i64 %memcoro.step.{{[0-9]+}}, 4
; The serial copy counts its window on the loop's own induction variable,
; whose value at hi is computed before it: no counter of its own.
; SAMPLE: memcoro.serial.ph:
; SAMPLE: [[LOIV:%.*]] = add i64 0, [[LOOFF:%.*]]
; SAMPLE: [[HIOFF:%.*]] = mul i64 %memcoro.hi, 1
; SAMPLE-NEXT: [[HIIV:%.*]] = add i64 0, [[HIOFF]]
; SAMPLE-NEXT: br label %if.else.serial
; SAMPLE: if.else.serial:
; SAMPLE-NEXT: %indvars.iv.serial = phi i64 [ [[LOIV]], %memcoro.serial.ph ], [ %indvars.iv.next.serial, %if.else.serial ]
; SAMPLE-NEXT: %s.05.serial = phi i64 [ %s.05.memcoro.acc.{{[0-9]+}}, %memcoro.serial.ph ], [ %add.serial, %if.else.serial ]
; SAMPLE-NOT: memcoro.serial.k
; SAMPLE: %indvars.iv.next.serial = add nuw nsw i64 %indvars.iv.serial, 1
; SAMPLE-NEXT: %memcoro.serial.in = icmp ne i64 %indvars.iv.next.serial, [[HIIV]]
; SAMPLE-NEXT: br i1 %memcoro.serial.in, label %if.else.serial, label %memcoro.serial.end, !llvm.loop [[SERIAL:![0-9]+]]
; SAMPLE-LABEL: define {{.*}} @gather_default(
; SAMPLE: alloca [64 x %memcoro.slot{{[.0-9]*}}]
; SAMPLE: call i64 @__memcoro_adapt_begin(ptr %{{.*}}, i32 17, i32 32, i32 32)
; SAMPLE: [[SERIAL]] = distinct !{[[SERIAL]], [[PROGRESS:![0-9]+]]}
; SAMPLE: [[PROGRESS]] = !{!"llvm.loop.mustprogress"}

; The copy, serial.ph to serial.end, is a function of its own, called where
; the window runs serially, and placed after its caller.
; OUTLINE-LABEL: define {{.*}} @gather(
; OUTLINE: br i1 %{{.*}}, label %codeRepl, label %memcoro.window
; OUTLINE: codeRepl:
; OUTLINE: call void @gather.memcoro.serial(
; OUTLINE-NOT: if.else.serial:
; OUTLINE-LABEL: define internal void @gather.memcoro.serial(
; OUTLINE: memcoro.serial.ph:
; OUTLINE: if.else.serial:
; OUTLINE: ret void
; OUTLINE-LABEL: define {{.*}} @gather_default(
; OUTLINE: call void @gather_default.memcoro.serial(
; OUTLINE-LABEL: define internal void @gather_default.memcoro.serial(
; OUTLINE: attributes #{{[0-9]+}} = { {{.*}}noinline

; A loop with parallel(4) keeps its N; the other has no serial copy, and
; slots for a pipeline of 128 coroutines (one suspension point), of which
; the window's n run.
; NONLY-LABEL: define {{.*}} @gather(
; NONLY-NOT: memcoro.adapt
; NONLY-LABEL: define {{.*}} @gather_default(
; NONLY: alloca [256 x %memcoro.slot{{[.0-9]*}}]
; NONLY: call i64 @__memcoro_adapt_begin(ptr %{{.*}}, i32 18, i32 128, i32 128)
; NONLY: memcoro.adapt.pick:
; NONLY: br label %memcoro.window
; NONLY: %memcoro.distance = call i64 @llvm.umax.i64(i64 %memcoro.n, i64 1)
; NONLY-NOT: .serial

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


define dso_local i64 @gather_default(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
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
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !12

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %if.else ]
  ret i64 %s.0.lcssa
}

!memcoro.marked = !{!6, !13}

!6 = !{i32 1, !"gather"}
!7 = distinct !{!7, !8, !9, !10, !11}
!8 = !{!"llvm.loop.mustprogress"}
!9 = !{!"memcoro.parallel", i32 4}
!10 = !{!"memcoro.id", i32 1}
!11 = !{!"llvm.loop.unroll.disable"}
!12 = distinct !{!12, !8, !14, !15, !11}
!13 = !{i32 2, !"gather_default"}
!14 = !{!"memcoro.parallel", i32 0}
!15 = !{!"memcoro.id", i32 2}
