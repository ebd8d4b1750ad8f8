; Under -fsanitize=undefined an `int` counter's checked step `u + 1`, widened
; once before the latch because the body indexes with it too (GAP's Afforest:
; `out_neigh(u)` reads `index[u + 1]`, then `u < g.num_nodes()` compares the
; same sext), gives the exit test its own widened step, so the test is
; `sext(u) + 1 < n` with a trip count and the loop interleaves
; (split/SanitizerChecks.cpp; issue 17 item 8: cc stayed serial under UBSan).
; RUN: %opt -passes='memcoro-split,verify' -pass-remarks=memcoro -pass-remarks-missed=memcoro -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; REMARK-NOT: cannot be computed
; REMARK: loop turned into 4 interleaved coroutines
; The check and its report stay.
; CHECK: call { i32, i1 } @llvm.sadd.with.overflow.i32
; CHECK: call void @__ubsan_handle_add_overflow

target triple = "x86_64-pc-linux-gnu"

@report.data = private constant [16 x i8] zeroinitializer

declare void @__ubsan_handle_add_overflow(ptr, i64, i64)

define void @link_first(ptr noundef %g, ptr noundef %comp) {
entry:
  %n0 = load i64, ptr %g, align 8
  %nonempty = icmp sgt i64 %n0, 0
  br i1 %nonempty, label %preheader, label %exit

preheader:
  %index.field = getelementptr inbounds i8, ptr %g, i64 8
  br label %header

header:
  %u = phi i32 [ 0, %preheader ], [ %u.next, %latch ]
  %step = call { i32, i1 } @llvm.sadd.with.overflow.i32(i32 %u, i32 1), !nosanitize !5
  %u.next = extractvalue { i32, i1 } %step, 0, !nosanitize !5
  %wrapped = extractvalue { i32, i1 } %step, 1, !nosanitize !5
  br i1 %wrapped, label %report, label %body, !nosanitize !5

report:
  %u.wide = zext nneg i32 %u to i64, !nosanitize !5
  call void @__ubsan_handle_add_overflow(ptr @report.data, i64 %u.wide, i64 1), !nosanitize !5
  br label %body, !nosanitize !5

body:
  %next.wide = sext i32 %u.next to i64
  %index = load ptr, ptr %index.field, align 8
  %end.addr = getelementptr inbounds i64, ptr %index, i64 %next.wide
  %end = load i64, ptr %end.addr, align 8
  %far.addr = getelementptr inbounds i32, ptr %comp, i64 %end
  %far = load i32, ptr %far.addr, align 4
  %own = sext i32 %u to i64
  %own.addr = getelementptr inbounds i32, ptr %comp, i64 %own
  store i32 %far, ptr %own.addr, align 4
  br label %latch

latch:
  %n = load i64, ptr %g, align 8
  %more = icmp sgt i64 %n, %next.wide
  br i1 %more, label %header, label %exit, !llvm.loop !1

exit:
  ret void
}

!memcoro.marked = !{!0}
!0 = !{i32 1, !"link_first"}
!1 = distinct !{!1, !2, !3, !4}
!2 = !{!"memcoro.parallel", i32 4}
!3 = !{!"memcoro.id", i32 1}
!4 = !{!"llvm.loop.mustprogress"}
!5 = !{}
