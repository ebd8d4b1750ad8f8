; Tests coalescing across blocks: in a chained hash probe, e->payload (taken
; branch) and e->next (latch) share e->key's cache line, so only the bucket
; load and the entry load suspend; and the probe key, defined once per
; iteration, is saved once where it is defined, not at every step.
; RUN: %opt -passes='memcoro-split,verify' -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes='print<memcoro-plan>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; Two suspensions; the payload and next fields share the key's line, so
; they need none of their own. An entry of this array of 24-byte entries is
; only known to be 8-byte aligned, so the payload and next fields may be on
; the next line, which the entry's suspension prefetches too.
; PLAN:      suspension 1: %e.011 = load i32, ptr %arrayidx1
; PLAN-NEXT:   prefetch %arrayidx1
; PLAN-NEXT: suspension 2: %1 = load i64, ptr %arrayidx6
; PLAN-NEXT:   prefetch %arrayidx6
; PLAN-NEXT:   prefetch %arrayidx6 + 8, a field read later
; PLAN-NEXT:   prefetch %arrayidx6 + 16, a field read later
; PLAN-NEXT: no suspension, line fetched earlier in the iteration: %2 = load i64, ptr %payload
; PLAN-NEXT: no suspension, line fetched earlier in the iteration: %e.0 = load i32, ptr %next
; PLAN-NEXT: dispatch: ring


; REMARK: loop turned into 16 interleaved coroutines: 2 suspension points

; CHECK-LABEL: define {{.*}} @probe(
; CHECK: switch i32 %memcoro.state, label %memcoro.next [
; CHECK-NEXT: i32 0, label %memcoro.launch
; CHECK-NEXT: i32 1, label %memcoro.resume.1
; CHECK-NEXT: i32 2, label %memcoro.resume.2
; CHECK-NEXT: ]
; CHECK: memcoro.iter.start:
; CHECK: [[KEY:%.*]] = load i64, ptr
; CHECK-NEXT: getelementptr inbounds [16 x %memcoro.slot]
; CHECK-NEXT: store i64 [[KEY]], ptr
; CHECK-COUNT-2: call void @llvm.prefetch.p0(
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %payload,
; CHECK-NEXT: [[NEXT:%.*]] = getelementptr i8, ptr %arrayidx6, i64 16
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr [[NEXT]], i32 0, i32 3, i32 1)
; CHECK-NOT: call void @llvm.prefetch.p0(

target triple = "x86_64-pc-linux-gnu"

%struct.entry = type { i64, i64, i32, i32 }

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @probe(ptr nocapture noundef readonly %entries, ptr nocapture noundef readonly %buckets, ptr nocapture noundef readonly %keys, i32 noundef %n, ptr nocapture noundef writeonly %matches, ptr nocapture noundef writeonly %sum) local_unnamed_addr {
entry:
  %cmp17 = icmp sgt i32 %n, 0
  br i1 %cmp17, label %if.else.preheader, label %for.end16

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %for.inc14
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %for.inc14 ]
  %m.020 = phi i64 [ 0, %if.else.preheader ], [ %m.1.lcssa, %for.inc14 ]
  %s.018 = phi i64 [ 0, %if.else.preheader ], [ %s.1.lcssa, %for.inc14 ]
  %arrayidx = getelementptr inbounds i64, ptr %keys, i64 %indvars.iv
  %0 = load i64, ptr %arrayidx, align 8
  %mul = mul i64 %0, -7046029254386353131
  %shr = lshr i64 %mul, 50
  %arrayidx1 = getelementptr inbounds i32, ptr %buckets, i64 %shr
  %e.011 = load i32, ptr %arrayidx1, align 4
  %cmp3.not12 = icmp eq i32 %e.011, -1
  br i1 %cmp3.not12, label %for.inc14, label %for.body4

for.body4:                                        ; preds = %if.else, %for.inc
  %e.015 = phi i32 [ %e.0, %for.inc ], [ %e.011, %if.else ]
  %m.114 = phi i64 [ %m.2, %for.inc ], [ %m.020, %if.else ]
  %s.113 = phi i64 [ %s.2, %for.inc ], [ %s.018, %if.else ]
  %idxprom5 = zext i32 %e.015 to i64
  %arrayidx6 = getelementptr inbounds %struct.entry, ptr %entries, i64 %idxprom5
  %1 = load i64, ptr %arrayidx6, align 8
  %cmp7 = icmp eq i64 %1, %0
  br i1 %cmp7, label %if.then8, label %for.inc

if.then8:                                         ; preds = %for.body4
  %inc = add i64 %m.114, 1
  %payload = getelementptr inbounds i8, ptr %arrayidx6, i64 8
  %2 = load i64, ptr %payload, align 8
  %add = add i64 %2, %s.113
  br label %for.inc

for.inc:                                          ; preds = %for.body4, %if.then8
  %s.2 = phi i64 [ %add, %if.then8 ], [ %s.113, %for.body4 ]
  %m.2 = phi i64 [ %inc, %if.then8 ], [ %m.114, %for.body4 ]
  %next = getelementptr inbounds i8, ptr %arrayidx6, i64 16
  %e.0 = load i32, ptr %next, align 4
  %cmp3.not = icmp eq i32 %e.0, -1
  br i1 %cmp3.not, label %for.inc14, label %for.body4, !llvm.loop !7

for.inc14:                                        ; preds = %for.inc, %if.else
  %s.1.lcssa = phi i64 [ %s.018, %if.else ], [ %s.2, %for.inc ]
  %m.1.lcssa = phi i64 [ %m.020, %if.else ], [ %m.2, %for.inc ]
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end16, label %if.else, !llvm.loop !9

for.end16:                                        ; preds = %for.inc14, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %s.1.lcssa, %for.inc14 ]
  %m.0.lcssa = phi i64 [ 0, %entry ], [ %m.1.lcssa, %for.inc14 ]
  store i64 %m.0.lcssa, ptr %matches, align 8
  store i64 %s.0.lcssa, ptr %sum, align 8
  ret void
}


!memcoro.marked = !{!6}

!6 = !{i32 1, !"probe"}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.mustprogress"}
!9 = distinct !{!9, !8, !10, !11, !12}
!10 = !{!"memcoro.parallel", i32 16}
!11 = !{!"memcoro.id", i32 1}
!12 = !{!"llvm.loop.unroll.disable"}
