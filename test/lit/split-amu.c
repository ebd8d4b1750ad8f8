// Tests the AMU code generators (-memcoro-amu, -memcoro-scheduler): each
// suspension issues aloads under the slot's id (an aset group for two far
// addresses), the accesses are then made near, no prefetch is left, and the
// far accesses outside marked loops become synchronous far loads and stores.
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=static -S %t.ll | FileCheck %s --check-prefixes=ALL,STATIC --implicit-check-not=llvm.prefetch --implicit-check-not='load i64, ptr addrspace(1)' --implicit-check-not='atomicrmw add ptr addrspace(1)'
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -memcoro-amu-adapt -S %t.ll | FileCheck %s --check-prefixes=ALL,DYNAMIC --implicit-check-not=llvm.prefetch --implicit-check-not='load i64, ptr addrspace(1)' --implicit-check-not='atomicrmw add ptr addrspace(1)'
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=bafin -S %t.ll | FileCheck %s --check-prefixes=ALL,BAFIN --implicit-check-not=llvm.prefetch --implicit-check-not='load i64, ptr addrspace(1)' --implicit-check-not='atomicrmw add ptr addrspace(1)'
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=dynamic -S %t.ll | FileCheck %s --check-prefix=FIXED
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=bafin -disable-output -pass-remarks=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-scheduler=static -disable-output -pass-remarks=memcoro %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK-STATIC
#include <stdint.h>
#include <memcoro/memcoro.h>

uint64_t gather(const uint64_t __remote *t, const uint32_t *idx, int n) {
  uint64_t s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    s += t[idx[i]];
  return s;
}
// ALL-LABEL: define {{.*}} @gather(
// ALL: [[AMU:%[0-9]+]] = tail call ptr @memcoro_amu__cc_current()
// STATIC: call void @memcoro_amu__cc_wait(ptr [[AMU]], i32 %memcoro.amu.id
// STATIC: load i64, ptr %.restored{{.*}}.near
// DYNAMIC: memcoro.poll:
// DYNAMIC: call i32 @memcoro_amu__cc_getfin(ptr [[AMU]])
// DYNAMIC: memcoro.idle:
// DYNAMIC: call i64 @llvm.umin.i64(i64 %{{.*}}, i64 8)
// BAFIN: memcoro.poll:
// BAFIN-NEXT: [[FIN:%[0-9]+]] = call i64 @memcoro_amu__cc_bafin(ptr [[AMU]])
// BAFIN: lshr i64 [[FIN]], 32
// STATIC: call void @memcoro_amu__cc_aload(ptr [[AMU]], i32 %memcoro.amu.id, ptr nonnull %{{.*}}, ptr %{{.*}}, i64 8, ptr null)
// DYNAMIC: call void @memcoro_amu__cc_aload(ptr [[AMU]], i32 %memcoro.amu.id, ptr nonnull %{{.*}}, ptr %{{.*}}, i64 8, ptr null)
// BAFIN: call void @memcoro_amu__cc_aload(ptr [[AMU]], i32 %memcoro.amu.id, ptr nonnull %{{.*}}, ptr %{{.*}}, i64 8, ptr nonnull inttoptr (i64 1 to ptr))
// DYNAMIC: load i64, ptr %.restored{{.*}}.near
// BAFIN: load i64, ptr %.restored{{.*}}.near
// FIXED-LABEL: define {{.*}} @gather(
// FIXED-NOT: memcoro.idle
// FIXED: call i32 @memcoro_amu__cc_getfin
// FIXED-NOT: memcoro.idle
// FIXED-LABEL: define {{.*}} @two(
// REMARK: remark: {{.*}}loop turned into 8 interleaved coroutines: 1 suspension point, AMU bafin dispatch,
// REMARK-STATIC: remark: {{.*}}loop turned into 8 interleaved coroutines: 1 suspension point, lockstep dispatch (static, through the AMU: aload, then wait),

uint64_t two(const uint64_t __remote *a, const uint64_t __remote *b, const uint32_t *x, int n) {
  uint64_t s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    s += a[x[i]] + b[x[i]];
  return s;
}
// ALL-LABEL: define {{.*}} @two(
// ALL: call void @memcoro_amu__cc_aset(ptr {{%[0-9]+}}, i32 %memcoro.amu.id, i32 2)
// ALL-NEXT: getelementptr
// ALL-NEXT: addrspacecast
// ALL-NEXT: call void @memcoro_amu__cc_aload(
// ALL-NEXT: getelementptr
// ALL-NEXT: addrspacecast
// ALL-NEXT: call void @memcoro_amu__cc_aload(

void count(uint64_t __remote *c, const uint32_t *idx, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    __atomic_fetch_add(&c[idx[i]], 1, __ATOMIC_RELAXED);
}
// ALL-LABEL: define {{.*}} @count(
// ALL: atomicrmw add ptr %.restored{{.*}}.near{{.*}}, i64 1 monotonic

uint64_t outside(const uint64_t __remote *p, uint64_t __remote *q) {
  *q = 1;
  return *p;
}
// ALL-LABEL: define {{.*}} @outside(
// ALL: store i64 1, ptr [[T:%memcoro.far.tmp[0-9]*]]
// ALL-NEXT: call void @memcoro_amu__cc_far_store(ptr %.near{{[0-9]*}}, ptr [[T]], i64 8)
// ALL: call void @memcoro_amu__cc_far_load(ptr [[U:%memcoro.far.tmp[0-9]*]], ptr %.near{{[0-9]*}}, i64 8)
// ALL-NEXT: load i64, ptr [[U]]

// Two fields of one record are one coarse-grained request over their bytes,
// not an aset group of two.
struct rec {
  uint64_t next, value, pad[6];
};
uint64_t fields(const struct rec __remote *r, const uint32_t *x, int n) {
  uint64_t s = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i)
    s += r[x[i]].value * r[x[i]].next;
  return s;
}
// ALL-LABEL: define {{.*}} @fields(
// ALL-NOT: call void @memcoro_amu__cc_aset(
// ALL: call void @memcoro_amu__cc_aload(ptr {{%[0-9]+}}, i32 %memcoro.amu.id, ptr nonnull %{{.*}}, ptr %{{.*}}, i64 16,
// ALL-NOT: call void @memcoro_amu__cc_aload(
