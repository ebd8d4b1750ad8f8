// A test of the loop's own element followed by a store to it (GAP's bottom-up
// step: `if (parent[u] < 0) ... parent[u] = v`) is no first-writer-wins claim:
// no other iteration reads or writes parent[u], so the test need not run in
// iteration order (issue 17, item 5). A claim of another iteration's element
// (`parent[v]`, the top-down step) still runs in order.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -mllvm -debug-only=memcoro-split -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
#include <stdint.h>

int64_t bottom_up(int64_t n, const int64_t *index, const int32_t *neighs, int32_t *parent, const uint64_t *front) {
  int64_t awake = 0;
#pragma memcoro parallel(8)
  for (int32_t u = 0; u < n; u++) {
    if (parent[u] < 0) {
      for (int64_t e = index[u]; e < index[u + 1]; e++) {
        int32_t v = neighs[e];
        if ((front[v >> 6] >> (v & 63)) & 1) {
          parent[u] = v;
          awake++;
          break;
        }
      }
    }
  }
  return awake;
}
// CHECK-NOT: first-writer-wins
// CHECK: split-own-slot-claim.c:[[@LINE-15]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{[0-9]+}} bytes of context per slot [-Rpass=memcoro]
// DEBUG: memcoro-split: test of the iteration's own element{{.*}}needs no order

void top_down(int64_t m, const int32_t *frontier, const int64_t *index, const int32_t *neighs, int32_t *parent) {
#pragma memcoro parallel(8)
  for (int64_t i = 0; i < m; i++) {
    int32_t u = frontier[i];
    for (int64_t e = index[u]; e < index[u + 1]; e++) {
      int32_t v = neighs[e];
      if (parent[v] < 0)
        parent[v] = u;
    }
  }
}
// CHECK: split-own-slot-claim.c:[[@LINE-9]]:3: remark: loop turned into a prefetching loop in serial order{{.*}}first-writer-wins test must run in iteration order
