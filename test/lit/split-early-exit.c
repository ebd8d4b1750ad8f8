// Tests early exits (issue 17, item 6): a search loop that only reads memory
// interleaves; every exit joins the iteration's end, which records the lowest
// exiting iteration and lowers the launch limit; after the last slot the
// winner's exit is taken with its values. Lockstep keeps an exit in the last
// phase; an exit before it, or in an inner loop, runs on the ring, which ends
// iterations in turn when a reduction is live. A loop that stores and may
// exit stays serial.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

int find_first(const long *a, const int *idx, int n, long key) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    if (a[idx[i]] == key)
      return i;
  return -1;
}
// REMARK: split-early-exit.c:[[@LINE-5]]:3: remark: loop runs with lockstep dispatch instead of pipeline: an early exit lowers the launch limit under iterations the pipeline's stages have in flight
// REMARK: split-early-exit.c:[[@LINE-6]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, lockstep dispatch, {{.*}}; early exit: the first exiting iteration in iteration order wins, iterations after it leave no effect and no iteration past it is launched (the up to N - 1 already started run their loads, as under omp cancel for: what they read must be readable) [-Rpass=memcoro]
// The exit records iteration k and its i when k is below the lowest so far,
// and limits launches to k + 1; done returns the recorded i, or -1.
// CHECK-LABEL: define {{.*}} @find_first(
// CHECK:       %memcoro.exit.wins.1 = and i1 %cmp3.1, %[[BELOW:[0-9]+]]
// CHECK:       %[[LIMIT:[0-9]+]] = tail call i64 @llvm.umin.i64(i64 %memcoro.limit.0.1, i64 %{{[0-9]+}})
// CHECK:       select i1 %memcoro.exit.wins.1, i64 %[[LIMIT]], i64 %memcoro.limit.0.1
// CHECK:       %[[LOWEST:[0-9]+]] = select i1 %memcoro.exit.wins.1, i64 %memcoro.exit.k.restored.1, i64 %memcoro.exit.iter.0.1
// CHECK:       memcoro.done:
// CHECK-NEXT:  %memcoro.exited.not = icmp eq i64 %[[LOWEST]], -1
// CHECK:       ret i32

long chain_sum(long **heads, const long *keys, int n, long stop) {
  long total = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    for (long *e = heads[keys[i] & 1023]; e; e = (long *)e[1]) {
      if (e[0] == stop)
        goto out;
      total += e[2];
    }
out:
  return total;
}
// REMARK: split-early-exit.c:[[@LINE-9]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}ring dispatch{{.*}}; early exit: the first exiting iteration in iteration order wins, iterations after it leave no effect and no iteration past it is launched (the up to N - 1 already started run their loads, as under omp cancel for: what they read must be readable) (iterations end in iteration order, for the reductions)
// CHECK-LABEL: define {{.*}} @chain_sum(
// CHECK:       memcoro.turn
// CHECK:       memcoro.counts

void mark_until(long *seen, const long *a, const int *idx, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    if (a[idx[i]] < 0)
      break;
    seen[i] = a[idx[i]];
  }
}
// REMARK: split-early-exit.c:[[@LINE-3]]:13: remark: marked loop not interleaved, kept in serial order with prefetches ahead: the loop has an early exit (break, return or goto out of the loop at {{.*}}split-early-exit.c:[[@LINE-5]]:{{[0-9]+}}) and writes memory at {{.*}}split-early-exit.c:[[@LINE-3]]:13: interleaved, iterations after the exiting one could store before the exit is known; a loop that only reads memory interleaves with an early exit
