// -fmemcoro-check forgets the bytes of a block operator delete frees: containers local to the body (a std::vector grown by push_back, a std::priority_queue, a vector of over-aligned elements, which the aligned operator new and delete serve) get the blocks earlier-finishing iterations freed, which was reported as a dependence between iterations that share nothing.
// The arrays are tiny: -fno-memcoro-cost-model keeps the cost model from leaving the loops serial.
// RUN: %memcoro-cxx -fno-memcoro-cost-model -O2 -fmemcoro-check %s -o %t.1 && %t.1 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-cost-model -O2 -fmemcoro-check -DQUEUE %s -o %t.2 && %t.2 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-cost-model -O2 -fmemcoro-check -DALIGNED %s -o %t.3 && %t.3 2>&1 | FileCheck %s
#include <cstdio>
#include <queue>
#include <vector>

struct alignas(64) Line {
  long v;
};

int main() {
  enum { M = 64 };
  std::vector<long> t(64), out(M);
  std::vector<int> idx(M), len(M);
  for (int i = 0; i < M; i++) {
    idx[i] = (i * 5) % 64;
    len[i] = 1 + (i * 7) % 5;
    t[i] = i;
  }
#pragma memcoro parallel(8) remote(t)
  for (int i = 0; i < M; i++) {
#if defined(QUEUE)
    std::priority_queue<long> local;
    for (int j = 0; j < len[i]; j++)
      local.push(t[t[idx[(i + j) % M]] % 64]);
    out[i] = local.top();
#elif defined(ALIGNED)
    std::vector<Line> local;
    for (int j = 0; j < len[i]; j++)
      local.push_back({t[t[idx[(i + j) % M]] % 64]});
    out[i] = local.back().v + local.front().v;
#else
    std::vector<long> local;
    for (int j = 0; j < len[i]; j++)
      local.push_back(t[t[idx[(i + j) % M]] % 64]);
    out[i] = local.back() + local.front();
#endif
  }
  long h = 0;
  for (long v : out)
    h = h * 31 + v;
  std::printf("sum %ld\n", h);
  return 0;
}
// CHECK-NOT: memcoro-check
// CHECK: sum
