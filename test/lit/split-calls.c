// Calls that may access memory and are not inlined run in place inside the
// phase that reaches them (issue 17, items 7a and 8); input/output runs in
// iteration order (an ordered region from the call on); the C library's
// hidden state and calls that may throw keep the loop serial; no iteration
// suspends while a lock it took may be held.
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

long hash_key(long key);             // another translation unit
void record(long *slot, long value); // another translation unit
long factor;
__attribute__((noinline)) long scale(long v) { return v * factor; }

// CHECK: split-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}; the calls to 'hash_key' and 'record' run in place, inside the iteration's phase, under the loop's contract
// IR-LABEL: define {{.*}} @other_tu(
void other_tu(const long *table, const long *keys, long *out, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    record(&out[i], table[hash_key(keys[i]) & 4095]);
}
// The calls stay where the iteration reaches them: hash_key before the
// prefetch of the slot it names, record after the resumed load.
// IR: call {{.*}} @hash_key(
// IR: call void @llvm.prefetch
// IR: call void @record(

// CHECK: split-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}; the calls to 'scale' and a function pointer run in place
long pointers(const long *table, const unsigned *idx, long (*f)(long), long n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    s += f(scale(table[idx[i]]));
  return s;
}

struct bucket { long count; long keys[3]; struct bucket *next; };

// calloc only when a bucket overflows (item 8). Iterations that may share a
// bucket need its lock, as threads would (build_locked, test/diff/calls_rare_path.c).
// CHECK: split-calls.c:[[# @LINE + 3]]:3: remark: loop turned into {{.*}}; the call to 'calloc' runs in place
void build(struct bucket *b, const long *keys, long n, long mask) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++) {
    struct bucket *t = &b[(keys[i] * 0x9E3779B97F4A7C15L >> 20) & mask];
    if (t->count == 3) {
      struct bucket *o = calloc(1, sizeof *o);
      o->next = t->next;
      t->next = o;
      t = o;
    }
    t->keys[t->count++] = keys[i];
  }
}

static inline void lock(long *l) {
  long one = 1;
  do
    __asm__ volatile("xchgq %0, %1" : "+r"(one), "+m"(*l) : : "memory");
  while (one);
}
static inline void unlock(long *l) { __asm__ volatile("movq $0, %0" : "=m"(*l) : : "memory"); }

struct latched { long latch; long count; long keys[6]; };

// The lock taken through inline asm on the bucket itself: the yield moves in
// front of it, and the bucket's fields after it share the prefetched line.
// IR-LABEL: define {{.*}} @build_locked(
// IR: call void @llvm.prefetch
// IR: asm sideeffect "xchgq
// IR: asm sideeffect "movq
// CHECK: split-calls.c:[[# @LINE + 3]]:3: remark: loop turned into {{.*}}; the call to inline asm runs in place
void build_locked(struct latched *b, const long *keys, long n, long mask) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++) {
    struct latched *t = &b[(keys[i] * 0x9E3779B97F4A7C15L >> 20) & mask];
    lock(&t->latch);
    if (t->count < 6)
      t->keys[t->count++] = keys[i];
    unlock(&t->latch);
  }
}

// The only far access lies behind the lock on another path: no place to yield.
// CHECK: split-calls.c:[[# @LINE + 5]]:{{[0-9]+}}: remark: marked loop left serial: every far access of the loop may run while the lock taken by the call to 'pthread_mutex_lock' is held
int pthread_mutex_lock(void *), pthread_mutex_unlock(void *);
void locked_elsewhere(long *table, const unsigned *idx, void *m, long n) {
#pragma memcoro parallel(8) remote(table)
  for (long i = 0; i < n; i++) {
    pthread_mutex_lock(m);
    if (idx[i] & 1)
      table[idx[i]] += 1;
    pthread_mutex_unlock(m);
  }
}

// The line printed at each iteration's end comes in iteration order (the
// pipeline's last phase); the load before it is still prefetched.
// IR-LABEL: define {{.*}} @prints(
// IR: call void @llvm.prefetch
// IR: call {{.*}} @printf
// CHECK: split-calls.c:[[# @LINE + 5]]:5: remark: call to 'printf' (input or output) runs in iteration order, from the call to the iteration's end
// CHECK: split-calls.c:[[# @LINE + 3]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, pipeline dispatch, {{.*}}, 1 run in iteration order [-Rpass=memcoro]
void prints(const long *table, const unsigned *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    printf("%ld\n", table[idx[i]]);
}

// CHECK: split-calls.c:[[# @LINE + 4]]:{{[0-9]+}}: remark: marked loop left serial: call to 'rand' uses hidden state of the C library
void draws(long *table, const unsigned *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    table[idx[i]] = table[i] + rand();
}

// CHECK: split-calls.c:[[# @LINE + 5]]:{{[0-9]+}}: remark: marked loop left serial: call to '_setjmp' returns twice
jmp_buf env;
void jumps(long *table, const unsigned *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    table[idx[i]] += setjmp(env);
}

// A loop whose far accesses are all inside a callee of another translation
// unit resumes it there (test/lit/resumable-callee.c); through a function
// pointer it cannot, and says so.
long lookup(const long *table, long key);
// CHECK: split-calls.c:[[# @LINE + 4]]:3: remark: loop turned into {{.*}}; callee 'lookup' of another translation unit resumed as a nested coroutine where that unit was built by memcoro-cc (a plain call otherwise)
long only_calls(const long *table, const long *keys, long n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    s += lookup(table, keys[i]);
  return s;
}

// CHECK: split-calls.c:[[# @LINE + 4]]:{{[0-9]+}}: remark: marked loop left serial: no access in the loop looks long-latency{{.*}}; memcoro does not suspend inside called functions, and the call to a function pointer runs in place
long only_pointer_calls(const long *table, const long *keys, long (*f)(const long *, long), long n) {
  long s = 0;
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    s += f(table, keys[i]);
  return s;
}
