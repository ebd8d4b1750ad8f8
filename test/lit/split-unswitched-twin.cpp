// Tests that a marked loop unswitched into two copies (here on whether the
// ensemble has any tree, as XGBoost-style prediction over a std::vector of
// trees gives it) reports the copy it interleaves and stays quiet about the
// copy without remote accesses, whichever of the two is processed first: the
// user wrote one loop, and it was transformed.
// RUN: %memcoro-cxx -fno-memcoro-adapt -O3 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="left serial"
#include <vector>
struct Node {
  int feature;
  float threshold;
  int left, right;
  float leaf;
};
struct Tree {
  std::vector<Node> nodes;
};

void predict(const float *x, long nrows, int nfeat, const std::vector<Tree> &trees, float base, float *out) {
#pragma memcoro
  for (long r = 0; r < nrows; r++) {
    float sum = base;
    for (const Tree &tree : trees) {
      int nid = 0;
      while (tree.nodes[nid].left >= 0)
        nid = x[r * nfeat + tree.nodes[nid].feature] < tree.nodes[nid].threshold ? tree.nodes[nid].left
                                                                                  : tree.nodes[nid].right;
      sum += tree.nodes[nid].leaf;
    }
    out[r] = sum;
  }
}
// CHECK: remark: loop turned into 32 interleaved coroutines (parallelism chosen by memcoro): {{.*}} ring dispatch
