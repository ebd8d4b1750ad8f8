// Appends through a buffer object (issue 17, item 11): a member counter read
// for the store's address and written back, a full buffer flushed by a call
// (a plain call, or an invoke when a destructor is pending), and
// std::vector::push_back into a vector held in memory. From the counter's
// first read on, the iteration runs in iteration order; the remark says so.
// RUN: %memcoro-cxx -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --implicit-check-not="left serial"
#include <cstdint>
#include <vector>

struct QueueBuffer {
  std::size_t in = 0;
  uint32_t *local;
  std::size_t size;
  __attribute__((noinline)) void flush();
  void push_back(uint32_t v) {
    if (in == size)
      flush();
    local[in++] = v;
  }
};

struct Guard {
  ~Guard();
};

void frontier(const std::vector<uint32_t> &idx, const int64_t *table, QueueBuffer &lq) {
#pragma memcoro parallel(8)
  for (uint32_t i : idx)
    if (table[i] < 0)
      lq.push_back(i);
}
// CHECK-DAG: split-buffer-append.cpp:16:9: remark: append through a counter in memory runs in iteration order, from this read of the counter to the iteration's end, a call on the way (a buffer's flush) in place
// CHECK-DAG: split-buffer-append.cpp:[[@LINE-5]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, {{.*}} 1 run in iteration order

void guarded(const std::vector<uint32_t> &idx, const int64_t *table, QueueBuffer &lq) {
  Guard g;
#pragma memcoro parallel(8)
  for (uint32_t i : idx)
    if (table[i] < 0)
      lq.push_back(i);
}
// CHECK-DAG: split-buffer-append.cpp:[[@LINE-4]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, {{.*}} 1 run in iteration order

void results(const std::vector<uint32_t> &idx, const int64_t *table, std::vector<int64_t> &out) {
#pragma memcoro parallel(8)
  for (uint32_t i : idx)
    if (table[i] % 3 == 0)
      out.push_back(table[i]);
}
// CHECK-DAG: stl_vector.h:{{[0-9]+}}:{{[0-9]+}}: remark: append through a counter in memory runs in iteration order
// CHECK-DAG: split-buffer-append.cpp:[[@LINE-5]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{.*}} 1 run in iteration order
