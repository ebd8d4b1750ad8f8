// Appends whose counter the optimiser keeps in a register (issue 17, items 11
// and 6/8): GAP's QueueBuffer with its flush inlined (the counter reset to 0
// when the full buffer is copied out), and a bump allocator's block pointer
// taken anew from malloc on a hash build's overflow path under a latch. From
// the first read on each path the iteration runs in iteration order; under a
// latch the turn is taken before the latch. A counter assigned before the
// iteration reads it stays a carried value.
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <algorithm>
#include <cstdint>
#include <cstdlib>

struct Queue {
  uint32_t *shared;
  std::size_t shared_in = 0;
};
struct QueueBuffer {
  std::size_t in = 0;
  std::size_t size;
  Queue &q;
  uint32_t *local;
  QueueBuffer(Queue &q, std::size_t size) : size(size), q(q), local(new uint32_t[size]) {}
  ~QueueBuffer() { delete[] local; }
  void push_back(uint32_t v) {
    if (in == size)
      flush();
    local[in++] = v;
  }
  void flush() {
    std::copy(local, local + in, q.shared + q.shared_in);
    q.shared_in += in;
    in = 0;
  }
};

void frontier(const uint32_t *idx, std::size_t n, const int64_t *table, Queue &q) {
  QueueBuffer lq(q, 64);
#pragma memcoro parallel(8)
  for (std::size_t i = 0; i < n; i++)
    if (table[idx[i]] < 0)
      lq.push_back(idx[i]);
  lq.flush();
}
// The copy goes where the queue says: in order from the read of its counter
// (the storage pointer beside it, which nothing in the loop writes, is no
// part of it).
// CHECK-DAG: split-register-append.cpp:30:47: remark: append through a counter in memory runs in iteration order
// CHECK-DAG: split-register-append.cpp:25:12: remark: append through a buffer whose counter is kept in a register: from this read of it to the iteration's end, values are appended in iteration order, the buffer's flush in place
// CHECK-DAG: split-register-append.cpp:[[@LINE-10]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, {{.*}} run in iteration order

struct Bucket {
  volatile char latch;
  uint32_t count;
  uint32_t keys[2];
  Bucket *next;
};
struct Block {
  Block *next;
  uint32_t count;
  Bucket buf[64];
};
static inline void lock(volatile char *l) {
  char old;
  do
    __asm__ __volatile__("xchgb %0,%1" : "=q"(old), "=m"(*l) : "0"((unsigned char)0xff), "m"(*l) : "memory");
  while (old);
}
static inline void unlock(volatile char *l) { *l = 0; }
static inline Bucket *get_new_bucket(Block **buf) {
  if ((*buf)->count < 64)
    return (*buf)->buf + (*buf)->count++;
  Block *fresh = (Block *)malloc(sizeof(Block));
  fresh->count = 1;
  fresh->next = *buf;
  *buf = fresh;
  return fresh->buf;
}
static void build(Bucket *table, uint32_t mask, const uint32_t *keys, std::size_t n, Block **overflow) {
#pragma memcoro parallel(8)
  for (std::size_t i = 0; i < n; i++) {
    Bucket *curr = table + ((keys[i] * 2654435761u) & mask);
    lock(&curr->latch);
    if (curr->count == 2) {
      Bucket *b = get_new_bucket(overflow);
      b->next = curr->next;
      curr->next = b;
      b->count = 1;
      b->keys[0] = keys[i];
    } else {
      curr->keys[curr->count++] = keys[i];
    }
    unlock(&curr->latch);
  }
}
// The block the caller owns is a local: once build is inlined, a register.
Block *build_all(Bucket *table, uint32_t mask, const uint32_t *keys, std::size_t n) {
  Block *overflow = (Block *)calloc(1, sizeof(Block));
  build(table, mask, keys, n, &overflow);
  return overflow;
}
// The turn is taken where the latch's spin loop starts.
// CHECK-DAG: split-register-append.cpp:64:3: remark: append through a buffer whose counter is kept in a register: from this read of it to the iteration's end, values are appended in iteration order
// CHECK-DAG: split-register-append.cpp:[[@LINE-23]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{.*}} run in iteration order; the call to inline asm runs in place

// Reset where the iteration has not read the counter: not an append.
std::size_t unread_reset(const uint32_t *idx, std::size_t n, const int64_t *table, uint32_t *out) {
  std::size_t m = 0;
#pragma memcoro parallel(8)
  for (std::size_t i = 0; i < n; i++) {
    if (table[idx[i]] < 0)
      m = 0;
    else
      out[m++] = idx[i];
  }
  return m;
}
// CHECK-DAG: split-register-append.cpp:[[@LINE-4]]:{{[0-9]+}}: remark: marked loop left serial: a value is carried from one iteration to the next
