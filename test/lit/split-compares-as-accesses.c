// A small memcmp tested against zero (bcmp after LLVM) becomes loads of both
// sides (split/ComparesAsAccesses.cpp): the compared leaf is an access the
// iteration suspends at, where the call ran in place before. A memcmp whose
// sign is used stays a call, run in place.
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -g -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
#include <string.h>

typedef struct { uint64_t value; unsigned char key[8]; } leaf;

// CHECK: split-compares-as-accesses.c:[[# @LINE + 6]]:14: remark: suspension point: load prefetched
// CHECK: split-compares-as-accesses.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, {{[a-z]+}} dispatch, {{[0-9]+}} bytes of context per slot [-Rpass=memcoro]
void lookup(leaf *const *slot, const unsigned char (*keys)[8], const uint32_t *h, uint64_t *out, long n) {
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++) {
    const leaf *l = slot[h[i]];
    out[i] = memcmp(l->key, keys[i], 8) == 0 ? l->value : 0;
  }
}

// CHECK: split-compares-as-accesses.c:[[# @LINE + 3]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point{{.*}}the call to 'memcmp' runs in place
void order(leaf *const *slot, const unsigned char (*keys)[8], const uint32_t *h, int *out, long n) {
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++)
    out[i] = memcmp(slot[h[i]]->key, keys[i], 8) < 0;
}
