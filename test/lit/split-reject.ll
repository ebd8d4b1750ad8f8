; Tests every reason a marked loop stays serial, each with its remark, and that
; a rejected loop is left exactly as it was apart from the memcoro metadata.
; Loops that only their order keeps from being interleaved are kept in serial
; order with prefetches ahead where they have an indirect access
; (split-serial-order.c); -memcoro-prefetch-serial-loops=0 leaves them as they
; are, which is what this test checks.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-prefetch-serial-loops=0 -pass-remarks-missed=memcoro -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %opt -passes='print<memcoro-plan>' -memcoro-prefetch-serial-loops=0 -disable-output %s 2>&1 | FileCheck %s --check-prefix=PLAN

; The plan says the same, with the remark's tag, for every loop in order.
; PLAN:      loop %if.else in function 'early_exit': left serial (EarlyExit): the loop has an early exit (break, return or goto out of the loop) and writes memory at
; PLAN-NEXT: loop %if.else in function 'carried': left serial (LoopCarried):
; PLAN-NEXT: loop %if.else in function 'calls': left serial (Call): call to 'opaque' may throw an exception
; PLAN-NEXT: loop %if.else in function 'streams': left serial (NoSuspension):
; PLAN-NEXT: loop %if.else in function 'fpsum': left serial (FPReduction):
; PLAN-NEXT: loop %if.else in function 'list': left serial (UnknownTripCount):
; PLAN-NEXT: loop %if.else in function 'irreducible': left serial (Irreducible):
; PLAN-NEXT: loop %if.else in function 'volatile_read': left serial (Volatile):


; REMARK: marked loop left serial: the loop has an early exit (break, return or goto out of the loop) and writes memory at {{.*}}: interleaved, iterations after the exiting one could store before the exit is known
; REMARK: marked loop left serial: a value is carried from one iteration to the next and is not a reduction memcoro recognises
; REMARK: marked loop left serial: call to 'opaque' may throw an exception, which would leave the loop with later iterations half done
; REMARK: marked loop left serial: no access in the loop looks long-latency
; REMARK: marked loop left serial: floating-point reduction whose result depends on the order of the additions; allow reassociation
; REMARK: marked loop left serial: the number of iterations cannot be computed before the loop starts (the exit test depends on values computed in the loop)
; REMARK: marked loop left serial: the loop has irreducible control flow (a goto into the middle of a cycle)
; REMARK: marked loop left serial: the loop has a volatile access, whose order memcoro must not change

