// Tests that a loop bound read through memory a store in the body may alias
// (a member bound, the end of a range) is evaluated once, before the loop, as
// OpenMP evaluates the bound of a canonical loop; the remark says so. A loop
// that stays serial for another reason keeps its bound as the user wrote it.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
#include <cstdint>

struct Graph {
  int64_t n_;
  int64_t num_nodes() const { return n_; }
};

void step(const Graph &g, int64_t *parent, const int64_t *t, const int32_t *idx) {
#pragma memcoro parallel(8)
  for (int64_t u = 0; u < g.num_nodes(); u++)
    parent[u] = t[idx[u]];
}
// REMARK: split-bound-once.cpp:[[@LINE-3]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}; its bound, read through memory, evaluated once before the loop, as OpenMP does
// CHECK-LABEL: define {{.*}} @_Z4stepRK5GraphPlPKlPKi(
// CHECK:       %{{.*}}.once = load i64, ptr %g
// CHECK:       memcoro.stage.1:

// The early exit keeps this loop in serial order, with its bound as written
// (nothing of the attempt is left) and t[idx[u]] prefetched ahead within the
// page of idx[u], as the bound may change.
int64_t find(const Graph &g, int64_t *parent, const int64_t *t, const int32_t *idx) {
#pragma memcoro parallel(8)
  for (int64_t u = 0; u < g.num_nodes(); u++) {
    if (t[idx[u]] < 0)
      return u;
    parent[u] = t[idx[u]];
  }
  return -1;
}
// REMARK: split-bound-once.cpp:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop not interleaved, kept in serial order with prefetches ahead: the loop has an early exit
// CHECK-LABEL: define {{.*}} @_Z4findRK5GraphPlPKlPKi(
// CHECK-NOT:   .once
// CHECK-NOT:   memcoro.stage
// CHECK:       %memcoro.ahead.inpage = icmp ult i64
// CHECK:       call void @llvm.prefetch
// CHECK-NOT:   .once
// CHECK-NOT:   memcoro.stage
// CHECK:       ret i64
