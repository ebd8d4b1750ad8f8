// A CSR loop over every vertex: LLVM reads off[u + 1] once and hands it to the next iteration as its off[u], a loaded value carried in a phi. Each iteration reads it again from where the previous one read it, and the loop interleaves; a loop that also writes the offsets array keeps the carried value and stays serial.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -mllvm -debug-only=memcoro-split -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
#include <stdint.h>

void pull(const uint64_t *restrict off, const uint32_t *adj, const uint64_t *rank, uint64_t *restrict out, int n) {
#pragma memcoro parallel(8) remote(adj, rank)
  for (int u = 0; u < n; ++u) {
    uint64_t s = 0;
    for (uint64_t e = off[u]; e < off[u + 1]; ++e)
      s += rank[adj[e]];
    out[u] = s;
  }
}
// CHECK: split-carried-load.c:[[@LINE-7]]:3: remark: a value loaded in one iteration and handed to the next (as LLVM hands on off[u + 1] as the next off[u]) is read again by each iteration, from where the previous one read it
// CHECK: split-carried-load.c:[[@LINE-8]]:3: remark: loop turned into 8 interleaved coroutines

// Iteration u + 1 overwrites off[u + 1], which iteration u reads: serial.
void rewrites(uint64_t *restrict off, const uint32_t *adj, const uint64_t *rank, int n) {
#pragma memcoro parallel(8) remote(adj, rank)
  for (int u = 0; u < n; ++u) {
    uint64_t s = 0;
    for (uint64_t e = off[u]; e < off[u + 1]; ++e)
      s += rank[adj[e]];
    off[u] = s;
  }
}
// CHECK-NOT: read again by each iteration
// CHECK: split-carried-load.c:[[@LINE-6]]:{{[0-9]+}}: remark: marked loop left serial: a value is carried from one iteration to the next
// DEBUG: carries {{.*}} to the next iteration; each iteration reads it again
// DEBUG: does not carry a load to read again: the loop may write the memory it is read from
