// The callee's side of a nested coroutine across translation units (issue
// 17, item 7b): memcoro-resumable gives each external function with
// far-looking loads a resumable clone, laid out by LLVM's CoroSplit, and a
// descriptor { frame size, ramp } that marked loops of other units reference
// weakly; static, recursive and load-free functions get none. The program at
// the end runs a loop against the unit built both ways: with its descriptor
// (resumed) and without (-memcoro-resumable=0: the plain call); same answer.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -c %s -o %t.unit.o
// RUN: %memcoro-cc -O2 -mllvm -memcoro-resumable=0 -c %s -o %t.plain.o
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -DCALLER -Rpass=memcoro -c %s -o %t.caller.o 2>&1 | FileCheck %s --check-prefix=CALLER
// RUN: %memcoro-cc %t.caller.o %t.unit.o -o %t.resumed && %t.resumed > %t.resumed.out
// RUN: %memcoro-cc %t.caller.o %t.plain.o -o %t.plain && %t.plain > %t.plain.out
// RUN: diff %t.resumed.out %t.plain.out
// RUN: FileCheck %s --check-prefix=OUT < %t.resumed.out
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct entry {
  int64_t key, value;
  struct entry *next;
};

#ifndef CALLER
// CHECK: @__memcoro_resumable_v1.probe = constant { i64, ptr } { i64 {{[1-9][0-9]*}}, ptr @__memcoro_resumable.probe }
// CHECK-NOT: @__memcoro_resumable_v1.hash
// CHECK-NOT: @__memcoro_resumable_v1.count
// CHECK-NOT: @__memcoro_resumable_v1.hash_bytes
// CHECK: @__memcoro_resumable_v1.chain =
// CHECK-NOT: @__memcoro_resumable_v1.local
// CHECK: @__memcoro_resumable_v1.use_local =
// CHECK-NOT: @__memcoro_resumable_v1.count
int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key) {
  for (const struct entry *e = heads[(uint64_t)key * 0x9E3779B97F4A7C15ull >> 40 & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}
uint64_t hash(int64_t key) { return (uint64_t)key * 0x9E3779B97F4A7C15ull >> 40; }
// A hash over the key bytes the caller passes walks a stream the hardware
// prefetcher follows: nothing to suspend at, so no clone (memcached's hash).
uint32_t hash_bytes(const char *key, unsigned long length) {
  uint32_t h = 0;
  for (unsigned long i = 0; i < length; i++) {
    h += (unsigned char)key[i];
    h += h << 10;
    h ^= h >> 6;
  }
  return h;
}
// Recursion that stays recursive after the optimizer has no bounded frame;
// a chain walk it turns into a loop has (tail recursion elimination).
struct node { struct node *left, *right; };
int64_t count(const struct node *n) { return n ? 1 + count(n->left) + count(n->right) : 0; }
int64_t chain(struct entry *e, int64_t key) { return !e ? -1 : e->key == key ? 0 : 1 + chain(e->next, key); }
static int64_t local(struct entry *const *heads, int64_t key) { return heads[key & 7] ? heads[key & 7]->value : 0; }
int64_t use_local(struct entry *const *heads, int64_t key) { return local(heads, key); }

// The ramp stores the resume function, prefetches the bucket and returns the
// frame; the resume function suspends before each record, not each field.
// CHECK: define internal ptr @__memcoro_resumable.probe(ptr [[FRAME:%[0-9]+]], ptr
// CHECK: store ptr @__memcoro_resumable.probe.resume, ptr [[FRAME]]
// CHECK: call void @llvm.prefetch
// CHECK: ret ptr [[FRAME]]
// CHECK-LABEL: define internal fastcc void @__memcoro_resumable.probe.resume(
// CHECK: call void @llvm.prefetch
// CHECK-NOT: call void @llvm.prefetch
// CHECK: store ptr null
// CHECK-LABEL: define internal fastcc void @__memcoro_resumable.probe.destroy(
#else
int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key);

// CALLER: remark: loop turned into 8 interleaved coroutines: {{.*}}callee 'probe' of another translation unit resumed as a nested coroutine
int main(void) {
  enum { BUCKETS = 1 << 10, ENTRIES = 3000, KEYS = 5000 };
  struct entry **heads = calloc(BUCKETS, sizeof *heads);
  struct entry *pool = calloc(ENTRIES, sizeof *pool);
  for (int k = 0; k < ENTRIES; ++k) {
    pool[k] = (struct entry){.key = k * 3, .value = k % 97};
    uint64_t b = (uint64_t)pool[k].key * 0x9E3779B97F4A7C15ull >> 40 & (BUCKETS - 1);
    pool[k].next = heads[b];
    heads[b] = &pool[k];
  }
  int64_t sum = 0, hits = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < KEYS; ++i) {
    int64_t v = probe(heads, BUCKETS - 1, (int64_t)i * 2);
    sum += v;
    hits += v >= 0;
  }
  // OUT: 1500 68320
  printf("%lld %lld\n", (long long)hits, (long long)sum);
  return 0;
}
#endif
