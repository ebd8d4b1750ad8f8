; Tests the ring state machine of CoroAMU Fig. 6 (forced here; on its own this
; straight-line body would run in lockstep): slot array with a resume state per
; slot, scheduler switch, launch/retire, a prefetch before the suspension and
; the access after the resume.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-dispatch=ring -memcoro-ring-compact=false -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split' -memcoro-dispatch=ring -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; With one suspension point and nothing to wait for, the ring is compact
; unless told otherwise: no resume state (the slot holds the address only),
; no switch after the first launch, live slots packed at the front; a slot
; with nothing left to launch takes the last live slot's iteration.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-dispatch=ring -S %s | FileCheck %s --check-prefix=COMPACT
; RUN: %opt -passes='print<memcoro-plan>' -memcoro-dispatch=ring -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; PLAN: dispatch: ring, compact (live slots packed, no resume state)

; COMPACT: %memcoro.slot = type { ptr }
; COMPACT-LABEL: define {{.*}} @gather(
; COMPACT-NOT: llvm.memset
; COMPACT: memcoro.sched:
; COMPACT-NEXT: switch i32 0, label %memcoro.next [
; COMPACT: memcoro.launch:
; COMPACT: %memcoro.live.0 = phi i64 {{.*}} [ 1, %memcoro.sched ]
; The compact ring counts the launches left down: decremented in place, so
; that k and the counter are never two copies of one value in registers.
; COMPACT: %memcoro.k = sub i64 %memcoro.trips, [[LEFT:%memcoro.next.iter.[0-9]+]]
; COMPACT-NEXT: [[ANY:%.*]] = icmp ne i64 [[LEFT]], 0
; COMPACT-NEXT: br i1 [[ANY]], label %memcoro.iter.start, label %memcoro.retire
; COMPACT: memcoro.iter.start:
; COMPACT-NEXT: sub i64 [[LEFT]], 1
; COMPACT: memcoro.retire:
; COMPACT-NEXT: [[LAST:%.*]] = sub i64 %memcoro.live.0, 1
; COMPACT-NEXT: [[MID:%.*]] = icmp ult i64 %memcoro.slot.0, [[LAST]]
; COMPACT-NEXT: br i1 [[MID]], label %memcoro.move, label %memcoro.wrap
; COMPACT: call void @llvm.prefetch.p0(
; COMPACT-NOT: store i32
; COMPACT-NEXT: br label %memcoro.next
; COMPACT: memcoro.next:
; COMPACT: [[S:%.*]] = add i64 %memcoro.slot.{{[0-9]+}}, 1
; COMPACT-NEXT: [[MORE:%.*]] = icmp ult i64 [[S]], %memcoro.live.{{[0-9]+}}
; COMPACT-NEXT: br i1 [[MORE]], label %memcoro.resume.1, label %memcoro.fill
; COMPACT: memcoro.fill:
; COMPACT-NEXT: icmp ult i64 %memcoro.live.{{[0-9]+}}, 4
; COMPACT-NEXT: icmp ne i64 %memcoro.next.iter.{{[0-9]+}}, 0
; COMPACT: br i1 {{.*}}, label %memcoro.grow, label %memcoro.wrap
; COMPACT: memcoro.wrap:
; COMPACT: br i1 {{.*}}, label %memcoro.done, label %memcoro.resume.1
; COMPACT: memcoro.move:
; COMPACT: call void @llvm.memcpy{{.*}}(ptr align 8 %{{.*}}, ptr align 8 %{{.*}}, i64 8, i1 false)
; COMPACT-NEXT: br label %memcoro.resume.1

; REMARK: loop turned into 4 interleaved coroutines: 1 suspension point, ring dispatch, 8 bytes of context per slot

; The state and the pointer, padded to 24 bytes: slots a multiple of 16 bytes
; apart run slower (SplitFrame.cpp, layOutSlots).
; CHECK: %memcoro.slot = type { i32, ptr, i64 }
; CHECK-LABEL: define {{.*}} @gather(
; CHECK: %memcoro.slots = alloca [4 x %memcoro.slot]
; CHECK: call void @llvm.memset{{.*}}(ptr {{.*}}%memcoro.slots, i8 0, i64 96
; CHECK: memcoro.sched:
; CHECK: %memcoro.state = load i32
; CHECK-NEXT: switch i32 %memcoro.state, label %memcoro.next [
; CHECK-NEXT: i32 0, label %memcoro.launch
; CHECK-NEXT: i32 1, label %memcoro.resume.1
; CHECK: memcoro.launch:
; CHECK: icmp ult i64 {{.*}}, %memcoro.trips
; CHECK: memcoro.retire:
; CHECK: store i32 2, ptr
; The address has one instance per iteration: saved once, where it is defined.
; CHECK: [[ADDR:%.*]] = getelementptr inbounds i64, ptr %a
; CHECK: store ptr [[ADDR]], ptr
; CHECK: call void @llvm.prefetch.p0(ptr [[ADDR]], i32 0, i32 3, i32 1)
; CHECK-NOT: store ptr
; CHECK: store i32 1, ptr
; CHECK-NEXT: br label %memcoro.next
; CHECK: memcoro.resume.1:
; CHECK: [[RESTORED:%.*]] = load ptr, ptr
; CHECK: load i64, ptr [[RESTORED]]
; CHECK: memcoro.next:
; CHECK: and i64 {{.*}}, 3
; CHECK: memcoro.done:

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
