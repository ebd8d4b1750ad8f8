// Tests that memcoro-amu-far charges the synchronous far access once per
// line within a short straight-line window: a record's second field, the
// write-back of an update and the keys of a bucket read under a branch cost
// nothing more; another record or a call in between pay again;
// -memcoro-amu-far-lines=false pays for every access.
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes -fno-memcoro %s -o %t.ll
// RUN: %opt -passes='default<O2>' -memcoro-amu -S %t.ll | FileCheck %s --implicit-check-not='load i64, ptr addrspace(1)' --implicit-check-not='store i64 %{{.*}}, ptr addrspace(1)'
// RUN: %opt -passes='default<O2>' -memcoro-amu -memcoro-amu-far-lines=false -S %t.ll | FileCheck %s --check-prefix=EVERY
#include <stdint.h>
#include <memcoro/memcoro.h>

struct node {
  uint64_t next, value, pad[6];
};

uint64_t fields(const struct node __remote *n) { return n->value + n->next; }
// CHECK-LABEL: define {{.*}} @fields(
// CHECK: call void @memcoro_amu__cc_far_load(
// CHECK-NOT: call void @memcoro_amu__cc_far_load(
// CHECK: ret i64
// EVERY-LABEL: define {{.*}} @fields(
// EVERY-COUNT-2: call void @memcoro_amu__cc_far_load(

void update(uint64_t __remote *t, uint64_t i, uint64_t v) { t[i] ^= v; }
// CHECK-LABEL: define {{.*}} @update(
// CHECK: call void @memcoro_amu__cc_far_load(
// CHECK-NOT: call void @memcoro_amu__cc_far_store(
// CHECK: ret void
// EVERY-LABEL: define {{.*}} @update(
// EVERY: call void @memcoro_amu__cc_far_load(
// EVERY: call void @memcoro_amu__cc_far_store(

struct bucket {
  uint64_t key[4], value[4];
};
uint64_t probe(const struct bucket __remote *b, uint64_t key) {
  uint64_t found = 0;
  for (unsigned j = 0; j < 4; ++j)
    if (b->key[j] == key)
      found = b->value[j] + 1;
  return found;
}
// CHECK-LABEL: define {{.*}} @probe(
// CHECK: call void @memcoro_amu__cc_far_load(
// CHECK-NOT: call void @memcoro_amu__cc_far_load(
// CHECK: ret i64

uint64_t two(const struct node __remote *a, const struct node __remote *b) { return a->value + b->value; }
// CHECK-LABEL: define {{.*}} @two(
// CHECK-COUNT-2: call void @memcoro_amu__cc_far_load(

void opaque(void);
uint64_t across_call(const struct node __remote *n) {
  uint64_t v = n->value;
  opaque();
  return v + n->next;
}
// CHECK-LABEL: define {{.*}} @across_call(
// CHECK: call void @memcoro_amu__cc_far_load(
// CHECK: call void @opaque()
// CHECK: call void @memcoro_amu__cc_far_load(
