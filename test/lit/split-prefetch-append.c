// An append inside an inner loop holds the turn from its first use to the
// iteration's end, so interleaved iterations would wait behind a long
// neighbour list (bc's forward step, bench/programs/bc.cpp): the loop is kept
// in serial order with prefetches ahead (split/PrefetchAhead.cpp), as bfs's
// claim is. An append in the loop's own body keeps its ring.
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -mllvm -memcoro-prefetch-ahead=0 2>&1 | %FileCheck %s --check-prefix=OFF
#include <stddef.h>
#include <stdint.h>

// REMARK: split-prefetch-append.c:[[#@LINE+20]]:3: remark: loop turned into a prefetching loop in serial order: prefetching 'offsets[...]' 32 iterations ahead, 'adj[...]' 16 iterations ahead (through 2 loads ahead), 'depth[...]' 64 iterations ahead in the inner loop; its append must run in iteration order, and interleaved iterations would wait behind long ones for their turn
// REMARK: split-prefetch-append.c:[[#@LINE+32]]:3: remark: loop turned into 16 interleaved coroutines
// OFF: split-prefetch-append.c:[[#@LINE+18]]:3: remark: loop turned into 16 interleaved coroutines
// IR-LABEL: define {{.*}} @next_level(
// depth[adj[e + 64]] in the inner loop, up to its last element (depth[] is
// not the bound's type: the bound is read once).
// IR: [[VA:%.*]] = getelementptr i8, ptr {{%.*}}, i64 256
// IR-NEXT: [[PAST:%.*]] = icmp ugt ptr [[VA]], {{%.*}}
// IR-NEXT: br i1 [[PAST]], label %{{.*}}, label %[[AHEAD:.*]]
// IR: [[AHEAD]]:
// IR-NEXT: [[W:%.*]] = load i32, ptr [[VA]], align 1
// IR-NEXT: [[WX:%.*]] = zext i32 [[W]] to i64
// IR-NEXT: [[DP:%.*]] = getelementptr i32, ptr %2, i64 [[WX]]
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[DP]], i32 0, i32 3, i32 1)
// IR-NOT: memcoro.slots
// IR-LABEL: {{^}}}
size_t next_level(const uint64_t *offsets, const uint32_t *adj, const int32_t *depth, const uint32_t *frontier,
                  size_t nfrontier, uint32_t *next, int32_t d) {
  size_t nnext = 0;
#pragma memcoro parallel(16) remote(offsets, adj, depth)
  for (size_t i = 0; i < nfrontier; ++i) {
    const uint32_t u = frontier[i];
    for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e)
      if (depth[adj[e]] == d)
        next[nnext++] = adj[e];
  }
  return nnext;
}

// No inner loop: the turn is held only for the append itself.
size_t pick(const uint32_t *key, const int32_t *depth, size_t n, uint32_t *out, int32_t d) {
  size_t m = 0;
#pragma memcoro parallel(16) remote(depth)
  for (size_t i = 0; i < n; ++i)
    if (depth[key[i]] == d)
      out[m++] = key[i];
  return m;
}
