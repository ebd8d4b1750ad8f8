// A counter picked by the data and incremented, whose old value places the
// iteration (a radix partitioning scatter, a counting sort's ranks), is an
// append: from its read on the iteration runs in iteration order
// (split/CursorAppend.cpp). An increment whose old value is not otherwise used
// stays a commutative update, and the iteration's own counter needs no order.
// A compare-and-swap retried with the root found again (a union-find's hook)
// is no spin lock: the loop interleaves.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

typedef struct { uint32_t key, payload; } tuple_t;

// CHECK: split-cursor-append.c:[[# @LINE + 6]]:{{[0-9]+}}: remark: append through a counter in memory runs in iteration order, from this read of the counter to the iteration's end
// CHECK: split-cursor-append.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: {{.*}}1 run in iteration order
void scatter(const tuple_t *in, tuple_t *out, uint32_t *dst, long n) {
#pragma memcoro parallel(16) remote(in, out) insist
  for (long i = 0; i < n; i++) {
    uint32_t idx = in[i].key & 4095;
    out[dst[idx]] = in[i];
    ++dst[idx];
  }
}

// CHECK: split-cursor-append.c:[[# @LINE + 5]]:{{[0-9]+}}: remark: append through a counter in memory runs in iteration order
// CHECK: split-cursor-append.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: {{.*}}1 run in iteration order
void ranks(const uint32_t *key, uint32_t *cnt, uint32_t *rank, long n) {
#pragma memcoro parallel(16) remote(key, cnt) insist
  for (long i = 0; i < n; i++)
    rank[i] = cnt[key[i]]++;
}

// CHECK: split-cursor-append.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: {{[^,]*}}, {{[a-z]+}} dispatch, {{[0-9]+}} bytes of context per slot [-Rpass=memcoro]
void histogram(const uint32_t *key, uint32_t *cnt, long n) {
#pragma memcoro parallel(16) remote(key, cnt) insist
  for (long i = 0; i < n; i++)
    cnt[key[i]]++;
}

// CHECK: split-cursor-append.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: {{[^,]*}}, {{[a-z]+}} dispatch, {{[0-9]+}} bytes of context per slot [-Rpass=memcoro]
void own_counter(const uint32_t *key, uint32_t *cnt, uint32_t *out, long n) {
#pragma memcoro parallel(16) remote(key, out) insist
  for (long i = 0; i < n; i++)
    out[cnt[i]++] = key[i];
}

static inline uint32_t find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// CHECK: split-cursor-append.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: {{.*}} ring dispatch
void unite_all(uint32_t *parent, const uint32_t *eu, const uint32_t *ev, long m) {
#pragma memcoro parallel(16) remote(parent)
  for (long e = 0; e < m; e++) {
    uint32_t u = eu[e], v = ev[e];
    for (;;) {
      u = find(parent, u);
      v = find(parent, v);
      if (u == v)
        break;
      if (u < v) {
        uint32_t t = u;
        u = v;
        v = t;
      }
      if (__sync_bool_compare_and_swap(&parent[u], u, v))
        break;
    }
  }
}

// With the cost model, the scatter's one miss is the tuple's store, past the
// cursor's read where the iteration holds the turn: nothing is left to
// overlap, and the loop stays serial (a pipeline of no phase crashed).
// CHECK: split-cursor-append.c:[[# @LINE + 5]]:{{[0-9]+}}: remark: marked loop left serial: every access worth a suspension comes after the start of code that runs in iteration order
void scatter_cost_model(const tuple_t *in, tuple_t *out, uint32_t *dst, long n) {
#pragma memcoro parallel(16) remote(in, out)
  for (long i = 0; i < n; i++) {
    uint32_t idx = in[i].key & 4095;
    out[dst[idx]] = in[i];
    ++dst[idx];
  }
}
