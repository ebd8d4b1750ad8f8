// Tests exit tests on data the loop reads (issue 17, item 9): a work list and
// a zero-terminated key array evaluate the test, and what the next iteration
// starts from, at each launch (a cursor carries p->next), and a failed test
// limits launches; the body interleaves on the ring. A loop that may write
// what its test reads stays serial.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

struct work { long key; struct work *next; };

long walk(const struct work *p, const long *t) {
  long sum = 0;
#pragma memcoro parallel(8)
  for (; p; p = p->next)
    sum += t[p->key];
  return sum;
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:3: remark: loop does not adapt at run time: its exit test is evaluated at launch
// REMARK: split-exit-at-launch.c:[[@LINE-5]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{.*}}; exit test evaluated at launch, in iteration order (a serial chain): the rest of the body interleaves
// The launch reads p->next into the cursor and limits launches when it is
// null; p->key, in the same line, needs no suspension: only t[p->key] has one.
// CHECK-LABEL: define {{.*}} @walk(
// CHECK:       %[[CURSOR:.*cursor.0]] = phi ptr [ %[[NEXT:.*]], %memcoro.grow ],
// CHECK:       %next.launch = getelementptr inbounds i8, ptr %[[CURSOR]], i64 8
// CHECK-NEXT:  %[[NEXT]] = load ptr, ptr %next.launch
// CHECK:       %memcoro.limit.launch = select i1
// CHECK:       call void @llvm.prefetch
// CHECK-NOT:   call void @llvm.prefetch
// CHECK:       ret i64

long walk_while(const struct work *p, const long *t) {
  long sum = 0;
#pragma memcoro parallel(8)
  while (p) {
    sum += t[p->key];
    p = p->next;
  }
  return sum;
}
// REMARK: split-exit-at-launch.c:[[@LINE-6]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{.*}}; exit test evaluated at launch

unsigned long until_zero(const unsigned *key, const long *t) {
  unsigned long h = 0;
#pragma memcoro parallel(8)
  for (int i = 0; key[i] != 0; i++)
    h ^= (unsigned long)t[key[i] & 65535] * (i + 1);
  return h;
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}ring dispatch{{.*}}; exit test evaluated at launch

void relink(struct work *p, long *t) {
#pragma memcoro parallel(8)
  for (; p; p = p->next) {
    t[p->key] += 1;
    p->next = (struct work *)t[p->key + 1];
  }
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:15: remark: marked loop left serial: the exit test reads memory (at {{.*}}) that the loop may write: it cannot be evaluated at launch, before the body
