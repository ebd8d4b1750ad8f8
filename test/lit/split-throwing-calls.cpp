// A C++ body whose calls may throw (operator new of a vector declared in it,
// std::sort's helpers, reserve's length_error on an exit path) interleaves:
// each such call's exception ends the program through a landing pad that
// calls std::terminate (split/TerminateOnThrow.cpp), and the remark says so.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O3 -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -fno-memcoro-adapt -O3 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <algorithm>
#include <cstdint>
#include <vector>

// CHECK: split-throwing-calls.cpp:[[# @LINE + 8]]:3: remark: loop turned into 8 interleaved coroutines{{.*}}; an exception thrown in it and not caught there terminates the program
// IR: landingpad { ptr, i32 }
// IR-NEXT: catch ptr null
// IR: call ptr @__cxa_begin_catch
// IR-NEXT: call void @_ZSt9terminatev()
//
void labels(const int64_t *off, const uint32_t *adj, const uint64_t *in, uint64_t *out, int64_t n) {
#pragma memcoro parallel(8)
  for (int64_t v = 0; v < n; ++v) {
    std::vector<uint64_t> seen;
    seen.reserve(off[v + 1] - off[v]);
    for (int64_t e = off[v]; e < off[v + 1]; ++e)
      seen.push_back(in[adj[e]]);
    std::sort(seen.begin(), seen.end());
    out[v] = seen.empty() ? in[v] : seen[seen.size() / 2];
  }
}
