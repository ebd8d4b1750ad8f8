// String-keyed lookups (issue 17, items 7 and 10): libstdc++'s
// unordered_map<string, T>::find and count, and map<string, T>::find, are
// linkonce_odr template instantiations the inliner leaves alone (the string
// hash, the chain walk and its memcmp). Each is copied into the marked loop
// as a nested coroutine, so the bucket and node loads are suspension points;
// the remark names the callee without its template arguments. A loop over
// keys[i] whose data pointer LLVM read again after the call (and handed to
// the next iteration) reads it at each iteration's start.
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -fopenmp -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMP
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

uint64_t codes(const std::unordered_map<std::string, uint32_t> &dict, const std::vector<std::string> &keys) {
  uint64_t hits = 0, sum = 0;
#pragma omp parallel for reduction(+ : hits, sum)
#pragma memcoro parallel(16)
  for (size_t i = 0; i < keys.size(); i++) {
    auto it = dict.find(keys[i]);
    if (it != dict.end()) {
      hits++;
      sum += it->second;
    }
  }
  return hits * 31 + sum;
}
// CHECK: remark: callee 'std::_Hashtable<...>::find' copied into the marked loop, so that the iteration can suspend at its far accesses
// CHECK: remark: a value read again after a call and handed to the next iteration (a vector's data pointer beside a lookup that is not inlined) is read by each iteration at its start
// CHECK: nested-calls-strings.cpp:21:3: remark: loop turned into 16 interleaved coroutines: {{[5-9]}} suspension points, ring dispatch{{.*}}callee 'std::_Hashtable<...>::find' resumed as a nested coroutine (its frame lives in the iteration's slot, its far accesses suspend it){{.*}}'bcmp'{{.*}}run in place
// OMP: nested-calls-strings.cpp:{{19:1|21:3}}: remark: loop turned into 16 interleaved coroutines: {{.*}}callee 'std::_Hashtable<...>::find' resumed as a nested coroutine

uint64_t counted(const std::unordered_map<std::string, uint32_t> &dict, const std::vector<std::string> &keys) {
  uint64_t n = 0;
#pragma memcoro parallel(8)
  for (const std::string &k : keys)
    n += dict.count(k);
  return n;
}
// CHECK: nested-calls-strings.cpp:[[@LINE-4]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}callee 'std::_Hashtable<...>::find' resumed as a nested coroutine

int64_t ordered(const std::map<std::string, int64_t> &m, const std::vector<std::string> &keys) {
  int64_t sum = 0;
#pragma memcoro parallel(8)
  for (const auto &k : keys)
    if (auto it = m.find(k); it != m.end())
      sum += it->second;
  return sum;
}
// CHECK: nested-calls-strings.cpp:[[@LINE-5]]:3: remark: loop turned into 8 interleaved coroutines: {{.*}}callee 'std::_Rb_tree<...>::find' resumed as a nested coroutine{{.*}}'memcmp' runs in place
// CHECK-NOT: left serial
