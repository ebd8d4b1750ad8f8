// Tests that a match test on a just-fetched key, guarding a load of another field of the same object, becomes
// an unpredictable select (a cmov, not a branch) when accesses that run anyway reach that object on both sides
// of the field; and that the test stays a branch when the guarded field could lie past the object or is in
// another array.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass-analysis=memcoro -S -emit-llvm %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -mllvm -debug-only=memcoro-split -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
#include <stdint.h>

typedef struct {
  uint64_t key, payload;
  uint32_t next, pad[3];
} entry_t;

// payload (bytes 8-15) lies between key (0-7), read before the test, and next (16-19), read after it.
void probe(const entry_t *entries, const uint32_t *heads, unsigned shift, const uint64_t *keys, uint64_t n,
           uint64_t *out) {
  uint64_t matches = 0, sum = 0;
#pragma memcoro parallel(16) remote(entries, heads)
  for (uint64_t i = 0; i < n; i++) {
    uint64_t key = keys[i];
    for (uint32_t e = heads[(key * 0x9e3779b97f4a7c15ull) >> shift]; e != ~0u; e = entries[e].next)
      if (entries[e].key == key) {
        ++matches;
        sum += entries[e].payload;
      }
  }
  out[0] = matches;
  out[1] = sum;
}
// REMARK: split-branch-free-test.c:[[@LINE-8]]:11: remark: test on fetched data runs branch-free: 1 load of another field of the same object moved above it
// CHECK-LABEL: define {{.*}} @probe(
// CHECK: select i1 %{{.*}}, i64 %{{.*}}, i64 0, {{.*}}!unpredictable
// CHECK-LABEL: define {{.*}} @past_the_last_field(
// ASM-LABEL: probe:
// ASM: cmovne
// ASM-LABEL: .Lfunc_end0:

typedef struct {
  uint64_t key;
  uint32_t next, pad;
  uint64_t payload;
} short_entry_t;

// payload (bytes 16-23) is past everything read unconditionally (key, next: bytes 0-11): were the last entry
// allocated short, it would read past it.
void past_the_last_field(const short_entry_t *entries, const uint32_t *heads, const uint64_t *keys, uint64_t n,
                         uint64_t *out) {
  uint64_t sum = 0;
#pragma memcoro parallel(16) remote(entries, heads)
  for (uint64_t i = 0; i < n; i++)
    for (uint32_t e = heads[keys[i] & 1023]; e != ~0u; e = entries[e].next)
      if (entries[e].key == keys[i])
        sum += entries[e].payload;
  *out = sum;
}
// DEBUG: test {{.*}} stays a branch: the guarded {{.*}} is not proven to read the object the iteration reads anyway
// CHECK-NOT: !unpredictable
// CHECK-LABEL: define {{.*}} @other_array(

// vals[e] is another object than keys[e].
void other_array(const uint64_t *keys, const uint64_t *vals, const uint32_t *idx, const uint64_t *want, uint64_t n,
                 uint64_t *out) {
  uint64_t sum = 0;
#pragma memcoro parallel(16) remote(keys, vals)
  for (uint64_t i = 0; i < n; i++)
    if (keys[idx[i]] == want[i])
      sum += vals[idx[i]];
  *out = sum;
}
// DEBUG: test {{.*}} stays a branch: the guarded {{.*}} is not proven to read the object the iteration reads anyway
// CHECK-NOT: !unpredictable
// CHECK: ret void
// REMARK-NOT: runs branch-free
