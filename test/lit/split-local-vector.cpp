// A std::vector local to the marked loop's function, filled by push_back
// (issue 17, item 11): after SROA its begin, end and capacity are header
// phis. begin and end are appends kept in a register, the capacity rides on
// their turn (a companion), the bound re-read after the growth path frees
// the old storage is the one the loop was entered with, and the loop
// interleaves; each lives in one shared scalar. A value carried
// for another reason stays serial, with a remark that names it and points at
// its statement.
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cxx -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -c %s -o /dev/null -mllvm -stats 2>&1 | %FileCheck %s --check-prefix=STATS
#include <cstdint>
#include <vector>

std::vector<std::size_t> filter(const std::vector<int64_t> &a, const std::vector<uint32_t> &ix) {
  std::vector<std::size_t> out;
#pragma memcoro parallel(8)
  for (std::size_t i = 0; i < ix.size(); ++i)
    if (a[ix[i]] % 3 == 0)
      out.push_back(i);
  return out;
}
// REMARK: remark: append through a buffer whose counter is kept in a register
// REMARK: split-local-vector.cpp:[[@LINE-6]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point, ring dispatch, {{.*}} run in iteration order; its bound, read through memory, evaluated once before the loop

// A running hash of what the iteration read: no append, no reduction.
uint64_t chain(const std::vector<int64_t> &a, const std::vector<uint32_t> &ix) {
  uint64_t h = 0;
#pragma memcoro parallel(8)
  for (std::size_t i = 0; i < ix.size(); ++i)
    h = h * 31 + (uint64_t)a[ix[i]];
  return h;
}
// REMARK: split-local-vector.cpp:[[@LINE-3]]:{{[0-9]+}}: remark: marked loop left serial: a value ('h') is carried from one iteration to the next

// The vector is the caller's return slot: begin is kept in a register (an
// append), end and capacity are promoted by LICM and stored back in the
// loop (companions); ix's begin and end are re-read after the delete.
// STATS-DAG: 2 NumFreedReloads
// STATS-DAG: 1 NumRegisterAppends
// STATS-DAG: 2 NumAppendCompanions
// STATS-DAG: 1 NumLoopsSplit
