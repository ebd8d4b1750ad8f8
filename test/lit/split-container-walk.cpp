// A library container's walk yields once per node it fetches: std::map::find
// reads the child pointer (its offset a select of 16 and 24) and, after the
// walk, the found node's key and value without a suspension of their own;
// unordered_map::find reads a node's next pointer and value without one,
// and the key's suspension prefetches the value's 16 bytes too (issue 17,
// item 10). Before, the map yielded twice per level and three times more,
// the hash table eight times per lookup.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -Rpass=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-adapt -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=IR
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

int64_t tree(const std::map<uint64_t, int64_t> &m, const std::vector<uint64_t> &keys) {
  int64_t sum = 0;
#pragma memcoro parallel(16)
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      sum += it->second;
// CHECK: split-container-walk.cpp:[[@LINE-3]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point, ring dispatch
  return sum;
}

int64_t hashed(const std::unordered_map<uint64_t, int64_t> &m, const std::vector<uint64_t> &keys) {
  int64_t sum = 0;
#pragma memcoro parallel(16)
  for (auto k : keys)
    if (auto it = m.find(k); it != m.end())
      sum += it->second;
// The bucket, the node before the bucket's first, the first node's key, the
// next node's key in the chain walk, and the key in the walk of a small table.
// CHECK: split-container-walk.cpp:[[@LINE-5]]:3: remark: loop turned into 16 interleaved coroutines: 5 suspension points, ring dispatch
  return sum;
}

// The bucket index (a division) is saved in the slot, not recomputed after
// every suspension of the chain walk: one urem where the iteration starts
// and one per node of the walk (the node's own bucket).
// IR-LABEL: define {{.*}}@_Z6hashed
// IR-COUNT-2: urem i64
// IR-NOT: urem i64
// IR: {{^}}}
