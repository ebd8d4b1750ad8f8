; Tests the remote-access analysis on each marking method: address space 1,
; a remote() base, and the automatic rule (indirect and non-affine addresses
; are remote, the affine stream[i] is left to the hardware prefetcher).
; RUN: %opt -passes='print<memcoro-remote-accesses>' -disable-output %s 2>&1 | FileCheck %s

; CHECK-LABEL: memcoro remote accesses in 'by_address_space':
; CHECK-NEXT: marked loop {{.*}}: 1 remote access
; CHECK-NEXT: address space 1 (__remote): {{.*}}load i64, ptr addrspace(1)
; CHECK-LABEL: memcoro remote accesses in 'by_name':
; CHECK-NEXT: marked loop {{.*}}: 1 remote access
; CHECK-NEXT: based on a name in remote(): {{.*}} = load i64, ptr %arrayidx,
; CHECK-LABEL: memcoro remote accesses in 'automatic':
; CHECK-NEXT: marked loop {{.*}}: 2 remote accesses
; CHECK-NEXT: address depends on a value loaded in the loop:
; CHECK-NEXT: address not affine in the loop:
; CHECK-NOT: remote access

target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @by_address_space(ptr addrspace(1) nocapture noundef readonly %t, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
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
  %arrayidx2 = getelementptr inbounds i64, ptr addrspace(1) %t, i64 %idxprom1
  %1 = load i64, ptr addrspace(1) %arrayidx2, align 8
  %add = add nsw i64 %1, %s.05
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !9

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %if.else ]
  ret i64 %s.0.lcssa
}

; Function Attrs: noinline nounwind memory(argmem: read, inaccessiblemem: readwrite) uwtable
define dso_local i64 @by_name(ptr nocapture noundef readonly %t, ptr nocapture noundef readonly %u, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.end

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.07 = phi i64 [ 0, %for.body.preheader ], [ %add3, %for.body ]
  tail call void @__memcoro_remote_base(ptr %t)
  %arrayidx = getelementptr inbounds i64, ptr %t, i64 %indvars.iv
  %0 = load i64, ptr %arrayidx, align 8
  %arrayidx2 = getelementptr inbounds i64, ptr %u, i64 %indvars.iv
  %1 = load i64, ptr %arrayidx2, align 8
  %add = add i64 %0, %s.07
  %add3 = add i64 %add, %1
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %for.body, !llvm.loop !14

for.end:                                          ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add3, %for.body ]
  ret i64 %s.0.lcssa
}

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @automatic(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, ptr nocapture noundef readonly %stream, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %if.else.preheader, label %for.end

if.else.preheader:                                ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %if.else

if.else:                                          ; preds = %if.else.preheader, %if.else
  %indvars.iv = phi i64 [ 0, %if.else.preheader ], [ %indvars.iv.next, %if.else ]
  %s.09 = phi i64 [ 0, %if.else.preheader ], [ %add8, %if.else ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %arrayidx4 = getelementptr inbounds i64, ptr %stream, i64 %indvars.iv
  %2 = load i64, ptr %arrayidx4, align 8
  %mul = mul nuw nsw i64 %indvars.iv, %indvars.iv
  %arrayidx6 = getelementptr inbounds i64, ptr %a, i64 %mul
  %3 = load i64, ptr %arrayidx6, align 8
  %add = add i64 %1, %s.09
  %add7 = add i64 %add, %2
  %add8 = add i64 %add7, %3
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.end, label %if.else, !llvm.loop !17

for.end:                                          ; preds = %if.else, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add8, %if.else ]
  ret i64 %s.0.lcssa
}

; Function Attrs: mustprogress nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @__memcoro_remote_base(ptr nocapture readnone) local_unnamed_addr #2


!memcoro.marked = !{!6, !7, !8}

!6 = !{i32 1, !"by_address_space"}
!7 = !{i32 2, !"by_name"}
!8 = !{i32 3, !"automatic"}
!9 = distinct !{!9, !10, !11, !12, !13}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{!"memcoro.parallel", i32 4}
!12 = !{!"memcoro.id", i32 1}
!13 = !{!"llvm.loop.unroll.disable"}
!14 = distinct !{!14, !10, !11, !15, !13, !16}
!15 = !{!"memcoro.id", i32 2}
!16 = !{!"memcoro.remote.names", !"t"}
!17 = distinct !{!17, !10, !11, !18, !13}
!18 = !{!"memcoro.id", i32 3}
