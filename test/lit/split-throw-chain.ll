; A path out of a marked loop that only throws, whose throwing invoke reaches its
; unreachable through a branch (as after a pass splits the block), is a throw
; like any other: its exception ends the program, so the loop interleaves.
; RUN: %opt -passes='memcoro-split,verify' -pass-remarks=memcoro -pass-remarks-missed=memcoro -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; REMARK: loop turned into 4 interleaved coroutines{{.*}}an exception thrown in it and not caught there terminates the program
; CHECK: invoke void @throw_out_of_range(i64 %{{.*}})
; CHECK-NEXT: to label %{{.*}} unwind label %memcoro.terminate
; CHECK: memcoro.terminate:
; CHECK-NEXT: landingpad { ptr, i32 }
; CHECK-NEXT: catch ptr null
; CHECK: call void @_ZSt9terminatev()

target triple = "x86_64-pc-linux-gnu"

declare void @throw_out_of_range(i64)
declare i32 @__gxx_personality_v0(...)

define void @checked_gather(ptr noundef %a, ptr noundef readonly %idx, ptr noundef %out, i64 noundef %n) personality ptr @__gxx_personality_v0 {
entry:
  %cmp7 = icmp sgt i64 %n, 0
  br i1 %cmp7, label %body, label %exit

body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %ok ]
  %p = getelementptr inbounds i64, ptr %idx, i64 %i
  %k = load i64, ptr %p, align 8
  %q = getelementptr inbounds i64, ptr %a, i64 %k
  %v = load i64, ptr %q, align 8
  %bad = icmp slt i64 %v, 0
  br i1 %bad, label %throw.pre, label %ok

ok:
  %o = getelementptr inbounds i64, ptr %out, i64 %i
  store i64 %v, ptr %o, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %body, !llvm.loop !1

throw.pre:
  br label %throw

throw:
  invoke void @throw_out_of_range(i64 %i)
          to label %throw.cont unwind label %lpad

throw.cont:
  br label %dead

dead:
  unreachable

lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp

exit:
  ret void
}

!memcoro.marked = !{!0}
!0 = !{i32 1, !"checked_gather"}
!1 = distinct !{!1, !2, !3, !4}
!2 = !{!"memcoro.parallel", i32 4}
!3 = !{!"memcoro.id", i32 1}
!4 = !{!"llvm.loop.mustprogress"}
