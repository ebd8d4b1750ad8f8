// memcoro-report on loops that are marked once per copy: a template's instantiations inlined into their caller are each reported with their own outcome; at -O0 every loop is reported serial with the reason; a directory without records is an error that says what to do.
// RUN: rm -rf %t && mkdir -p %t/O2 %t/O0 %t/none
// RUN: %memcoro-cxx -O2 -fsave-optimization-record -c %s -o %t/O2/a.o
// RUN: cd %S && memcoro-report %t/O2 | %FileCheck %s --check-prefix=O2
// RUN: %memcoro-cxx -O0 -fsave-optimization-record -foptimization-record-passes=memcoro -c %s -o %t/O0/a.o
// RUN: cd %S && memcoro-report %t/O0/a.opt.yaml | %FileCheck %s --check-prefix=O0
// RUN: not memcoro-report %t/none 2>&1 | %FileCheck %s --check-prefix=NONE
#include <stddef.h>
#include <stdint.h>

// Without -foptimization-record-passes the records hold every pass's remarks;
// only memcoro's count.
// O2: report-copies.cpp:[[# @LINE + 6]]: transformed, parallel(4), {{[a-z]+}} dispatch, 1 suspension point, {{[0-9]+}} bytes of context{{$}}
// O2-NEXT: report-copies.cpp:[[# @LINE + 5]]: transformed, parallel(8), {{[a-z]+}} dispatch, 1 suspension point, {{[0-9]+}} bytes of context{{$}}
// O0: report-copies.cpp:[[# @LINE + 4]]: serial, parallel(4), remote(d): memcoro transforms loops only when optimising (-O1 or higher)
// O0-NEXT: report-copies.cpp:[[# @LINE + 3]]: serial, parallel(8), remote(d): memcoro transforms loops only when optimising (-O1 or higher)
template <int N> uint64_t gather(const uint64_t *d, const uint32_t *ix, size_t n) {
  uint64_t s = 0;
#pragma memcoro parallel(N) remote(d)
  for (size_t i = 0; i < n; ++i)
    s += d[ix[i]];
  return s;
}

uint64_t both(const uint64_t *d, const uint32_t *ix, size_t n) {
  return gather<4>(d, ix, n) + gather<8>(d, ix, n);
}
// O2-NEXT: 2 marked loops: 2 transformed, 0 serial
// O0-NEXT: 2 marked loops: 0 transformed, 2 serial
// NONE: memcoro-report: error: no .opt.yaml files found: compile with -fsave-optimization-record
