; Tests memcoro-mark on the markers the pragma plugin leaves: the loop gets
; memcoro.parallel / memcoro.id / unroll-disable metadata, a remote() marker
; becomes a __memcoro_remote_base call, the annotations disappear, and every
; marked loop is reported.
; RUN: %opt -passes='memcoro-mark,verify' -S %s | FileCheck %s
; RUN: %opt -passes='memcoro-mark' -pass-remarks=memcoro -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; REMARK: loop marked for coroutine interleaving: parallel(4)
; REMARK: loop marked for coroutine interleaving: parallel(4), remote(t)
; REMARK: loop marked for coroutine interleaving: parallel(4)

; CHECK-NOT: call {{.*}}@llvm.annotation
; CHECK-LABEL: define {{.*}} @by_name(
; CHECK: call void @__memcoro_remote_base(ptr %{{.*}})
; CHECK: br label %{{.*}}, !llvm.loop [[LOOP2:![0-9]+]]
; CHECK: declare void @__memcoro_remote_base(ptr nocapture readnone) [[ATTRS:#[0-9]+]]
; CHECK: attributes [[ATTRS]] = { nounwind willreturn memory(inaccessiblemem: readwrite) }
; CHECK: !memcoro.marked = !{[[M1:![0-9]+]], [[M2:![0-9]+]], [[M3:![0-9]+]]}
; CHECK-DAG: [[LOOP2]] = distinct !{[[LOOP2]], {{.*}}[[PAR:![0-9]+]], [[ID2:![0-9]+]], [[NOUNROLL:![0-9]+]], [[NAMES:![0-9]+]]}
; CHECK-DAG: [[PAR]] = !{!"memcoro.parallel", i32 4}
; CHECK-DAG: [[ID2]] = !{!"memcoro.id", i32 2}
; CHECK-DAG: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: [[NAMES]] = !{!"memcoro.remote.names", !"t"}

target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [13 x i8] c"memcoro.loop\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [9 x i8] c"remote.c\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [17 x i8] c"memcoro.remote t\00", section "llvm.metadata"

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @by_address_space(ptr addrspace(1) noundef %t, ptr noundef %idx, i32 noundef %n) {
entry:
  %t.addr = alloca ptr addrspace(1), align 8
  %idx.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %s = alloca i64, align 8
  %i = alloca i32, align 4
  store ptr addrspace(1) %t, ptr %t.addr, align 8
  store ptr %idx, ptr %idx.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  store i64 0, ptr %s, align 8
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4
  %1 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %2 = call i32 @llvm.annotation.i32.p0(i32 4, ptr @.str, ptr @.str.1, i32 5)
  br i1 false, label %if.then, label %if.else

if.then:                                          ; preds = %for.body
  br label %if.end

if.else:                                          ; preds = %for.body
  %3 = load ptr addrspace(1), ptr %t.addr, align 8
  %4 = load ptr, ptr %idx.addr, align 8
  %5 = load i32, ptr %i, align 4
  %idxprom = sext i32 %5 to i64
  %arrayidx = getelementptr inbounds i32, ptr %4, i64 %idxprom
  %6 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %6 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr addrspace(1) %3, i64 %idxprom1
  %7 = load i64, ptr addrspace(1) %arrayidx2, align 8
  %8 = load i64, ptr %s, align 8
  %add = add nsw i64 %8, %7
  store i64 %add, ptr %s, align 8
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  br label %for.inc

for.inc:                                          ; preds = %if.end
  %9 = load i32, ptr %i, align 4
  %inc = add nsw i32 %9, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond, !llvm.loop !6

for.end:                                          ; preds = %for.cond
  %10 = load i64, ptr %s, align 8
  ret i64 %10
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare i32 @llvm.annotation.i32.p0(i32, ptr, ptr, i32)

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @by_name(ptr noundef %t, ptr noundef %u, i32 noundef %n) {
entry:
  %t.addr = alloca ptr, align 8
  %u.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %s = alloca i64, align 8
  %i = alloca i32, align 4
  store ptr %t, ptr %t.addr, align 8
  store ptr %u, ptr %u.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  store i64 0, ptr %s, align 8
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4
  %1 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %2 = load ptr, ptr %t.addr, align 8
  %3 = ptrtoint ptr %2 to i64
  %4 = call i64 @llvm.annotation.i64.p0(i64 %3, ptr @.str.2, ptr @.str.1, i32 10)
  %5 = call i32 @llvm.annotation.i32.p0(i32 4, ptr @.str, ptr @.str.1, i32 10)
  br i1 false, label %if.then, label %if.else

if.then:                                          ; preds = %for.body
  br label %if.end

if.else:                                          ; preds = %for.body
  %6 = load ptr, ptr %t.addr, align 8
  %7 = load i32, ptr %i, align 4
  %idxprom = sext i32 %7 to i64
  %arrayidx = getelementptr inbounds i64, ptr %6, i64 %idxprom
  %8 = load i64, ptr %arrayidx, align 8
  %9 = load ptr, ptr %u.addr, align 8
  %10 = load i32, ptr %i, align 4
  %idxprom1 = sext i32 %10 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %9, i64 %idxprom1
  %11 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %8, %11
  %12 = load i64, ptr %s, align 8
  %add3 = add nsw i64 %12, %add
  store i64 %add3, ptr %s, align 8
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  br label %for.inc

for.inc:                                          ; preds = %if.end
  %13 = load i32, ptr %i, align 4
  %inc = add nsw i32 %13, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond, !llvm.loop !8

for.end:                                          ; preds = %for.cond
  %14 = load i64, ptr %s, align 8
  ret i64 %14
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare i64 @llvm.annotation.i64.p0(i64, ptr, ptr, i32)

; Function Attrs: noinline nounwind uwtable
define dso_local i64 @automatic(ptr noundef %a, ptr noundef %idx, ptr noundef %stream, i32 noundef %n) {
entry:
  %a.addr = alloca ptr, align 8
  %idx.addr = alloca ptr, align 8
  %stream.addr = alloca ptr, align 8
  %n.addr = alloca i32, align 4
  %s = alloca i64, align 8
  %i = alloca i32, align 4
  store ptr %a, ptr %a.addr, align 8
  store ptr %idx, ptr %idx.addr, align 8
  store ptr %stream, ptr %stream.addr, align 8
  store i32 %n, ptr %n.addr, align 4
  store i64 0, ptr %s, align 8
  store i32 0, ptr %i, align 4
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %0 = load i32, ptr %i, align 4
  %1 = load i32, ptr %n.addr, align 4
  %cmp = icmp slt i32 %0, %1
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %2 = call i32 @llvm.annotation.i32.p0(i32 4, ptr @.str, ptr @.str.1, i32 15)
  br i1 false, label %if.then, label %if.else

if.then:                                          ; preds = %for.body
  br label %if.end

if.else:                                          ; preds = %for.body
  %3 = load ptr, ptr %a.addr, align 8
  %4 = load ptr, ptr %idx.addr, align 8
  %5 = load i32, ptr %i, align 4
  %idxprom = sext i32 %5 to i64
  %arrayidx = getelementptr inbounds i32, ptr %4, i64 %idxprom
  %6 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %6 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %3, i64 %idxprom1
  %7 = load i64, ptr %arrayidx2, align 8
  %8 = load ptr, ptr %stream.addr, align 8
  %9 = load i32, ptr %i, align 4
  %idxprom3 = sext i32 %9 to i64
  %arrayidx4 = getelementptr inbounds i64, ptr %8, i64 %idxprom3
  %10 = load i64, ptr %arrayidx4, align 8
  %add = add nsw i64 %7, %10
  %11 = load ptr, ptr %a.addr, align 8
  %12 = load i32, ptr %i, align 4
  %conv = sext i32 %12 to i64
  %13 = load i32, ptr %i, align 4
  %conv5 = sext i32 %13 to i64
  %mul = mul nsw i64 %conv, %conv5
  %arrayidx6 = getelementptr inbounds i64, ptr %11, i64 %mul
  %14 = load i64, ptr %arrayidx6, align 8
  %add7 = add nsw i64 %add, %14
  %15 = load i64, ptr %s, align 8
  %add8 = add nsw i64 %15, %add7
  store i64 %add8, ptr %s, align 8
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  br label %for.inc

for.inc:                                          ; preds = %if.end
  %16 = load i32, ptr %i, align 4
  %inc = add nsw i32 %16, 1
  store i32 %inc, ptr %i, align 4
  br label %for.cond, !llvm.loop !9

for.end:                                          ; preds = %for.cond
  %17 = load i64, ptr %s, align 8
  ret i64 %17
}



!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
!8 = distinct !{!8, !7}
!9 = distinct !{!9, !7}
