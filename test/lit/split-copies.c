// A struct copy in a marked loop (llvm.memcpy in the IR) is an access like a
// field read: copies up to 128 bytes become loads of 16-byte chunks, then
// their stores, so a gather of records through an index interleaves, its
// source lines prefetched at the suspension. Longer and variable-length
// copies stay calls (and a loop left with nothing else stays serial).
// RUN: %memcoro-cc -O2 -c -o /dev/null %s -Rpass=memcoro -Rpass-missed=memcoro 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm -o - %s | FileCheck %s

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rec { uint64_t key; char name[40]; uint64_t val, pad; };

// REMARK: split-copies.c:[[@LINE+6]]:3: remark: loop turned into 16 interleaved coroutines
// CHECK-LABEL: define {{.*}}void @gather(
// CHECK-NOT: @llvm.memcpy
// CHECK: call void @llvm.prefetch
void gather(struct rec *out, const struct rec *t, const uint32_t *ix, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    out[i] = t[ix[i]];
}

struct wide { char bytes[256]; };

// REMARK: split-copies.c:[[@LINE+6]]:3: remark: marked loop left serial: no access in the loop looks long-latency
// CHECK-LABEL: define {{.*}}void @long_copy(
// CHECK: call void @llvm.memcpy
// CHECK-LABEL: define {{.*}}void @varlen(
void long_copy(struct wide *out, const struct wide *t, const uint32_t *ix, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    out[i] = t[ix[i]];
}

// REMARK: split-copies.c:[[@LINE+5]]:3: remark: marked loop left serial: no access in the loop looks long-latency
// CHECK: call void @llvm.memcpy
void varlen(char *out, const char *t, const uint32_t *ix, const uint8_t *len, size_t n) {
  size_t stride = 64;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; i++)
    memcpy(out + i * stride, t + (size_t)ix[i] * stride, len[i] & 63);
}
