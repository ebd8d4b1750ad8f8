; Tests every reason a marked loop stays serial, each with its remark, and that
; a rejected loop is left exactly as it was apart from the memcoro metadata.
; RUN: %opt -passes='memcoro-split,verify' -pass-remarks-missed=memcoro -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; REMARK: marked loop left serial: the loop has an early exit (break, return or goto out of the loop)
; REMARK: marked loop left serial: a value is carried from one iteration to the next and is not a reduction memcoro recognises
; REMARK: marked loop left serial: call to 'opaque' may access memory and could not be inlined
; REMARK: marked loop left serial: no access in the loop looks long-latency
; REMARK: marked loop left serial: floating-point reduction whose result depends on the order of the additions; allow reassociation

; CHECK-NOT: memcoro.slots
; CHECK-NOT: llvm.prefetch
; CHECK-NOT: !"memcoro.parallel"

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local range(i64 0, -9223372036854775808) i64 @early_exit(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
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
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !11

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
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !16

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
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !18

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
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !20

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
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !22

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %if.else ]
  ret double %s.0.lcssa
}


!memcoro.marked = !{!6, !7, !8, !9, !10}

!6 = !{i32 1, !"early_exit"}
!7 = !{i32 2, !"carried"}
!8 = !{i32 3, !"calls"}
!9 = !{i32 4, !"streams"}
!10 = !{i32 5, !"fpsum"}
!11 = distinct !{!11, !12, !13, !14, !15}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!"memcoro.parallel", i32 4}
!14 = !{!"memcoro.id", i32 1}
!15 = !{!"llvm.loop.unroll.disable"}
!16 = distinct !{!16, !12, !13, !17, !15}
!17 = !{!"memcoro.id", i32 2}
!18 = distinct !{!18, !12, !13, !19, !15}
!19 = !{!"memcoro.id", i32 3}
!20 = distinct !{!20, !12, !13, !21, !15}
!21 = !{!"memcoro.id", i32 4}
!22 = distinct !{!22, !12, !13, !23, !15}
!23 = !{!"memcoro.id", i32 5}
