// A visited bitmap's bit test and a visited flag that guards other writes are
// first-writer-wins claims (split/ClaimTests.cpp): the test runs in iteration
// order and the remark says so; a lone flag set with nothing behind it is
// not (whoever sets it, the flag ends set). A plain read of a location before
// an atomic update of it (PKC's k-core peeling) is no read-modify-write split
// by a yield: the loop interleaves.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

// CHECK: split-claim-tests.c:[[# @LINE + 5]]:3: remark: loop turned into a prefetching loop in serial order: {{.*}}'visited[...]'{{.*}}; its first-writer-wins test must run in iteration order
void bitmap(const int64_t *xoff, const int64_t *xadj, uint64_t *visited, int64_t *tree, int64_t *vlist,
            int64_t k1, int64_t *k2p) {
  int64_t k2 = *k2p, oldk2 = k2;
#pragma memcoro parallel(8)
  for (int64_t k = k1; k < oldk2; ++k) {
    const int64_t v = vlist[k];
    for (int64_t vo = xoff[2 * v]; vo < xoff[2 * v + 1]; ++vo) {
      const int64_t j = xadj[vo];
      if (!(visited[j >> 6] & (1ull << (j & 63)))) {
        visited[j >> 6] |= 1ull << (j & 63);
        tree[j] = v;
        vlist[k2++] = j;
      }
    }
  }
  *k2p = k2;
}

// CHECK: split-claim-tests.c:[[# @LINE + 5]]:3: remark: loop turned into a prefetching loop in serial order: {{.*}}; its first-writer-wins test must run in iteration order
void flags(const int64_t *xadj, unsigned char *seen, int64_t *tree, const int64_t *frontier, int64_t *next,
           int64_t n, int64_t *np) {
  int64_t m = 0;
#pragma memcoro parallel(8)
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = xadj[frontier[i]];
    if (!seen[j]) {
      seen[j] = 1;
      tree[j] = i;
      next[m++] = j;
    }
  }
  *np = m;
}

// CHECK: split-claim-tests.c:[[# @LINE + 4]]:3: remark: loop turned into 8 interleaved coroutines: 2 suspension points, pipeline dispatch
int64_t lone_flag(const int64_t *xadj, unsigned char *seen, const int64_t *frontier, int64_t n) {
  int64_t fresh = 0;
#pragma memcoro parallel(8)
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = xadj[frontier[i]];
    if (!seen[j]) {
      seen[j] = 1;
      ++fresh;
    }
  }
  return fresh;
}

// CHECK: split-claim-tests.c:[[# @LINE + 5]]:3: remark: loop turned into 8 interleaved coroutines: 3 suspension points, ring dispatch
void peel(const int64_t *off, const uint32_t *adj, int *deg, uint32_t *buff, long start, long stop, long *endp,
          int level) {
  long end = *endp;
#pragma memcoro parallel(8)
  for (long i = start; i < stop; i++) {
    uint32_t v = buff[i];
    for (int64_t j = off[v]; j < off[v + 1]; j++) {
      uint32_t u = adj[j];
      if (deg[u] > level) {
        int du = __sync_fetch_and_sub(&deg[u], 1);
        if (du == level + 1)
          buff[end++] = u;
        if (du <= level)
          __sync_fetch_and_add(&deg[u], 1);
      }
    }
  }
  *endp = end;
}
