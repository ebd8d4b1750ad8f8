// Tests that a stack object of the body gets one copy per slot of the slot
// array when the number of coroutines is chosen at run time: the window loop
// may use every slot of the array (64 in flight; the pipeline keeps more
// slots than that), so there is one 160-byte copy per slot of the array, not
// per slot of the plan's 32 (lbm's per-cell array overran its copies when N
// climbed above 32).
// RUN: %memcoro-cc -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -mllvm -memcoro-dispatch=ring -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
#include <stddef.h>
#include <stdint.h>

void gather19(const double *src, double *dst, const uint32_t *ix, size_t n) {
#pragma memcoro remote(src)
  for (size_t c = 0; c < n; ++c) {
    double f[19];
    for (int q = 0; q < 19; ++q)
      f[q] = src[(ix[c] + q * 7) & ((1u << 22) - 1)];
    double s = 0;
    for (int q = 0; q < 19; ++q)
      s += f[(ix[c] + q) % 19] * q;
    dst[c] = s;
  }
}
// CHECK-LABEL: define {{.*}}@gather19(
// CHECK: %memcoro.slots = alloca [[[#SLOTS:]] x %memcoro.slot]
// CHECK: %f.memcoro.private = alloca [[[#mul(SLOTS,160)]] x i8], align 16
// CHECK: %f.serial = alloca [19 x double]
// CHECK: call {{.*}}@__memcoro_adapt_begin(ptr {{.*}}, i32 {{[0-9]+}}, i32 64, i32 64)
