// bst: a batch of lookups in a binary search tree, written the way a C++ code
// holding an index in a plain tree writes it: nodes allocated one by one and
// linked by random-order insertion, a lookup walking down from the root, and
// the batch an OpenMP loop over a std::vector of keys with a reduction of the
// hits and of the values found. The keys are 0, 3, 6, ... and the queries
// random, so the program checks itself: a query hits exactly when it is a
// multiple of 3, and the sum of the values found is known in closed form.
// One pragma line marks the lookup loop; nothing else is edited.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Node {
  uint64_t key;
  uint64_t value;
  Node *left = nullptr;
  Node *right = nullptr;
  Node(uint64_t k, uint64_t v) : key(k), value(v) {}
};

class Tree {
public:
  void insert(uint64_t key, uint64_t value) {
    Node **link = &root_;
    while (*link)
      link = key < (*link)->key ? &(*link)->left : &(*link)->right;
    *link = new Node(key, value);
  }
  const Node *find(uint64_t key) const {
    const Node *n = root_;
    while (n && n->key != key)
      n = key < n->key ? n->left : n->right;
    return n;
  }

private:
  Node *root_ = nullptr;
};

int main(int argc, char **argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1u << 22;
  uint64_t nq = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1u << 21;
  uint64_t s = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  std::vector<uint64_t> order(n);
  for (uint64_t i = 0; i < n; i++) order[i] = i;
  for (uint64_t i = n - 1; i > 0; i--) std::swap(order[i], order[next() % (i + 1)]);
  Tree tree;
  for (uint64_t i : order) tree.insert(3 * i, i * i + 1);
  std::vector<uint64_t> queries(nq);
  uint64_t expected_hits = 0, expected_sum = 0;
  for (auto &q : queries) {
    q = next() % (3 * n);
    if (q % 3 == 0) {
      expected_hits++;
      expected_sum += (q / 3) * (q / 3) + 1;
    }
  }

  uint64_t hits = 0, sum = 0;
  auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for reduction(+ : hits, sum)
#pragma memcoro
  for (size_t i = 0; i < queries.size(); i++) {
    if (const Node *found = tree.find(queries[i])) {
      hits++;
      sum += found->value;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bool ok = hits == expected_hits && sum == expected_sum;
  printf("kernel_seconds %.6f\n", seconds);
  printf("%llu keys, %llu lookups, %llu hits\n", (unsigned long long)n, (unsigned long long)nq,
         (unsigned long long)hits);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
