// Under -fsanitize=undefined a C++ graph's checked accessor `out_neigh(u)` grows past the inliner's threshold, and a local with a destructor makes the loop invoke it: an unwind edge, an early exit. UBSan's handlers never unwind, and the accessor's only calls are to them, so it is marked nounwind (SanitizerHandlers.cpp), its call runs in place, and the loop interleaves as in the build without the sanitizer (issue 17, item 8).
// RUN: %memcoro-cxx -O2 -fsanitize=undefined -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cxx -O2 -fsanitize=undefined -fno-memcoro-cost-model -mllvm -debug-only=memcoro-sanitizer-handlers -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG
#include <cstdint>

class Neighborhood {
public:
  Neighborhood(int32_t *b, int32_t *e) : b_(b), e_(e) {}
  int32_t *begin() const { return b_; }
  int32_t *end() const { return e_; }

private:
  int32_t *b_, *e_;
};

class Graph {
public:
  Neighborhood out_neigh(int32_t n) const { return Neighborhood(neighs_ + index_[n], neighs_ + index_[n + 1]); }
  int64_t *index_;
  int32_t *neighs_;
};

struct Buffer {
  explicit Buffer(int64_t *c) : count(c) {}
  ~Buffer() { *count += 1; }
  int64_t *count;
};

int64_t step(const Graph &g, int32_t *parent, const int32_t *frontier, int64_t nf) {
  int64_t found = 0;
  Buffer buf(&found);
#pragma memcoro parallel(8)
  for (int64_t i = 0; i < nf; i++) {
    int32_t u = frontier[i];
    for (int32_t v : g.out_neigh(u))
      if (parent[v] < 0)
        parent[v] = u;
  }
  return found;
}
// CHECK-NOT: early exit
// CHECK: split-sanitizer-accessors.cpp:[[@LINE-9]]:3: remark: loop turned into 8 interleaved coroutines
// DEBUG: memcoro-sanitizer-handlers: _ZNK5Graph9out_neighEi unwinds through nothing but UBSan's handlers: nounwind
