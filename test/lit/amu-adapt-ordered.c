// Tests two choices of the AMU code generators. With -memcoro-amu-shrink the
// getfin scheduler lowers the limit after a round of polls that all found a
// completion (umax(limit - 1, 1)) and parks a slot whose iteration ends over
// the limit; with -memcoro-amu-adapt it only grows; by default neither. A loop with code in iteration order
// (an append) runs on the static AMU scheduler under every -memcoro-scheduler,
// with a remark saying why when another was asked for, and its turn holder
// still issues its aloads (no suspension is skipped).
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -memcoro-amu-shrink -S %t.ll | FileCheck %s --check-prefix=SHRINK
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -memcoro-amu-adapt -S %t.ll | FileCheck %s --check-prefix=GROW
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -S %t.ll | FileCheck %s --check-prefix=FIXED
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -disable-output -pass-remarks=memcoro -pass-remarks-analysis=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=bafin -disable-output -pass-remarks=memcoro -pass-remarks-analysis=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=KEPT
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=static -disable-output -pass-remarks=memcoro -pass-remarks-analysis=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -S %t.ll | FileCheck %s --check-prefix=APPEND-IR
// RUN: %opt -passes='default<O2>' -S %t.ll | FileCheck %s --check-prefix=TURN
#include <stdint.h>
#include <memcoro/memcoro.h>

uint64_t mix(const uint64_t __remote *t, const uint32_t *idx, unsigned n) {
  uint64_t x = 0;
#pragma memcoro parallel(8)
  for (unsigned i = 0; i < n; ++i)
    x ^= t[idx[i] & 4095] >> (i & 7);
  return x;
}
// SHRINK-LABEL: define {{.*}} @mix(
// SHRINK: memcoro.park:
// SHRINK: memcoro.ready:
// SHRINK: call i64 @llvm.umax.i64(i64 %{{.*}}, i64 1)
// SHRINK: memcoro.idle:
// SHRINK: call i64 @llvm.umin.i64(i64 %{{.*}}, i64 8)
// GROW-LABEL: define {{.*}} @mix(
// GROW-NOT: memcoro.park
// GROW-NOT: llvm.umax
// GROW: memcoro.idle:
// GROW-NOT: memcoro.park
// GROW-LABEL: define {{.*}} @append(
// FIXED-LABEL: define {{.*}} @mix(
// FIXED-NOT: memcoro.idle
// FIXED-NOT: memcoro.park
// FIXED: call i32 @memcoro_amu__cc_getfin
// FIXED-NOT: memcoro.idle
// FIXED-LABEL: define {{.*}} @append(

int append(const uint64_t __remote *t, const uint32_t *idx, uint32_t *out, int n) {
  int k = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    if (t[idx[i]] & 1)
      out[k++] = (uint32_t)i;
  return k;
}
// KEPT: remark: {{.*}}the static AMU scheduler (aload, then wait, round robin) runs this loop instead of the one -fmemcoro-scheduler asks for: it has code that must run in iteration order
// KEPT: remark: {{.*}}loop turned into 8 interleaved coroutines: 1 suspension point, {{ring|lockstep}} dispatch (static, through the AMU: aload, then wait),{{.*}} 1 run in iteration order
// STATIC-NOT: instead of the one
// STATIC: remark: {{.*}}loop turned into 8 interleaved coroutines: 1 suspension point, {{ring|lockstep}} dispatch (static, through the AMU: aload, then wait),{{.*}} 1 run in iteration order
// APPEND-IR-LABEL: define {{.*}} @append(
// APPEND-IR-DAG: call void @memcoro_amu__cc_aload(
// APPEND-IR-DAG: call void @memcoro_amu__cc_wait(

struct item {
  const struct item __remote *next;
  uint32_t v;
};
// A walk of uneven length before the append: ring dispatch with turns. Under
// the cache's schedulers the turn holder skips its suspensions (TURN); through
// the AMU it must not, or it would read far memory without a request.
int walk(const struct item __remote *pool, const uint32_t *start, uint32_t *out, int n) {
  int k = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    for (const struct item __remote *p = &pool[start[i]]; p; p = p->next)
      if (p->v & 1)
        out[k++] = p->v;
  return k;
}
// APPEND-IR-LABEL: define {{.*}} @walk(
// APPEND-IR-NOT: memcoro.holds.turn
// APPEND-IR: call void @memcoro_amu__cc_aload(
// APPEND-IR-NOT: memcoro.holds.turn
// TURN-LABEL: define {{.*}} @walk(
// TURN: memcoro.holds.turn