; CHECK-NOT: memcoro.slots
; CHECK-NOT: llvm.prefetch
; CHECK-NOT: !"memcoro.parallel"

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local range(i64 0, -9223372036854775808) i64 @early_exit(ptr nocapture noundef %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp7 = icmp sgt i32 %n, 0
  br i1 %cmp7, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.end
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.end ]
  %s.08 = phi i64 [ 0, %if.else.preheader ], [ %add, %if.end ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %cmp3 = icmp slt i64 %1, 0
  br i1 %cmp3, label %for.end, label %if.end

if.end:                                           ; preds = %if.else
  %add = add nuw nsw i64 %1, %s.08
  %seen = getelementptr inbounds i64, ptr %a, i64 %indvars.iv
  store i64 %add, ptr %seen, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !16

for.end:                                          ; preds = %if.end, %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %s.08, %if.else ], [ %add, %if.end ]
  ret i64 %s.0.lcssa
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @carried(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %x.05 = phi i64 [ 1, %if.else.preheader ], [ %1, %if.else ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %conv = trunc i64 %x.05 to i32
  %xor = xor i32 %0, %conv
  %idxprom1 = sext i32 %xor to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !21

for.end:                                          ; preds = %if.else, %entry
  %x.0.lcssa = phi i64 [ 1, %entry ], [ %1, %if.else ]
  ret i64 %x.0.lcssa
}

; Function Attrs: noinline nounwind uwtable
define dso_local void @calls(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp3 = icmp sgt i32 %n, 0
  br i1 %cmp3, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  tail call void @opaque(i64 noundef %1)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !23

for.end:                                          ; preds = %if.else, %entry
  ret void
}

declare void @opaque(i64 noundef) local_unnamed_addr #2

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @streams(ptr nocapture noundef writeonly %a, ptr nocapture noundef readonly %b, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %arrayidx = getelementptr inbounds i64, ptr %b, i64 %indvars.iv
  %0 = load i64, ptr %arrayidx, align 8
  %mul = mul nsw i64 %0, 3
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %indvars.iv
  store i64 %mul, ptr %arrayidx2, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !25

for.end:                                          ; preds = %if.else, %entry
  ret void
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @fpsum(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %s.05 = phi double [ 0.000000e+00, %if.else.preheader ], [ %add, %if.else ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds double, ptr %a, i64 %idxprom1
  %1 = load double, ptr %arrayidx2, align 8
  %add = fadd double %s.05, %1
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !27

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %if.else ]
  ret double %s.0.lcssa
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(read, inaccessiblemem: none) uwtable
define dso_local i64 @list(ptr noundef readonly %head) local_unnamed_addr {
entry:
  %tobool.not4 = icmp eq ptr %head, null
  br i1 %tobool.not4, label %for.end, label %if.else

; The next node is one of two fields, chosen by the data: the test cannot run
; at launch (a phi of the body computes it).
if.else:                                          ; preds = %entry, %latch
  %p.06 = phi ptr [ %1, %latch ], [ %head, %entry ]
  %s.05 = phi i64 [ %add, %latch ], [ 0, %entry ]
  %0 = load i64, ptr %p.06, align 8
  %add = add nsw i64 %0, %s.05
  %odd = trunc i64 %0 to i1
  br i1 %odd, label %left, label %right

left:                                             ; preds = %if.else
  %l = getelementptr inbounds i8, ptr %p.06, i64 8
  br label %latch

right:                                            ; preds = %if.else
  %r = getelementptr inbounds i8, ptr %p.06, i64 16
  br label %latch

latch:                                            ; preds = %left, %right
  %next = phi ptr [ %l, %left ], [ %r, %right ]
  %1 = load ptr, ptr %next, align 8
  %tobool.not = icmp eq ptr %1, null
  br i1 %tobool.not, label %for.end, label %if.else, !llvm.loop !29

for.end:                                          ; preds = %latch, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %latch ]
  ret i64 %s.0.lcssa
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @irreducible(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.end4
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.end4 ]
  %s.09 = phi i64 [ 0, %if.else.preheader ], [ %add10, %if.end4 ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %and = and i32 %0, 1
  %tobool.not = icmp eq i32 %and, 0
  br i1 %tobool.not, label %first, label %second

first:                                            ; preds = %second, %if.else
  %j.0 = phi i32 [ %inc, %second ], [ 0, %if.else ]
  %add = add nsw i32 %j.0, 2
  br label %second

second:                                           ; preds = %if.else, %first
  %j.1 = phi i32 [ 0, %if.else ], [ %add, %first ]
  %inc = add nsw i32 %j.1, 1
  %cmp2 = icmp slt i32 %j.1, 4
  br i1 %cmp2, label %first, label %if.end4

if.end4:                                          ; preds = %second
  %idxprom7 = sext i32 %0 to i64
  %arrayidx8 = getelementptr inbounds i64, ptr %a, i64 %idxprom7
  %1 = load i64, ptr %arrayidx8, align 8
  %conv = zext nneg i32 %inc to i64
  %add9 = add i64 %s.09, %conv
  %add10 = add i64 %add9, %1
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !33

for.end:                                          ; preds = %if.end4, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add10, %if.end4 ]
  ret i64 %s.0.lcssa
}

; Function Attrs: nofree noinline norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) uwtable
define dso_local i64 @volatile_read(ptr noundef %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
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
  %1 = load volatile i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %1, %s.05
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !35

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %if.else ]
  ret i64 %s.0.lcssa
}


!memcoro.marked = !{!6, !7, !8, !9, !10, !11, !12, !13, !14, !15}

!6 = !{i32 1, !"early_exit"}
!7 = !{i32 2, !"carried"}
!8 = !{i32 3, !"calls"}
!9 = !{i32 4, !"streams"}
!10 = !{i32 5, !"fpsum"}
!11 = !{i32 6, !"list"}
!12 = !{i32 7, !"live_out"}
!13 = !{i32 8, !"irreducible"}
!14 = !{i32 9, !"volatile_read"}
!15 = !{i32 10, !"split_update"}
!16 = distinct !{!16, !17, !18, !19, !20}
!17 = !{!"llvm.loop.mustprogress"}
!18 = !{!"memcoro.parallel", i32 4}
!19 = !{!"memcoro.id", i32 1}
!20 = !{!"llvm.loop.unroll.disable"}
!21 = distinct !{!21, !17, !18, !22, !20}
!22 = !{!"memcoro.id", i32 2}
!23 = distinct !{!23, !17, !18, !24, !20}
!24 = !{!"memcoro.id", i32 3}
!25 = distinct !{!25, !17, !18, !26, !20}
!26 = !{!"memcoro.id", i32 4}
!27 = distinct !{!27, !17, !18, !28, !20}
!28 = !{!"memcoro.id", i32 5}
!29 = distinct !{!29, !17, !18, !30, !20}
!30 = !{!"memcoro.id", i32 6}
!31 = distinct !{!31, !17, !18, !32, !20}
!32 = !{!"memcoro.id", i32 7}
!33 = distinct !{!33, !17, !18, !34, !20}
!34 = !{!"memcoro.id", i32 8}
!35 = distinct !{!35, !17, !18, !36, !20}
!36 = !{!"memcoro.id", i32 9}
!37 = distinct !{!37, !17, !18, !38, !20}
!38 = !{!"memcoro.id", i32 10}
