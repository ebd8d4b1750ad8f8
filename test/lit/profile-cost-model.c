// -fmemcoro-profile-use after the cost model: a profile's samples overrule the model where it guessed where the data lives (a table that fits in the cache, but misses), not where it says the hardware overlaps the access (a stream the prefetcher serves, whose samples show latency the serial loop never waits for: lbm).
// RUN: printf 'memcoro-profile 1\nmiss-threshold-ns 20.0\n' > %t.profile
// RUN: echo 'site stream 24:3 load 25:10 0 5000 1000000 0.2000 12.0 40.0' >> %t.profile
// RUN: echo 'loop stream 24:3 1 100000000' >> %t.profile
// RUN: echo 'site cached 37:3 load 38:10 0 5000 1000000 0.9000 150.0 160.0' >> %t.profile
// RUN: echo 'loop cached 37:3 1 100000000' >> %t.profile
// RUN: echo 'site rarely 48:3 load 49:10 0 5000 1000000 0.0000 0.5 0.0' >> %t.profile
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATIC
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -fmemcoro-profile-use=%t.profile \
// RUN:   -c %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: warning
#include <stddef.h>
#include <stdint.h>

// STATIC: 25:10: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}25:10: an affine stream
// CHECK-NOT: 25:10: remark: suspension point kept
// CHECK: 25:10: remark: no suspension at this load: an affine stream the hardware prefetcher serves
// CHECK: 25:10: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}25:10: an affine stream
int64_t stream(const int64_t *a, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16) remote(a)
  for (size_t i = 0; i < n; ++i)
    s += a[i];
  return s;
}

int64_t table[1 << 20];

// STATIC: 38:10: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}38:10: into an object of 8 MiB
// CHECK: 38:10: remark: suspension point kept: the profile says this load takes 150.0 ns
// CHECK: 37:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point
int64_t cached(const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += table[ix[i]];
  return s;
}

// STATIC: 49:10: remark: marked loop left serial: no access in the loop is worth a suspension: {{.*}}49:10: into an object of 8 MiB
// CHECK: 49:10: remark: not a suspension point: the profile says this load takes 0.5 ns
// CHECK: 49:10: remark: marked loop left serial: no access in the loop is worth a suspension
int64_t rarely(const uint32_t *ix, size_t n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (size_t i = 0; i < n; ++i)
    s += table[ix[i]];
  return s;
}
