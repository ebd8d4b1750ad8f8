// Tests that remarks about an access the C++ standard library's code makes
// for the user (the start of `g[u]` that a range-for's begin() reads) point at
// the user's statement, not at the library's header it was inlined from.
// RUN: %memcoro-cxx -O2 -g -fno-memcoro-adapt -Rpass=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=/usr/
// RUN: %memcoro-cxx -O2 -g -fno-memcoro-adapt -Rpass=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
#include <vector>

// The load of each list's start, `g[u].begin()`, is the library's code.
long degree_sum(const std::vector<std::vector<int>> &g, const std::vector<int> &frontier) {
  long s = 0;
#pragma memcoro parallel(8)
  for (int u : frontier)
    for (int v : g[u])
      s += v;
  return s;
}
// CHECK: split-remark-library-lines.cpp:[[#@LINE-4]]:16: remark: suspension point: load prefetched

// A loop kept in its order (a hash carried from one iteration to the next)
// names the load it prefetches ahead by the user's line too.
unsigned long hash(const std::vector<std::vector<int>> &g, const std::vector<int> &frontier) {
  unsigned long h = 0;
#pragma memcoro parallel(8)
  for (int u : frontier)
    for (int v : g[u])
      h = h * 31 + v;
  return h;
}
// ORDER: remark: loop turned into a prefetching loop in serial order: prefetching the load at {{.*}}split-remark-library-lines.cpp:[[#@LINE-4]]:16 {{[0-9]+}} iterations ahead
