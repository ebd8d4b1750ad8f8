// '#pragma memcoro ordered' leaves an annotation where the region starts; memcoro-mark turns it into a call of __memcoro_ordered; -fno-memcoro emits nothing; plain clang compiles the same source.
// RUN: %memcoro-cc -O0 -S -emit-llvm -Xclang -disable-llvm-passes -o %t.ll %s
// RUN: FileCheck %s --check-prefix=FRONT < %t.ll
// RUN: %opt -passes=memcoro-mark -S %t.ll | FileCheck %s --check-prefix=MARK
// At -O0, memcoro-finalize removes the call again.
// RUN: %memcoro-cc -O0 -S -emit-llvm -o - %s | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -fno-memcoro -O2 -S -emit-llvm -o - %s | FileCheck %s --check-prefix=NONE
// RUN: %clang-plain -Wno-unknown-pragmas -fsyntax-only %s
// RUN: %memcoro-cc -Wall -Werror -O2 -Rpass=memcoro -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REMARK
#include <stddef.h>
#include <stdint.h>

// FRONT: @[[STR:.*]] = private unnamed_addr constant [16 x i8] c"memcoro.ordered\00"
// FRONT-LABEL: define {{.*}} @log_in_order(
// FRONT:       call i32 @llvm.annotation.i32.p0(i32 0, ptr @[[STR]]
// MARK-LABEL: define {{.*}} @log_in_order(
// MARK:       call void @__memcoro_ordered()
// MARK-NOT:   memcoro.ordered
// OFF-NOT: call void @__memcoro_ordered
// NONE-NOT: memcoro
// REMARK: pragma-ordered.c:[[# @LINE + 9]]:17: remark: ordered region runs in iteration order (ring dispatch: an iteration that reaches it before its turn waits)
void log_in_order(const uint64_t *table, const uint32_t *idx, size_t n, uint64_t *log) {
#pragma memcoro parallel(8)
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = table[idx[i]];
    if (v & 1)
      continue;
    uint64_t w = table[v % 1024];
    if (w & 2)
#pragma memcoro ordered
    {
      log[w % 64] = log[w % 64] * 31 + i;
      log[64] = w;
    }
  }
}
