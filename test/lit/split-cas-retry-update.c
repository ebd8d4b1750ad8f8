// A compare-and-swap retried from the value it read until it succeeds or is
// no longer wanted (GAP's SSSP relaxation: `while (new_dist < old_dist) { if
// (cas(&dist[v], old_dist, new_dist)) break; old_dist = dist[v]; }`) takes no
// lock: nothing is held after it, so the iteration may suspend around it. Under
// -fsanitize=undefined it stays a loop of its own inside the marked loop, and
// was taken for a spin lock: every far access "under the lock", the loop
// serial (issue 17, item 8). A spin lock on a constant is still one.
// RUN: %memcoro-cc -O2 -fsanitize=undefined -fno-memcoro-adapt -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

struct wnode {
  int32_t v, w;
};

void relax(int32_t n, const int64_t *index, const struct wnode *neighs, int32_t *dist) {
#pragma memcoro parallel(8)
  for (int32_t u = 0; u < n; u++) {
    int32_t du = dist[u];
    for (int64_t e = index[u]; e < index[u + 1]; e++) {
      int32_t new_dist = du + neighs[e].w;
      int32_t old_dist = dist[neighs[e].v];
      while (new_dist < old_dist) {
        if (__sync_bool_compare_and_swap(&dist[neighs[e].v], old_dist, new_dist))
          break;
        old_dist = dist[neighs[e].v];
      }
    }
  }
}
// CHECK-NOT: lock
// CHECK: split-cas-retry-update.c:[[@LINE-14]]:3: remark: loop turned into 8 interleaved coroutines

void locked_add(int64_t m, const int32_t *idx, int64_t *table, int32_t *locks) {
#pragma memcoro parallel(8)
  for (int64_t i = 0; i < m; i++) {
    int32_t k = idx[i];
    while (!__sync_bool_compare_and_swap(&locks[k & 1023], 0, 1))
      ;
    table[k] += i;
    __atomic_store_n(&locks[k & 1023], 0, __ATOMIC_RELEASE);
  }
}
// The spin lock keeps its far access (table[k]) unsuspended, the one
// suspension before the lock is taken.
// CHECK: split-cas-retry-update.c:[[@LINE-10]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point,
