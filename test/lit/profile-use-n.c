// -fmemcoro-profile-use: a loop whose serial run already keeps about as many misses in flight as parallel(N) would gets 64 coroutines instead (-memcoro-profile-max-n), with a remark; a loop whose N is enough keeps it, and so does parallel(1) (serial then); with a smaller maximum the loop stays serial as before. (-memcoro-gather-body=0: the gathers stand for any loop, not kept in order with prefetches ahead.)
// RUN: printf 'memcoro-profile 1\nmiss-threshold-ns 20.0\n' > %t.profile
// RUN: echo 'site mixed 26:3 load 27:10 0 31222 1000000 0.0001 0.1 126.9' >> %t.profile
// RUN: echo 'site mixed 26:3 load 27:23 0 31175 1000000 0.9791 167.0 170.6' >> %t.profile
// RUN: echo 'loop mixed 26:3 1 16700000' >> %t.profile
// RUN: echo 'site chosen 40:3 load 41:10 0 5000 1000000 0.9500 150.0 157.0' >> %t.profile
// RUN: echo 'loop chosen 40:3 1 7500000' >> %t.profile
// RUN: echo 'site enough 51:3 load 52:10 0 5000 1000000 0.9500 150.0 157.0' >> %t.profile
// RUN: echo 'loop enough 51:3 1 15000000' >> %t.profile
// RUN: echo 'site alone 67:3 load 68:10 0 5000 1000000 0.9500 150.0 157.0' >> %t.profile
// RUN: echo 'loop alone 67:3 1 15000000' >> %t.profile
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -fmemcoro-profile-use=%t.profile -fno-memcoro-adapt \
// RUN:   -mllvm -memcoro-dispatch=lockstep -mllvm -memcoro-gather-body=0 -S -emit-llvm %s -o %t.ll 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -fmemcoro-profile-use=%t.profile \
// RUN:   -mllvm -memcoro-profile-max-n=16 -mllvm -memcoro-gather-body=0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAX16

// CHECK-NOT: warning
#include <stddef.h>
#include <stdint.h>

// 167 ms of misses in 16.7 ms: 10 in flight, more than 0.4 x 16.
int64_t mixed(const int64_t *hot, const int64_t *cold, const uint32_t *ix, const uint32_t *iy, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}
// CHECK: 27:23: remark: suspension point kept
// CHECK: 26:3: remark: the profile '{{.*}}.profile' says the serial loop already keeps 10.0 accesses in flight, which parallel(16) would not clearly exceed: 64 coroutines instead
// CHECK: 26:3: remark: loop turned into 64 interleaved coroutines: 1 suspension point, lockstep dispatch
// IR-LABEL: define {{.*}} @mixed(
// IR: alloca [64 x %memcoro.slot

// 20 in flight: more than 0.4 x 32, memcoro's default, less than 0.4 x 64.
int64_t chosen(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK: 40:3: remark: the profile '{{.*}}.profile' says the serial loop already keeps 20.0 accesses in flight, which memcoro's default of 32 coroutines would not clearly exceed: 64 coroutines instead
// CHECK: 40:3: remark: loop turned into 64 interleaved coroutines (parallelism chosen by memcoro): 1 suspension point

// 10 in flight: less than 0.4 x 64, the pragma's N stands.
int64_t enough(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(64)
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK-NOT: 51:3: remark: the profile
// CHECK: 51:3: remark: loop turned into 64 interleaved coroutines: 1 suspension point
// IR-LABEL: define {{.*}} @enough(
// IR: alloca [64 x %memcoro.slot

// MAX16: 26:3: remark: marked loop left serial: the profile '{{.*}}.profile' says the serial loop already keeps 10.0 accesses in flight (167.0 ms of their latency in 16.7 ms), which parallel(16) would not clearly exceed
// MAX16: 40:3: remark: marked loop left serial: the profile '{{.*}}.profile' says the serial loop already keeps 20.0 accesses in flight (150.0 ms of their latency in 7.5 ms), which parallel(32) would not clearly exceed

// 10 in flight, parallel(1): one iteration at a time was asked for.
int64_t alone(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(1)
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK: 67:3: remark: marked loop left serial: the profile '{{.*}}.profile' says the serial loop already keeps 10.0 accesses in flight (150.0 ms of their latency in 15.0 ms), which parallel(1) would not clearly exceed
