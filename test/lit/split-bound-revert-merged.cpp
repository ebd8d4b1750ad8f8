// GAP's bottom-up step inlined into the `while` that swaps its bitmaps: the
// step's bound (g.n, which the bitmap stores may alias) is carried by two webs
// of phis in the inlined copy, one for the exit test, one for the next call.
// Evaluated once with only the first web rewired, the second stayed a
// carried value and the copy serial; taking the bound back then touched a
// phi the legality had merged and deleted (the compiler crashed without
// -Rpass). The webs are merged first now, and both copies interleave.
// RUN: %memcoro-cxx -O2 -c %s -o /dev/null
// RUN: %memcoro-cxx -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK-NOT: not interleaved
// CHECK: [[@LINE+15]]:3: remark: loop turned into {{.*}} interleaved coroutines {{.*}} evaluated once before the loop, as OpenMP does [-Rpass
// CHECK-NOT: not interleaved
// CHECK: [[@LINE+13]]:3: remark: loop turned into {{.*}} interleaved coroutines {{.*}} evaluated once before the loop, as OpenMP does [in 'BUBFS', where 'BUStep' is inlined]
// CHECK-NOT: not interleaved
#include <cstdint>
struct Bitmap {
  uint64_t *w;
  void set_bit(long p) { w[p / 64] |= 1ul << (p & 63); }
  bool get_bit(long p) const { return (w[p / 64] >> (p & 63)) & 1; }
};
struct Graph { long n; int **idx; };

long BUStep(const Graph &g, int *parent, Bitmap &front, Bitmap &next) {
  long awake = 0;
#pragma memcoro
  for (int u = 0; u < g.n; u++) {
    if (parent[u] < 0) {
      for (int *p = g.idx[u]; p < g.idx[u + 1]; p++) {
        if (front.get_bit(*p)) {
          parent[u] = *p;
          awake++;
          next.set_bit(u);
          break;
        }
      }
    }
  }
  return awake;
}

void BUBFS(const Graph &g, int *parent, Bitmap &a, Bitmap &b) {
  while (BUStep(g, parent, a, b) > 0) {
    uint64_t *t = a.w; a.w = b.w; b.w = t;
  }
}
