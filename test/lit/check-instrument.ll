; Tests -memcoro-check's instrumentation: the loop's own loads and stores (and only
; those: not the slots' saves and restores, not the slot-private stack copy)
; report to the runtime, with the iteration number, which the frame saves across
; the suspension; a new execution starts in the preheader. Without the option
; nothing is added.
; RUN: %opt -passes='memcoro-split,verify' -memcoro-check -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-split,verify' -S %s | FileCheck %s --check-prefix=OFF

; CHECK: @memcoro.check.dispatch = private unnamed_addr constant [9 x i8] c"pipeline\00"
; CHECK: @memcoro.check.file = private unnamed_addr constant [4 x i8] c"x.c\00", align 1
; CHECK: @memcoro.check.loop = private constant { ptr, i32, i32, ptr } { ptr @memcoro.check.file, i32 3, i32 4, ptr @memcoro.check.dispatch }
; The load of idx[i], of t[idx[i]] (flags 1: read), the store to out[i] (2: write).
; CHECK: @memcoro.check.site = private constant { ptr, ptr, i32, i32, i32 } { ptr @memcoro.check.loop, ptr @memcoro.check.file, i32 4, i32 13, i32 1 }
; CHECK: @memcoro.check.site.1 = private constant { ptr, ptr, i32, i32, i32 } { ptr @memcoro.check.loop, ptr @memcoro.check.file, i32 5, i32 13, i32 1 }
; CHECK: @memcoro.check.site.2 = private constant { ptr, ptr, i32, i32, i32 } { ptr @memcoro.check.loop, ptr @memcoro.check.file, i32 6, i32 12, i32 2 }
; CHECK-NOT: @memcoro.check.site.3

; CHECK-LABEL: define void @gather(
; CHECK: call void @__memcoro_check_enter()
; CHECK-NEXT: br label %memcoro.sched
; CHECK: memcoro.iter.start:
; CHECK: %memcoro.check.k = freeze i64 %memcoro.step.0
; CHECK: store i64 %memcoro.check.k, ptr
; CHECK: %[[J:.*]] = load i32, ptr %arrayidx
; CHECK-NEXT: call void @__memcoro_check_access(ptr @memcoro.check.site, i64 %memcoro.check.k, ptr %arrayidx, i64 4)
; CHECK: memcoro.resume.1:
; CHECK: %memcoro.check.k.restored = load i64
; CHECK: %v = load i64, ptr %tp.restored, align 8
; CHECK-NEXT: call void @__memcoro_check_access(ptr @memcoro.check.site.1, i64 %memcoro.check.k.restored, ptr %tp.restored, i64 8)
; The slot's own copy of scratch is not reported.
; CHECK-NEXT: %odd = and i64 %i.at.k.remat, 1
; CHECK-NEXT: %sp = getelementptr inbounds i64, ptr %scratch.own.restored, i64 %odd
; CHECK-NEXT: store i64 %v, ptr %sp, align 8
; CHECK-NEXT: %s0 = load i64, ptr %scratch.own.restored, align 16
; CHECK-NEXT: %sum = add i64 %v, %s0
; CHECK-NEXT: %op = getelementptr
; CHECK-NEXT: store i64 %sum, ptr %op, align 8
; CHECK-NEXT: call void @__memcoro_check_access(ptr @memcoro.check.site.2, i64 %memcoro.check.k.restored, ptr %op, i64 8)
; CHECK: declare void @__memcoro_check_enter() #[[ATTR:[0-9]+]]
; CHECK: declare void @__memcoro_check_access(ptr, i64, ptr nocapture readnone, i64) #[[ATTR]]
; CHECK: attributes #[[ATTR]] = { nounwind memory(inaccessiblemem: readwrite) }

; OFF-NOT: __memcoro_check
; OFF-NOT: memcoro.check

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; for (i = 0; i < n; i++) { long scratch[2]; scratch[i & 1] = ...; out[i] = t[idx[i]] + scratch[0]; }
define void @gather(ptr %t, ptr %idx, ptr %out, i64 %n) !dbg !5 {
entry:
  %scratch = alloca [2 x i64], align 16
  %cmp = icmp sgt i64 %n, 0
  br i1 %cmp, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.lifetime.start.p0(i64 16, ptr %scratch)
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %i
  %j = load i32, ptr %arrayidx, align 4, !dbg !10
  %j64 = sext i32 %j to i64
  %tp = getelementptr inbounds i64, ptr %t, i64 %j64
  %v = load i64, ptr %tp, align 8, !dbg !11
  %odd = and i64 %i, 1
  %sp = getelementptr inbounds i64, ptr %scratch, i64 %odd
  store i64 %v, ptr %sp, align 8
  %s0 = load i64, ptr %scratch, align 16
  %sum = add i64 %v, %s0
  %op = getelementptr inbounds i64, ptr %out, i64 %i
  store i64 %sum, ptr %op, align 8, !dbg !12
  call void @llvm.lifetime.end.p0(i64 16, ptr %scratch)
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !7

exit:
  ret void
}

declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "x.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "gather", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !{})
!7 = distinct !{!7, !13, !8, !9}
!8 = !{!"memcoro.parallel", i32 4}
!9 = !{!"memcoro.id", i32 0}
!10 = !DILocation(line: 4, column: 13, scope: !5)
!11 = !DILocation(line: 5, column: 13, scope: !5)
!12 = !DILocation(line: 6, column: 12, scope: !5)
!13 = !DILocation(line: 3, column: 3, scope: !5)
