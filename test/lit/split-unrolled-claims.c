// Several first-writer-wins tests on one array in an iteration (a claim in a
// fixed-degree neighbour loop that the unroller copied) cannot be run in
// iteration order one test at a time: the loop stays serial and the remark
// names the test and the other write (issue 11).
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

// CHECK: split-unrolled-claims.c:[[# @LINE + 7]]:22: remark: marked loop left serial: a first-writer-wins test (the load {{.*}}at {{.*}}split-unrolled-claims.c:[[# @LINE + 7]]:22) is not the only write to its array in an iteration (also written at {{.*}}split-unrolled-claims.c:[[# @LINE + 9]]:{{[0-9]+}}
void claim_three(const int32_t *adj, int32_t *parent, const int32_t *frontier, int n) {
#pragma memcoro parallel(8) remote(parent)
  for (int i = 0; i < n; ++i) {
    int32_t u = frontier[i];
    for (int k = 0; k < 3; ++k) {
      int32_t v = adj[u * 3 + k];
      int32_t curr = parent[v];
      if (curr < 0)
        parent[v] = u;
    }
  }
}

// One claim per iteration is ordered, as before.
// CHECK: split-unrolled-claims.c:[[# @LINE + 3]]:3: remark: loop turned into 8 interleaved coroutines
void claim_one(const int32_t *adj, int32_t *parent, const int32_t *frontier, int n) {
#pragma memcoro parallel(8) remote(parent)
  for (int i = 0; i < n; ++i) {
    int32_t v = adj[frontier[i]];
    if (parent[v] < 0)
      parent[v] = i;
  }
}
