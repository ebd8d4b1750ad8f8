// Tests GAP's frontier loop with GAP's QueueBuffer (the suite's, bench/programs/graph.h), whose flush (inlined into
// the loop on the rare path where the buffer is full) claims its slice of the
// shared queue with an atomic add. After the atomic the compiler reads both
// parts of queue.end() (the array and the window's end) again, through phis;
// the bound built from them is evaluated once, before the loop, and the flush
// after the loop reads the array from memory at the loop's exit.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
#include "../../bench/programs/graph.h"

int64_t step(const int64_t *offsets, const int32_t *adj, int32_t *parent, SlidingQueue<int32_t> &queue) {
  int64_t scouts = 0;
  QueueBuffer<int32_t> lqueue(queue);
#pragma memcoro parallel(8)
  for (auto q_iter = queue.begin(); q_iter < queue.end(); q_iter++) {
    int32_t u = *q_iter;
    for (int64_t e = offsets[u]; e < offsets[u + 1]; e++) {
      int32_t v = adj[e];
      int32_t curr_val = parent[v];
      if (curr_val < 0 && __sync_bool_compare_and_swap(&parent[v], curr_val, u)) {
        lqueue.push_back(v);
        scouts += -curr_val;
      }
    }
  }
  lqueue.flush();
  return scouts;
}
// REMARK: split-bound-atomic-flush.cpp:[[@LINE-14]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}; its bound, read through memory, evaluated once before the loop, as OpenMP does
// REMARK-NOT: left serial
// The flush after the loop reads the queue's array at the exit, then claims its slice:
// CHECK-LABEL: define {{.*}} @_Z4stepPKlPKiPiR12SlidingQueueIiE(
// CHECK:       [[ARRAY:%.*\.read]] = load ptr, ptr %queue
// CHECK:       [[START:%.*]] = atomicrmw add ptr %shared_in
// CHECK:       getelementptr inbounds i32, ptr [[ARRAY]], i64 [[START]]
// CHECK:       memcoro.sched:
// CHECK:       memcoro.resume.1:
