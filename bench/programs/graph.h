// graph.h: the pieces of a GAP-style graph code that bfs.cpp and pr.cpp share,
// written the way such codes write them: a CSR graph whose neighbourhoods are
// ranges for range-for, a sliding queue with per-thread append buffers, and a
// uniform random graph generator (GAP's -u option).
#ifndef MEMCORO_PROGRAMS_GRAPH_H
#define MEMCORO_PROGRAMS_GRAPH_H
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

typedef int32_t NodeID;

template <typename T> class pvector {
public:
  explicit pvector(size_t n) : start_(new T[n]), end_(start_ + n) {}
  pvector(size_t n, T init) : pvector(n) { std::fill(start_, end_, init); }
  ~pvector() { delete[] start_; }
  pvector(const pvector &) = delete;
  pvector(pvector &&other) : start_(other.start_), end_(other.end_) { other.start_ = other.end_ = nullptr; }
  T &operator[](size_t n) { return start_[n]; }
  const T &operator[](size_t n) const { return start_[n]; }
  T *begin() { return start_; }
  T *end() { return end_; }
  size_t size() const { return end_ - start_; }
  void fill(T init) { std::fill(start_, end_, init); }

private:
  T *start_, *end_;
};

class CSRGraph {
public:
  class Neighborhood {
  public:
    Neighborhood(NodeID *b, NodeID *e) : b_(b), e_(e) {}
    NodeID *begin() const { return b_; }
    NodeID *end() const { return e_; }

  private:
    NodeID *b_, *e_;
  };

  CSRGraph(int64_t num_nodes, std::vector<std::pair<NodeID, NodeID>> &edges) : num_nodes_(num_nodes) {
    index_ = new int64_t[num_nodes + 1]();
    for (auto &e : edges) index_[e.first + 1]++;
    for (int64_t n = 0; n < num_nodes; n++) index_[n + 1] += index_[n];
    neighs_ = new NodeID[edges.size()];
    std::vector<int64_t> fill(index_, index_ + num_nodes);
    for (auto &e : edges) neighs_[fill[e.first]++] = e.second;
    num_edges_ = edges.size();
  }
  ~CSRGraph() {
    delete[] index_;
    delete[] neighs_;
  }
  int64_t num_nodes() const { return num_nodes_; }
  int64_t num_edges() const { return num_edges_; }
  int64_t out_degree(NodeID n) const { return index_[n + 1] - index_[n]; }
  Neighborhood out_neigh(NodeID n) const { return Neighborhood(neighs_ + index_[n], neighs_ + index_[n + 1]); }
  // Undirected: the in-neighbours are the out-neighbours.
  Neighborhood in_neigh(NodeID n) const { return out_neigh(n); }

private:
  int64_t num_nodes_, num_edges_;
  int64_t *index_;
  NodeID *neighs_;
};

template <typename T> class QueueBuffer;

template <typename T> class SlidingQueue {
public:
  explicit SlidingQueue(size_t shared_size) : shared(new T[shared_size]) { reset(); }
  ~SlidingQueue() { delete[] shared; }
  void push_back(T to_add) { shared[shared_in++] = to_add; }
  bool empty() const { return shared_out_start == shared_out_end; }
  void reset() { shared_out_start = shared_out_end = shared_in = 0; }
  void slide_window() {
    shared_out_start = shared_out_end;
    shared_out_end = shared_in;
  }
  typedef T *iterator;
  iterator begin() const { return shared + shared_out_start; }
  iterator end() const { return shared + shared_out_end; }
  size_t size() const { return end() - begin(); }

private:
  friend class QueueBuffer<T>;
  T *shared;
  size_t shared_in, shared_out_start, shared_out_end;
};

template <typename T> class QueueBuffer {
public:
  explicit QueueBuffer(SlidingQueue<T> &master, size_t given_size = 16384)
      : in(0), local_size(given_size), sq(master), local_queue(new T[given_size]) {}
  ~QueueBuffer() { delete[] local_queue; }
  void push_back(T to_add) {
    if (in == local_size)
      flush();
    local_queue[in++] = to_add;
  }
  // As GAP's: threads flush into the shared queue concurrently, each
  // claiming its slice with one atomic add.
  void flush() {
    T *shared_queue = sq.shared;
    size_t copy_start = __sync_fetch_and_add(&sq.shared_in, in);
    std::copy(local_queue, local_queue + in, shared_queue + copy_start);
    in = 0;
  }

private:
  size_t in;
  size_t local_size;
  SlidingQueue<T> &sq;
  T *local_queue;
};

// GAP's Bitmap: a plain bit set, with an atomic set for threads that share
// words (a vertex or an edge per bit: bfs's frontiers, bc's successor edges).
class Bitmap {
public:
  explicit Bitmap(size_t size) {
    uint64_t num_words = (size + kBitsPerWord - 1) / kBitsPerWord;
    start_ = new uint64_t[num_words];
    end_ = start_ + num_words;
  }
  ~Bitmap() { delete[] start_; }
  void reset() { std::fill(start_, end_, 0); }
  void set_bit(size_t pos) { start_[word_offset(pos)] |= (uint64_t)1l << bit_offset(pos); }
  void set_bit_atomic(size_t pos) {
    uint64_t old_val, new_val;
    do {
      old_val = start_[word_offset(pos)];
      new_val = old_val | (uint64_t)1l << bit_offset(pos);
    } while (!__sync_bool_compare_and_swap(&start_[word_offset(pos)], old_val, new_val));
  }
  bool get_bit(size_t pos) const { return (start_[word_offset(pos)] >> bit_offset(pos)) & 1l; }
  void swap(Bitmap &other) {
    std::swap(start_, other.start_);
    std::swap(end_, other.end_);
  }

private:
  uint64_t *start_, *end_;
  static const uint64_t kBitsPerWord = 64;
  static uint64_t word_offset(size_t n) { return n / kBitsPerWord; }
  static uint64_t bit_offset(size_t n) { return n & (kBitsPerWord - 1); }
};

// A uniform random undirected graph: 2^scale nodes, degree about 2*degree.
inline std::vector<std::pair<NodeID, NodeID>> uniform_edges(int scale, int degree, uint64_t seed) {
  int64_t n = int64_t(1) << scale;
  std::vector<std::pair<NodeID, NodeID>> edges;
  edges.reserve(2 * n * degree);
  uint64_t s = seed;
  auto next = [&] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (int64_t e = 0; e < n * degree; e++) {
    NodeID u = next() & (n - 1), v = next() & (n - 1);
    if (u == v)
      continue;
    edges.push_back({u, v});
    edges.push_back({v, u});
  }
  return edges;
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

#endif
