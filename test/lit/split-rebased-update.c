// Tests split/RebasedUpdates.cpp: an update read into a register, summed
// across a suspension and stored back is applied at its store to the
// location read again there, the chain started from the identity, so that
// no other iteration's update is lost in between. Not when another write of
// the loop may reach the location: the early read may then differ from the
// late one.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -fno-discard-value-names -Rpass=memcoro -S -emit-llvm %s -o - 2>&1 | FileCheck %s

struct node {
  struct node *next;
  unsigned v;
};

void chain_sums(unsigned *restrict h, const int *restrict key, struct node *const *restrict head, int n) {
#pragma memcoro
  for (int i = 0; i < n; ++i) {
    unsigned c = h[key[i]];
    for (struct node *p = head[i]; p; p = p->next)
      c += p->v;
    h[key[i]] = c;
  }
}
// CHECK: split-rebased-update.c:[[@LINE-7]]:3: remark: loop turned into
// CHECK-LABEL: define {{.*}} @chain_sums(
// CHECK:       %.at.store = load i32, ptr %[[BIN:[^,]+]], align 4
// CHECK-NEXT:  %memcoro.update = add i32 %.at.store,
// CHECK-NEXT:  store i32 %memcoro.update, ptr %[[BIN]]

void chain_sums_and_reset(unsigned *restrict h, const int *restrict key, const int *restrict other,
                          struct node *const *restrict head, int n) {
#pragma memcoro
  for (int i = 0; i < n; ++i) {
    unsigned c = h[key[i]];
    for (struct node *p = head[i]; p; p = p->next)
      c += p->v;
    h[key[i]] = c;
    h[other[i]] = 0;
  }
}
// CHECK-LABEL: define {{.*}} @chain_sums_and_reset(
// CHECK-NOT:   memcoro.update
// CHECK:       ret void
