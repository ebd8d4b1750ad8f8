// A loop that reads one 64-byte record per iteration in order (mcf's pricing loop) waits on that stream: the hardware
// prefetcher does not run far enough ahead of a line per iteration. The interleaved loop, and the serial copy its
// run-time adaptation runs, prefetch the stream 4 KiB ahead, once per line; a stream of 8-byte elements gets none.
// RUN: %memcoro-cc -O2 -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -S -emit-llvm -c %s -o - | FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -mllvm -memcoro-stream-prefetch-stride=0 -S -emit-llvm -c %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -mllvm -memcoro-stream-prefetch-bytes=1024 -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEAR
#include <stddef.h>
#include <stdint.h>

typedef struct { int64_t potential, pad[7]; } node;
typedef struct { int64_t cost; node *tail, *head; int32_t ident, pad; int64_t rest[4]; } arc;

int64_t price(const arc *arcs, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i) {
    const arc *a = &arcs[i];
    if (a->ident > 0)
      s += a->cost - a->tail->potential + a->head->potential;
  }
  return s;
}
// One prefetch for the line the four fields share, at the first of them, which dominates the others.
// CHECK: split-stream-prefetch.c:[[@LINE-6]]:12: remark: this load walks a stream of one 64-byte step per iteration, faster than the hardware prefetcher runs ahead: prefetched 64 iterations ahead
// CHECK-NOT: walks a stream
// NEAR: remark: this load walks a stream of one 64-byte step per iteration, faster than the hardware prefetcher runs ahead: prefetched 16 iterations ahead

// 8-byte keys: a line every 8 iterations, which the hardware prefetcher keeps up with.
int64_t narrow(const int64_t *keys, node **at, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += keys[i] + at[i]->potential;
  return s;
}
// CHECK-NOT: walks a stream

// IR-LABEL: define {{.*}} @price(
// The coroutines' launch and the serial copy prefetch 4096 bytes ahead of the record (+ 24: the field read
// first); the serial copy is kept twice, as written and prefetching its nodes ahead (split/PrefetchSerialCopy.cpp).
// IR: [[AHEAD:%[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 4120
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[AHEAD]], i32 0, i32 3, i32 1)
// IR-LABEL: define internal void @price.memcoro.serial(
// IR: call i64 @__memcoro_switch_begin(
// IR: [[AHEAD2:%[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 4120
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[AHEAD2]], i32 0, i32 3, i32 1)
// IR: [[AHEAD3:%[0-9]+]] = getelementptr i8, ptr %{{[0-9]+}}, i64 4120
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[AHEAD3]], i32 0, i32 3, i32 1)
// IR-NOT: i64 4120
// IR-LABEL: define {{.*}} @narrow(
// IR-NOT: getelementptr i8, ptr %{{[0-9]+}}, i64 4096
// OFF-NOT: i64 4120
