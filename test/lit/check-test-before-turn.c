// -fmemcoro-check and a first-writer-wins test read before the iteration's turn (-memcoro-test-before-turn): iterations read parent[v] while earlier ones may still claim it, which is no inversion, as the claim reads it again in turn: the BFS level reports nothing (split-test-before-turn.ll checks that the early read is not reported).
// RUN: %memcoro-cc -fno-memcoro-cost-model -O2 -fmemcoro-check -mllvm -memcoro-test-before-turn -Rpass=memcoro %s -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t 2>&1 | FileCheck %s
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { V = 512, F = 64 };
  int32_t *offsets = malloc(sizeof *offsets * (V + 1));
  offsets[0] = 0;
  for (int v = 0; v < V; ++v) offsets[v + 1] = offsets[v] + v % 7;
  int32_t *edges = malloc(sizeof *edges * (offsets[V] + 1));
  for (int e = 0; e < offsets[V]; ++e) edges[e] = (e * 37) % V;
  int64_t *parent = malloc(sizeof *parent * V);
  for (int v = 0; v < V; ++v) parent[v] = -1;
  uint32_t frontier[F];
  int32_t next[V];
  for (int i = 0; i < F; ++i) frontier[i] = (i * 13) % V;
  size_t nnext = 0;
#pragma memcoro parallel(16) remote(offsets, edges, parent)
  for (int i = 0; i < F; ++i) {
    uint32_t u = frontier[i];
    for (int32_t e = offsets[u]; e < offsets[u + 1]; ++e) {
      int32_t v = edges[e];
      if (parent[v] < 0) {
        parent[v] = u;
        next[nnext++] = v;
      }
    }
  }
  long sum = 0;
  for (size_t k = 0; k < nnext; ++k) sum += next[k] * (long)(k + 1) + parent[next[k]];
  printf("claimed %zu %ld\n", nnext, sum);
  return 0;
}
// REMARK: remark: first-writer-wins test runs in iteration order, so the first iteration in serial order wins (ring dispatch: an iteration tests before its turn, and waits for it only to claim a free location, which it tests again then)
// CHECK-NOT: memcoro-check
// CHECK: claimed
// CHECK-NOT: memcoro-check
