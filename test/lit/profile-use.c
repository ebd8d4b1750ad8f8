// -fmemcoro-profile-use: a candidate the profile says rarely misses stays a plain load (the mixed loop of issue 13 keeps one suspension point of two), a loop whose candidates all hit stays serial, a candidate with too few samples keeps the static choice, a loop whose serial run already kept enough misses in flight stays serial, and every verdict is a remark with the profile's numbers.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: printf 'memcoro-profile 1\nmiss-threshold-ns 20.0\n# a comment\n' > %t.profile
// RUN: echo 'site mixed 28:3 load 29:10 0 31222 1000000 0.0001 0.1 126.9' >> %t.profile
// RUN: echo 'site mixed 28:3 load 29:23 0 31175 1000000 0.9791 167.0 170.6' >> %t.profile
// RUN: echo 'site hits 39:3 load 40:10 0 5000 1000000 0.0000 0.4 0.0' >> %t.profile
// RUN: echo 'site few 49:3 load 50:10 0 3 1000000 0.0000 0.4 0.0' >> %t.profile
// RUN: echo 'site update 58:3 load 59:14 0 5000 1000000 0.0000 0.4 0.0' >> %t.profile
// RUN: echo 'site update 58:3 store 59:14 0 5000 1000000 0.9000 150.0 160.0' >> %t.profile
// RUN: echo 'site overlapped 68:3 load 69:10 0 5000 1000000 0.9500 150.0 157.0' >> %t.profile
// RUN: echo 'loop overlapped 68:3 1 10000000' >> %t.profile
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -fmemcoro-profile-use=%t.profile -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -### -fmemcoro-profile-use=%t.profile -c %s 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: %memcoro-cc -### -fmemcoro-profile-use=%t.profile -fno-memcoro-profile-use -c %s 2>&1 | FileCheck %s --check-prefix=OFF

// STATIC: 28:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points
// FLAGS: "-debug-info-kind=line-tables-only"
// FLAGS-SAME: "-mllvm" "-memcoro-profile-use={{.*}}.profile"
// OFF-NOT: memcoro-profile

// CHECK-NOT: warning
#include <stddef.h>
#include <stdint.h>

int64_t mixed(const int64_t *hot, const int64_t *cold, const uint32_t *ix, const uint32_t *iy, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += hot[ix[i]] * cold[iy[i]];
  return s;
}
// CHECK: 29:10: remark: not a suspension point: the profile says this load takes 0.1 ns beyond an L1 hit on average (31222 samples, 0.01% of them cache misses of 126.9 ns): less than what a suspension costs (2.0 ns); it stays a plain load
// CHECK: 29:23: remark: suspension point kept: the profile says this load takes 167.0 ns beyond an L1 hit on average (31175 samples, 97.9% of them cache misses of 170.6 ns): at least what a suspension costs (2.0 ns)
// CHECK: 28:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point, pipeline dispatch

int64_t hits(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK: 40:10: remark: not a suspension point: the profile says this load takes 0.4 ns beyond an L1 hit on average (5000 samples
// CHECK: 39:3: remark: marked loop left serial: the profile '{{.*}}.profile' says its accesses rarely miss in the cache: no suspension would pay for its switch

int64_t few(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK: 50:10: remark: the profile has 3 samples of this load, fewer than 16: memcoro's own choice stands
// CHECK: 49:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point

void update(int64_t *h, const uint32_t *ix, size_t n) {
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    h[ix[i]] += 1;
}
// CHECK: 59:14: remark: not a suspension point: the profile says this load takes 0.4 ns beyond an L1 hit on average (5000 samples
// CHECK: 59:14: remark: not a suspension point: this store touches the line the load at {{.*}}profile-use.c:59:14 reads just before, which the profile says rarely misses
// CHECK: 58:3: remark: marked loop left serial: the profile

int64_t overlapped(const int64_t *t, const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += t[ix[i]];
  return s;
}
// CHECK: 69:10: remark: suspension point kept: the profile says this load takes 150.0 ns beyond an L1 hit on average (5000 samples
// CHECK: 68:3: remark: marked loop left serial: the profile '{{.*}}.profile' says the serial loop already keeps 15.0 accesses in flight (150.0 ms of their latency in 10.0 ms), which parallel(16) would not clearly exceed
