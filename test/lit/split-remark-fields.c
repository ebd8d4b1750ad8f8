// Tests that remarks name what they are about (issue 17, item 12): an array
// reached through a struct's field by its field (`g->offsets`, `g.offsets`
// of a struct passed by value), both accesses of a proven dependence by their
// arrays, and no remark about memcoro's own remote() marker as a call.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: __memcoro_remote_base
#include <stdint.h>
struct graph { int64_t n; int64_t *offsets; int32_t *neigh; };

void degrees(struct graph *g, int64_t *deg, const int32_t *front, int n) {
#pragma memcoro parallel(8) remote(deg)
  for (int i = 0; i < n; i++)
    deg[front[i]] = g->offsets[front[i] + 1] - g->offsets[front[i]];
}
// CHECK: split-remark-fields.c:13:19: remark: assumed, as the pragma asserts, that other iterations do not reach the memory this store to 'deg[...]' writes with the load of 'g->offsets[...]' at {{.*}}split-remark-fields.c:13:21, the load of 'g->offsets[...]' at {{.*}}split-remark-fields.c:13:48, this store of another iteration

void degrees_by_value(struct graph g, int64_t *deg, const int32_t *front, int n) {
#pragma memcoro parallel(8) remote(deg)
  for (int i = 0; i < n; i++)
    deg[front[i]] += g.offsets[front[i] + 1] - g.offsets[front[i]];
}
// CHECK: split-remark-fields.c:20:19: remark: assumed, as the pragma asserts, that other iterations do not reach the memory this store to 'deg[...]' writes with the load of 'g.offsets[...]' at {{.*}}split-remark-fields.c:20:22, the load of 'g.offsets[...]' at {{.*}}split-remark-fields.c:20:48

void shift(int64_t *a, const int *idx, int n) {
#pragma memcoro parallel(8) remote(a)
  for (int i = 0; i < n - 1; i++)
    a[i] = a[i + 1] + a[idx[i]];
}
// CHECK: split-remark-fields.c:27:10: remark: marked loop not interleaved, kept in serial order with prefetches ahead: its iterations depend on each other through memory: the store to 'a[...]' at {{.*}}split-remark-fields.c:27:10 and the load of 'a[...]' at {{.*}}split-remark-fields.c:27:12 touch the same memory in iterations 1 apart, so interleaving them would change the answer
// CHECK-NOT: __memcoro_remote_base
