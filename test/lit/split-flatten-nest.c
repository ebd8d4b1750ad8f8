// Tests the pipeline that spans the loop around the marked one
// (split/FlattenNest.cpp): a marked loop of a constant trip count M whose
// enclosing loop only re-runs it becomes one loop of rounds*M iterations,
// with fewer than M in flight; an enclosing loop that does more, or whose
// values the marked loop reads, keeps the pipeline draining at each run.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ADAPT
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -mllvm -memcoro-flatten-nest=false -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SERIAL
#include <stdint.h>

void gups(uint64_t *t, uint64_t *ran, long rounds) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro parallel(64) remote(t)
    for (int j = 0; j < 128; ++j) {
      ran[j] = (ran[j] << 1) ^ ((int64_t)ran[j] < 0 ? 7 : 0);
      t[ran[j] & 4095] ^= ran[j];
    }
  }
}
// REMARK: split-flatten-nest.c:[[@LINE-6]]:5: remark: pipeline spans the loop around this one, which only re-runs it: its runs of 128 iterations are one loop, filled and drained once (fewer than that many iterations in flight)
// REMARK: split-flatten-nest.c:[[@LINE-7]]:5: remark: loop turned into 64 interleaved coroutines: 1 suspension point, pipeline dispatch
// OFF-NOT: spans the loop around
// One loop of rounds*128 iterations, iteration k at j = k mod 128; the outer
// loop's latch leaves after one run.
// CHECK-LABEL: define {{.*}}@gups(
// CHECK: %memcoro.flat.trips = trunc {{.*}}i128
// CHECK: and i64 %{{.*}}, 127

// Run-time N stops below M: up to 127 iterations in flight.
void gups_default(uint64_t *t, uint64_t *ran, long rounds) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro remote(t)
    for (int j = 0; j < 128; ++j) {
      ran[j] = (ran[j] << 1) ^ ((int64_t)ran[j] < 0 ? 7 : 0);
      t[ran[j] & 4095] ^= ran[j];
    }
  }
}
// ADAPT: split-flatten-nest.c:[[@LINE-6]]:5: remark: loop adapts at run time:{{.*}} the number of coroutines is chosen at run time, up to 127,
// Its serial copy runs each window as the nest did: rounds around a loop
// over the round's part, no k mod M per iteration.
// SERIAL-LABEL: define {{.*}}@gups_default(
// SERIAL: memcoro.flat.round:
// SERIAL-NEXT: %memcoro.flat.k0 = phi i64
// SERIAL-NEXT: and i64 %memcoro.flat.k0, 127
// SERIAL: memcoro.flat.round.end:

// Five rounds' worth: fewer than five iterations in flight, whatever the
// pragma asks; a value read in the last phase feeds the next round's first.
void chained(const uint64_t *t, uint64_t *ran, long rounds) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro parallel(64) remote(t)
    for (int j = 0; j < 5; ++j)
      ran[j] = ran[j] * 3 + t[ran[j] & 4095];
  }
}
// REMARK: split-flatten-nest.c:[[@LINE-4]]:5: remark: pipeline spans the loop around this one{{.*}} its runs of 5 iterations are one loop
// REMARK: split-flatten-nest.c:[[@LINE-5]]:5: remark: loop turned into 4 interleaved coroutines: 1 suspension point, pipeline dispatch
// CHECK-LABEL: define {{.*}}@chained(
// CHECK: %memcoro.flat.trips = trunc {{.*}}i128
// CHECK: urem i64 %{{.*}}, 5

void counted(uint64_t *t, uint64_t *ran, long rounds, uint64_t *runs) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro parallel(64) remote(t)
    for (int j = 0; j < 128; ++j)
      t[ran[j] & 4095] += ran[j];
    ++*runs;
  }
}
// REMARK: split-flatten-nest.c:[[@LINE-5]]:5: remark: pipeline fills and drains at each run of this loop, not across the loop around it: the loop around it has other code with effects between the runs of this loop
// REMARK: split-flatten-nest.c:[[@LINE-6]]:5: remark: loop turned into 64 interleaved coroutines

void by_round(uint64_t *t, const uint64_t *ran, long rounds) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro parallel(64) remote(t)
    for (int j = 0; j < 128; ++j)
      t[(ran[j] + i) & 4095] ^= ran[j];
  }
}
// REMARK: split-flatten-nest.c:[[@LINE-4]]:5: remark: pipeline fills and drains at each run of this loop, not across the loop around it: a value the loop around it computes changes from one run of this loop to the next

// Round i + 1 reads in its first phase what round i's iteration j' != j
// wrote in its last: no address of the pair is the same in every round.
void shifted(uint64_t *t, uint64_t *ran, long rounds) {
  for (long i = 0; i < rounds; ++i) {
#pragma memcoro parallel(64) remote(t)
    for (int j = 0; j < 128; ++j)
      t[ran[j] & 4095] = t[t[j] & 4095] + 1;
  }
}
// REMARK: split-flatten-nest.c:[[@LINE-4]]:5: remark: pipeline fills and drains at each run of this loop, not across the loop around it: iterations of different runs of this loop may touch the same memory in different phases
