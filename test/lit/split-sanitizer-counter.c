// Under -fsanitize=undefined an `int` counter against a 64-bit bound (`for (int u = 0; u < g->n; u++)`, GAP's NodeID loops) is stepped by the overflow check's sum, which may wrap to scalar evolution: no trip count. In the latch it steps with `add nsw` beside the check and the bound is compared with `sext(u) + 1`, as without the sanitizer, and the loop interleaves (split/SanitizerChecks.cpp; issue 17, item 8: pr, cc, tc, sssp). The check and its report stay.
// RUN: %memcoro-cc -O2 -fsanitize=undefined -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fsanitize=undefined -fno-memcoro-cost-model -mllvm -debug-only=memcoro-split -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: %memcoro-cc -O2 -fsanitize=undefined -fno-memcoro-cost-model -S -emit-llvm -c %s -o - | FileCheck %s --check-prefix=IR
#include <stdint.h>

struct graph {
  int64_t n;
  const int64_t *index;
};
extern int64_t T[4096];

void degrees(const struct graph *g, int64_t *out) {
#pragma memcoro parallel(8)
  for (int u = 0; u < g->n; u++)
    out[u] = T[g->index[u] & 4095];
}
// CHECK-NOT: cannot be computed
// CHECK: split-sanitizer-counter.c:[[@LINE-4]]:3: remark: loop turned into 8 interleaved coroutines
// DEBUG: memcoro-split: the checked counter {{.*}} steps without wrapping
// IR: call void @__ubsan_handle_add_overflow
