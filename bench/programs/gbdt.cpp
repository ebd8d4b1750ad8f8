// gbdt: gradient-boosted tree ensemble inference, written the way XGBoost's
// CPU predictor writes it: each tree a std::vector of 20-byte nodes (children
// allocated as a pair, so the right child is the left one plus one, the split
// feature's index sharing its word with the default-direction bit, the split
// condition sharing its word with the leaf value), the ensemble a std::vector
// of trees, a dense feature matrix with missing values as NaN, and the
// prediction an OpenMP loop over the rows, each walking every tree from its
// root to a leaf and summing the leaves. The trees are grown depth-wise to
// depth 14 with early leaves, so that their deep levels miss the cache.
// Verified against a plain recursive walk of the same trees written with
// explicit comparisons, summed in the same tree order (the same float sum).
// One pragma line marks the loop over the rows; nothing else is edited.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace xgb {

class RegTree {
public:
  class Node {
  public:
    Node() = default;
    bool IsLeaf() const { return cleft_ == kInvalidNodeId; }
    int LeftChild() const { return cleft_; }
    int RightChild() const { return cright_; }
    int DefaultChild() const { return DefaultLeft() ? LeftChild() : RightChild(); }
    unsigned SplitIndex() const { return sindex_ & ((1U << 31) - 1U); }
    bool DefaultLeft() const { return (sindex_ >> 31) != 0; }
    float SplitCond() const { return info_.split_cond; }
    float LeafValue() const { return info_.leaf_value; }
    void SetLeaf(float value) {
      cleft_ = cright_ = kInvalidNodeId;
      sindex_ = 0;
      info_.leaf_value = value;
    }
    void SetSplit(unsigned split_index, float split_cond, bool default_left) {
      if (default_left) split_index |= (1U << 31);
      sindex_ = split_index;
      info_.split_cond = split_cond;
    }
    void SetChildren(int left, int right) {
      cleft_ = left;
      cright_ = right;
    }
    void SetParent(int parent) { parent_ = parent; }

  private:
    static constexpr int kInvalidNodeId = -1;
    int parent_ = kInvalidNodeId;
    int cleft_ = kInvalidNodeId;
    int cright_ = kInvalidNodeId;
    unsigned sindex_ = 0;
    union Info {
      float leaf_value;
      float split_cond;
    } info_{0.0f};
  };

  RegTree() : nodes_(1) {}
  const Node &operator[](int nid) const { return nodes_[nid]; }
  Node &operator[](int nid) { return nodes_[nid]; }
  int NumNodes() const { return static_cast<int>(nodes_.size()); }
  void ExpandNode(int nid, unsigned split_index, float split_cond, bool default_left) {
    int left = AllocNode(), right = AllocNode();
    nodes_[nid].SetChildren(left, right);
    nodes_[left].SetParent(nid);
    nodes_[right].SetParent(nid);
    nodes_[nid].SetSplit(split_index, split_cond, default_left);
  }
  // XGBoost's GetNext: the right child is allocated right after the left one.
  int GetNext(int pid, float fvalue, bool is_unknown) const {
    return is_unknown ? nodes_[pid].DefaultChild() : nodes_[pid].LeftChild() + !(fvalue < nodes_[pid].SplitCond());
  }

private:
  int AllocNode() {
    nodes_.emplace_back();
    return static_cast<int>(nodes_.size()) - 1;
  }
  std::vector<Node> nodes_;
};

struct GBTreeModel {
  float base_score = 0.5f;
  std::vector<RegTree> trees;
};

struct DMatrix {
  size_t num_row = 0, num_col = 0;
  std::vector<float> values; // row-major, NaN where missing
  const float *Row(size_t ridx) const { return values.data() + ridx * num_col; }
};

void PredictBatch(const DMatrix &dmat, const GBTreeModel &model, std::vector<float> *out_preds) {
  std::vector<float> &preds = *out_preds;
  const size_t nrows = dmat.num_row;
#pragma omp parallel for schedule(static)
#pragma memcoro
  for (size_t ridx = 0; ridx < nrows; ++ridx) {
    const float *feat = dmat.Row(ridx);
    float psum = model.base_score;
    for (const RegTree &tree : model.trees) {
      int nid = 0;
      while (!tree[nid].IsLeaf()) {
        float fvalue = feat[tree[nid].SplitIndex()];
        nid = tree.GetNext(nid, fvalue, std::isnan(fvalue));
      }
      psum += tree[nid].LeafValue();
    }
    preds[ridx] = psum;
  }
}

} // namespace xgb

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static float uniform() { return (next_rand() >> 40) * (1.0f / (1 << 24)); }

// Depth-wise growth as XGBoost's hist updater does it: each level's nodes are
// allocated together, after the level above.
static xgb::RegTree grow_tree(int max_depth, unsigned num_col) {
  xgb::RegTree tree;
  std::vector<int> level{0};
  for (int depth = 0; depth <= max_depth; depth++) {
    std::vector<int> next;
    for (int nid : level) {
      if (depth == max_depth || (depth > 2 && next_rand() % 16 == 0)) {
        tree[nid].SetLeaf((uniform() - 0.5f) * 0.1f);
        continue;
      }
      tree.ExpandNode(nid, next_rand() % num_col, uniform(), next_rand() & 1);
      next.push_back(tree[nid].LeftChild());
      next.push_back(tree[nid].RightChild());
    }
    level.swap(next);
  }
  return tree;
}

static float reference_leaf(const xgb::RegTree &tree, int nid, const float *feat) {
  const xgb::RegTree::Node &node = tree[nid];
  if (node.IsLeaf()) return node.LeafValue();
  float fvalue = feat[node.SplitIndex()];
  bool go_left = std::isnan(fvalue) ? node.DefaultLeft() : fvalue < node.SplitCond();
  return reference_leaf(tree, go_left ? node.LeftChild() : node.RightChild(), feat);
}

int main(int argc, char **argv) {
  size_t num_row = argc > 1 ? strtoull(argv[1], nullptr, 10) : 2048;
  size_t num_trees = argc > 2 ? strtoull(argv[2], nullptr, 10) : 192;
  int max_depth = argc > 3 ? atoi(argv[3]) : 14;
  const unsigned num_col = 64;

  xgb::GBTreeModel model;
  size_t num_nodes = 0;
  for (size_t t = 0; t < num_trees; t++) {
    model.trees.push_back(grow_tree(max_depth, num_col));
    num_nodes += model.trees.back().NumNodes();
  }
  xgb::DMatrix dmat;
  dmat.num_row = num_row;
  dmat.num_col = num_col;
  dmat.values.resize(num_row * num_col);
  for (float &v : dmat.values) v = next_rand() % 20 == 0 ? std::numeric_limits<float>::quiet_NaN() : uniform();

  std::vector<float> preds(num_row);
  auto t0 = std::chrono::steady_clock::now();
  xgb::PredictBatch(dmat, model, &preds);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  bool ok = true;
  double total = 0;
  for (size_t r = 0; r < num_row && ok; r++) {
    float expect = model.base_score;
    for (const xgb::RegTree &tree : model.trees) expect += reference_leaf(tree, 0, dmat.Row(r));
    ok = preds[r] == expect;
    total += preds[r];
  }
  printf("kernel_seconds %.6f\n", seconds);
  printf("%zu rows, %zu trees, %zu nodes (%.0f MiB), prediction sum %.4f\n", num_row, num_trees, num_nodes,
         num_nodes * sizeof(xgb::RegTree::Node) / 1048576.0, total);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
