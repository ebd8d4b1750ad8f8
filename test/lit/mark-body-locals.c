// A variable declared in a marked loop's body begins each iteration uninitialised; memcoro-mark stores zero, one of the values it may then hold, where its lifetime starts (BodyLocals.cpp), so that at -O1 (no jump threading) an out-parameter written only on a hit, `uint64_t value; if (get(key, &value)) sum += value;`, is no value carried from one iteration to the next (issue 17, item 4: lsm at -O1).
// RUN: %memcoro-cc -O1 -Rpass=memcoro -Rpass-missed=memcoro -fno-memcoro-cost-model -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O1 -S -emit-llvm -Xclang -disable-llvm-passes -fno-discard-value-names -c %s -o - | %opt -passes=memcoro-mark -S | FileCheck %s --check-prefix=IR
#include <stdint.h>

struct kv {
  uint64_t key, value;
};

static int get(const struct kv *t, uint64_t n, uint64_t key, uint64_t *value) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (t[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < n && t[lo].key == key) {
    *value = t[lo].value;
    return 1;
  }
  return 0;
}

uint64_t lookups(const struct kv *t, uint64_t n, const uint64_t *q, long nq, long *hits) {
  uint64_t sum = 0;
  long h = 0;
#pragma memcoro parallel(8)
  for (long i = 0; i < nq; i++) {
    uint64_t value;
    if (get(t, n, q[i], &value)) {
      h++;
      sum += value;
    }
  }
  *hits = h;
  return sum;
}
// CHECK-NOT: carried
// CHECK: mark-body-locals.c:[[@LINE-11]]:3: remark: loop turned into 8 interleaved coroutines
// IR-LABEL: define {{.*}}@lookups(
// IR: call void @llvm.lifetime.start.p0(i64 8, ptr %value)
// IR-NEXT: store i64 0, ptr %value, align 8
