// tree_ensemble: XGBoost-style prediction, each row walking every tree of a
// std::vector of trees to a leaf; the loop over the trees is unswitched on
// whether the ensemble is empty, so the marked loop has two copies, and both
// run (an ensemble of trees, then an empty one).
#include "common.h"
#include <cmath>
#include <vector>

struct Node {
  int feature; // -1 at a leaf
  float threshold;
  int left, right;
  float leaf;
};
struct Tree {
  std::vector<Node> nodes;
};

static void predict(const float *x, int n, int nfeat, const std::vector<Tree> &trees, float base, float *out) {
#pragma memcoro parallel(N)
  for (int r = 0; r < n; r++) {
    float sum = base;
    for (const Tree &tree : trees) {
      int nid = 0;
      while (tree.nodes[nid].feature >= 0) {
        float v = x[r * nfeat + tree.nodes[nid].feature];
        nid = std::isnan(v) || v < tree.nodes[nid].threshold ? tree.nodes[nid].left : tree.nodes[nid].right;
      }
      sum += tree.nodes[nid].leaf;
    }
    out[r] = sum;
  }
}

static void grow(Tree &tree, int nid, int depth) {
  if (depth == 0 || diff_rand() % 8 == 0) {
    tree.nodes[nid] = {-1, 0, 0, 0, (float)(diff_rand() % 1000) / 256};
    return;
  }
  int left = (int)tree.nodes.size();
  tree.nodes.resize(left + 2);
  tree.nodes[nid] = {(int)(diff_rand() % 8), (float)(diff_rand() % 1000) / 1000, left, left + 1, 0};
  grow(tree, left, depth - 1);
  grow(tree, left + 1, depth - 1);
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  const int nfeat = 8;
  std::vector<Tree> trees(20);
  for (Tree &tree : trees) {
    tree.nodes.resize(1);
    grow(tree, 0, 7);
  }
  std::vector<float> x(n * nfeat + 1), out(n + 1);
  for (float &v : x) v = diff_rand() % 16 == 0 ? NAN : (float)(diff_rand() % 1000) / 1000;
  predict(x.data(), n, nfeat, trees, 0.5f, out.data());
  double total = 0;
  for (int r = 0; r < n; r++) total += out[r] * (r % 7 + 1);
  printf("%.6f\n", total);
  std::vector<Tree> none;
  predict(x.data(), n, nfeat, none, 0.25f, out.data());
  total = 0;
  for (int r = 0; r < n; r++) total += out[r];
  printf("%.6f\n", total);
  return 0;
}
