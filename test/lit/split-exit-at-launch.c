// Tests exit tests on data the loop reads (issue 17, item 9): a work list and
// a zero-terminated key array evaluate the test, and what the next iteration
// starts from, at each launch (a cursor carries p->next), and a failed test
// limits launches; the body interleaves on the ring. A loop that may write
// what its test reads stays serial.
// RUN: %memcoro-cc -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ADAPT

struct work { long key; struct work *next; };

long walk(const struct work *p, const long *t) {
  long sum = 0;
#pragma memcoro parallel(8)
  for (; p; p = p->next)
    sum += t[p->key];
  return sum;
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:3: remark: loop adapts at run time: it runs a sample of 256 iterations serially
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
// Adapting, an execution within the budget runs as decided and spends what
// it ran afterwards (the trip count is known only then), measuring on from
// where it stopped when the walk goes on; the serial copy starts from the
// cursor, keeps its test besides the window's count, leaves p->next in the
// cursor and lowers the limit when the test fails. It tests the count once
// per block of 8 iterations (SerialBlocks.cpp): each copy of the block has
// only the walk's own test, and the copy as it was runs the last 1 to 8.
// ADAPT-LABEL: define {{.*}} @walk(
// ADAPT:       memcoro.adapt.begin:
// ADAPT-NEXT:  %memcoro.limit.0 = phi i64
// ADAPT-NEXT:  %[[CURSOR:.*cursor.0]] = phi ptr [ %p, %memcoro.adapt ]
// ADAPT:       %memcoro.adapt.from = phi i64 [ 0, %memcoro.adapt ], [ %memcoro.hi, %memcoro.adapt.spend ]
// ADAPT:       memcoro.adapt.spend:
// ADAPT:       call i64 @llvm.usub.sat.i64(i64 %memcoro.budget,
// ADAPT:       br i1 %{{.*}}, label %memcoro.adapt.begin, label %memcoro.adapt.more
// ADAPT:       memcoro.serial.count:
// ADAPT-NEXT:  %[[ATEND:.*]] = icmp eq i64 %[[KNEXT:.*]], %memcoro.hi
// ADAPT-NEXT:  br i1 %[[ATEND]], label %memcoro.serial.end, label %if.else.serial
// ADAPT:       memcoro.serial.end:
// ADAPT-NEXT:  %memcoro.serial.last = phi i64 [ %[[KNEXT]], %if.else.serial ], [ -1, %memcoro.serial.count ],
// ADAPT:       tail call i64 @llvm.umin.i64(i64 %memcoro.limit.1, i64 %memcoro.serial.last)
// ADAPT:       memcoro.serial.block:
// ADAPT:       %memcoro.serial.left = sub i64 %memcoro.hi, %memcoro.serial.k.block
// ADAPT-NEXT:  %[[MORE:.*]] = icmp ugt i64 %memcoro.serial.left, 8
// ADAPT-NEXT:  br i1 %[[MORE]], label %memcoro.serial.block.1, label %if.else.serial
// ADAPT:       memcoro.serial.block.1:
// ADAPT:       icmp eq ptr
// ADAPT-NOT:   %memcoro.hi
// ADAPT:       br i1 %{{.*}}, label %memcoro.serial.end{{.*}}, label %memcoro.serial.block.2
// ADAPT:       memcoro.serial.block.8:
// ADAPT-NOT:   %memcoro.hi
// ADAPT:       %[[K8:.*]] = add i64 %memcoro.serial.k.block, 8
// ADAPT-NEXT:  br i1 %{{.*}}, label %memcoro.serial.end, label %memcoro.serial.block, !llvm.loop
// ADAPT:       if.else.serial:
// ADAPT:       %p.addr.05.serial = phi ptr [ %[[NEXTS:.*]], %memcoro.serial.count ], [ %p.addr.05.serial.block, %memcoro.serial.block ]
// ADAPT:       %[[NEXTS]] = load ptr, ptr %next.serial
// ADAPT-NEXT:  %[[NULL:.*]] = icmp eq ptr %[[NEXTS]], null
// ADAPT-NEXT:  %[[KNEXT]] = add i64 %memcoro.serial.k, 1
// ADAPT-NEXT:  br i1 %[[NULL]], label %memcoro.serial.end, label %memcoro.serial.count

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

// The test at launch runs before the body of its own iteration: a store of the
// body that reaches what the test reads, in the same iteration, keeps the loop
// serial, however few bytes it overlaps (the latch of iteration i tests
// key[i + 1], which the body truncates; half of p->next). Earlier iterations'
// stores are the contract's (dependence analysis proves key[i + 2] one
// iteration apart), so the check is alias analysis of the exact locations:
// any bytes around the read would keep every walk that marks its own nodes
// serial.
unsigned long truncate_scan(unsigned *key, const long *t) {
  unsigned long h = 0;
#pragma memcoro parallel(8)
  for (int i = 0; key[i] != 0; i++) {
    long v = t[key[i] & 65535];
    h += v;
    if (v == 3)
      key[i + 1] = 0;
  }
  return h;
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:18: remark: marked loop left serial: the exit test reads memory (at {{.*}}) that the loop may write

long half_link(struct work *p, const long *t) {
  long sum = 0;
#pragma memcoro parallel(8)
  for (; p; p = p->next) {
    long v = t[p->key];
    sum += v;
    if (v == 3)
      ((int *)&p->next)[1] = 0;
  }
  return sum;
}
// REMARK: split-exit-at-launch.c:[[@LINE-4]]:28: remark: marked loop left serial: the exit test reads memory (at {{.*}}) that the loop may write

struct marked { long key; long seen; struct marked *next; };
long mark_walk(struct marked *p, const long *t) {
  long sum = 0;
#pragma memcoro parallel(8)
  for (; p; p = p->next) {
    sum += t[p->key];
    p->seen = 1;
  }
  return sum;
}
// REMARK: split-exit-at-launch.c:[[@LINE-6]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}; exit test evaluated at launch

// A bare list walk: the chain is the launch; nothing is left to overlap.
long sum_list(const struct work *p) {
  long s = 0;
#pragma memcoro
  while (p) {
    s += p->key;
    p = p->next;
  }
  return s;
}
// REMARK: split-exit-at-launch.c:[[@LINE-6]]:3: remark: marked loop left serial: every access worth a suspension is on the walk that finds the next iteration (`p = p->next`), which runs in iteration order, at launch: interleaving would overlap nothing
