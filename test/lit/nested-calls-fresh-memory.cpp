// A callee that works on memory the iteration allocated itself (LDBC label
// propagation sorts each vertex's neighbour labels in a vector it has just
// filled) runs in place: its loads are near the core, and copied in as a
// nested coroutine, libstdc++'s insertion sort gave the loop 21 suspension
// points where 4 miss. A callee given the loop's far data is still copied in.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <algorithm>
#include <cstdint>
#include <vector>

void most_common(const uint64_t *labels, const int *off, const int *neigh, uint64_t *out, int n) {
#pragma memcoro parallel(8)
  for (int v = 0; v < n; v++) {
    std::vector<uint64_t> seen;
    seen.reserve(off[v + 1] - off[v]);
    for (int k = off[v]; k < off[v + 1]; k++)
      seen.push_back(labels[neigh[k]]);
    if (seen.empty()) {
      out[v] = 0;
      continue;
    }
    std::sort(seen.begin(), seen.end());
    out[v] = seen[seen.size() / 2];
  }
}
// CHECK-DAG: remark: callee '{{.*}}__final_insertion_sort{{.*}}' works on memory the iteration allocated itself, which is near the core: it runs in place, and the iteration does not suspend inside it
// CHECK-DAG: nested-calls-fresh-memory.cpp:[[@LINE-14]]:3: remark: loop turned into 8 interleaved coroutines: {{[1-4]}} suspension point
// CHECK-NOT: __final_insertion_sort{{.*}}' copied into the marked loop

struct node {
  uint64_t key;
  node *next;
};
__attribute__((noinline)) static uint64_t chain_length(const node *n) {
  uint64_t len = 0;
  for (; n; n = n->next)
    len++;
  return len;
}
void lengths(node *const *heads, const uint32_t *idx, uint64_t *out, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; i++)
    out[i] = chain_length(heads[idx[i]]);
}
// CHECK: remark: callee 'chain_length(node const*)' copied into the marked loop
