// Tests the lock table (CoroAMU III-E): a commutative update of memory whose
// read and write a suspension separates (two h[k] += 1 that GVN and DSE merge
// across a dependent load chain) is interleaved under ring dispatch, its load
// waiting while another slot holds the address and its store releasing it. A
// split read-modify-write that is no commutative update stays serial.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

void merged_updates(long *restrict h, const long *restrict t0, const long *restrict t1, const int *restrict idx,
                    long *restrict out, int n) {
#pragma memcoro parallel(4)
  for (int i = 0; i < n; ++i) {
    h[idx[i] & 255] += 1;
    long v = t0[t1[idx[i] & 4095] & 4095];
    h[idx[i] & 255] += 1;
    out[i] = v;
  }
}
// REMARK: split-lock-table.c:[[@LINE-7]]:3: remark: loop turned into 4 interleaved coroutines: {{.*}}ring dispatch{{.*}}; a read-modify-write split by a suspension kept whole by a lock table
// CHECK-LABEL: define {{.*}} @merged_updates(
// CHECK:       %memcoro.locks = alloca [1024 x i32]
// CHECK:       call void @llvm.memset.p0.i64(ptr {{.*}}%memcoro.locks, i8 0, i64 4096
// CHECK:       %memcoro.lock.holder = load i32
// CHECK:       icmp eq i32 %memcoro.lock.holder, 0
// CHECK:       memcoro.retry.1:
// CHECK:       store i32 0, ptr

void not_commutative(long *restrict h, long *restrict g, const long *restrict t0, const long *restrict t1,
                     const int *restrict idx, long *restrict out, int n) {
#pragma memcoro parallel(4)
  for (int i = 0; i < n; ++i) {
    long old = h[idx[i] & 255];
    long v = t0[t1[idx[i] & 4095] & 4095];
    h[idx[i] & 255] = old * 3 + v;
    h[(idx[i] >> 8) & 255] += 1;
    out[i] = v;
  }
}
// REMARK: split-lock-table.c:{{[0-9]+}}:{{[0-9]+}}: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a read-modify-write of one memory location would be split by a suspension point, so another iteration could update the location in between
