// memcoro-nested-calls (issue 17, item 7b): a noinline lookup helper of this
// translation unit is resumed as a nested coroutine inside the marked loop
// (a private copy whose live values are saved in the iteration's slot, whose
// far accesses are suspension points); a recursive callee and one of another
// translation unit stay plain calls, with a remark. A callee of another
// translation unit is resumed through the descriptor its unit may have
// (test/lit/resumable-callee.c has that side).
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -fno-memcoro-adapt -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <stdint.h>

struct entry { int64_t key, value; struct entry *next; };
struct node { int64_t key; struct node *left, *right; };

__attribute__((noinline)) int64_t probe(struct entry *const *heads, uint64_t mask, int64_t key) {
  for (const struct entry *e = heads[((uint64_t)key * 0x9E3779B97F4A7C15ull >> 17) & mask]; e; e = e->next)
    if (e->key == key)
      return e->value;
  return -1;
}

__attribute__((noinline)) int64_t depth(const struct node *n, int64_t key) {
  if (!n)
    return -1;
  if (n->key == key)
    return 0;
  int64_t d = depth(key < n->key ? n->left : n->right, key);
  return d < 0 ? d : d + 1;
}

int64_t elsewhere(struct entry *const *heads, uint64_t mask, int64_t key);
struct entry *find_elsewhere(struct entry *const *heads, uint64_t mask, int64_t key);

// The helper keeps its definition for other callers; the loop has its own copy.
// IR: define {{.*}} @probe(
// IR-LABEL: define {{.*}} @sum(
// IR-NOT: call {{.*}} @probe(
// IR: call void @llvm.prefetch
// IR-LABEL: define {{.*}} @tree(

// The suspension points are the callee's accesses, at its lines.
// CHECK: nested-calls.c:[[# @LINE + 8]]:{{[0-9]+}}: remark: callee 'probe' copied into the marked loop, so that the iteration can suspend at its far accesses
// CHECK: nested-calls.c:16:{{[0-9]+}}: remark: suspension point: load
// CHECK: nested-calls.c:17:{{[0-9]+}}: remark: suspension point: load
// CHECK: nested-calls.c:[[# @LINE + 4]]:3: remark: loop turned into 16 interleaved coroutines: 2 suspension points, ring dispatch, {{[0-9]+}} bytes of context per slot; callee 'probe' resumed as a nested coroutine (its frame lives in the iteration's slot, its far accesses suspend it)
int64_t sum(struct entry *const *heads, uint64_t mask, const int64_t *keys, long n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++)
    s += probe(heads, mask, keys[i]);
  return s;
}

// CHECK: nested-calls.c:[[# @LINE + 6]]:{{[0-9]+}}: remark: callee 'depth' is recursive, so its frames have no bound: it runs in place, as a plain call, and its far accesses are not overlapped with other iterations
// CHECK: nested-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}; the call to 'depth' runs in place
int64_t tree(const struct node *root, const int64_t *keys, const int64_t *w, const unsigned *idx, long n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++)
    s += depth(root, keys[i]) * w[idx[i]];
  return s;
}

// A loop with far accesses of its own keeps a plain call to a callee of
// another unit: it interleaves anyway, and adapts at run time.
// CHECK: nested-calls.c:[[# @LINE + 6]]:{{[0-9]+}}: remark: callee 'elsewhere' is defined in another translation unit: it runs in place, as a plain call, and the iteration does not suspend inside it
// CHECK: nested-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}; the call to 'elsewhere' runs in place
int64_t other(struct entry *const *heads, uint64_t mask, const int64_t *keys, const int64_t *w, const unsigned *idx, long n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++)
    s += elsewhere(heads, mask, keys[i]) + w[idx[i]];
  return s;
}

// A lookup of another unit that returns the record it found is resumed even
// though the loop has far accesses of its own (it reads that record): the
// walk to the record is the iteration's misses (memcached's assoc_find).
// CHECK: nested-calls.c:[[# @LINE + 6]]:{{[0-9]+}}: remark: callee 'find_elsewhere' is defined in another translation unit: the iteration resumes its resumable version there
// CHECK: nested-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}callee 'find_elsewhere' of another translation unit resumed as a nested coroutine
int64_t found(struct entry *const *heads, uint64_t mask, const int64_t *keys, long n) {
  int64_t s = 0;
#pragma memcoro parallel(16)
  for (long i = 0; i < n; i++) {
    struct entry *e = find_elsewhere(heads, mask, keys[i]);
    s += e ? e->value : 0;
  }
  return s;
}
