// Tests that an inner loop's stream whose start a suspended load reads
// (index[v], then v's list) gets a suspension where the inner loop is entered,
// prefetching the list's first two lines, while its own loads stay on the
// hardware prefetcher; and that -memcoro-stream-starts=false leaves it out.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -mllvm -memcoro-stream-starts=false -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
void two_hop(const long *index, const int *neigh, long *out, int n) {
#pragma memcoro parallel(8)
  for (int u = 0; u < n; ++u) {
    long sum = 0;
    for (long e = index[u]; e < index[u + 1]; ++e) {
      int v = neigh[e];
      for (const int *w = neigh + index[v], *end = neigh + index[v + 1]; w < end; ++w)
        sum += *w;
    }
    out[u] = sum;
  }
}
// CHECK: remark: no suspension at this load: an affine stream the hardware prefetcher serves
// CHECK: remark: loop turned into 8 interleaved coroutines: 2 suspension points
// OFF: remark: loop turned into 8 interleaved coroutines: 1 suspension point,
// The list's start and the line after it, prefetched before the yield.
// IR: call void @llvm.prefetch.p0(ptr {{%[^ ]+}}, i32 0, i32 3, i32 1)
// index[v + 1] may begin the next line (8-byte elements): a prefetch of its own.
// IR-NEXT: call void @llvm.prefetch.p0(ptr {{%[^ ]+}}, i32 0, i32 3, i32 1)
// IR: call void @llvm.prefetch.p0(ptr [[START:%[^ ]+]], i32 0, i32 3, i32 1)
// IR-NEXT: [[NEXT:%[^ ]+]] = getelementptr i8, ptr [[START]], i64 64
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[NEXT]], i32 0, i32 3, i32 1)
