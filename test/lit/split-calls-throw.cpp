// C++ calls that may throw keep a marked loop serial: the exception would
// leave the loop with later iterations half done. Declared noexcept, the same
// helper in another translation unit runs in place (issue 17, item 7a).
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cstdint>

std::int64_t may_throw(std::int64_t v);
std::int64_t cannot_throw(std::int64_t v) noexcept;

// CHECK: split-calls-throw.cpp:[[# @LINE + 4]]:{{[0-9]+}}: remark: marked loop left serial: call to 'may_throw(long)' may throw an exception, which would leave the loop with later iterations half done: declare the callee noexcept to interleave the loop
void throwing(std::int64_t *out, const std::int64_t *table, const std::uint32_t *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    out[i] = may_throw(table[idx[i]]);
}

// CHECK: split-calls-throw.cpp:[[# @LINE + 3]]:3: remark: loop turned into {{.*}}; the call to 'cannot_throw(long)' runs in place
void noexcept_helper(std::int64_t *out, const std::int64_t *table, const std::uint32_t *idx, long n) {
#pragma memcoro parallel(8)
  for (long i = 0; i < n; i++)
    out[i] = cannot_throw(table[idx[i]]);
}
