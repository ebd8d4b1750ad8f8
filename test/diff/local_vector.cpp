// local_vector: a std::vector local to the marked loop's function, filled by push_back / emplace_back (its begin, end and capacity in registers after SROA): a hash-join probe collecting pairs, a BFS next frontier, a filter with and without reserve(), vectors returned by value; the contents must equal the serial loop's (issue 17, item 11).
#include "common.h"
#include <utility>
#include <vector>

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

// A hash join's probe side: every probe key whose bucket holds it emits the
// (probe row, build row) pair.
__attribute__((noinline)) static uint64_t join(const std::vector<uint32_t> &keys, const std::vector<uint32_t> &bucket,
                                               const std::vector<uint32_t> &bkeys) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t mask = bucket.size() - 1;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < keys.size(); ++i) {
    uint32_t b = bucket[(keys[i] * 2654435761u) & mask];
    if (bkeys[b] == keys[i])
      out.push_back({(uint32_t)i, b});
  }
  uint64_t h = out.size();
  for (auto &p : out)
    h = mix(mix(h, p.first), p.second);
  return h;
}

// The same probe as a range-for, its pairs built in place and returned by
// value (the vector is the caller's return slot; the growth call may stay out
// of line).
__attribute__((noinline)) static std::vector<std::pair<uint32_t, uint32_t>>
join_pairs(const std::vector<uint32_t> &keys, const std::vector<uint32_t> &bucket, const std::vector<uint32_t> &bkeys) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t mask = bucket.size() - 1;
#pragma memcoro parallel(N)
  for (const uint32_t &k : keys) {
    uint32_t b = bucket[(k * 2654435761u) & mask];
    if (bkeys[b] == k)
      out.emplace_back((uint32_t)(&k - keys.data()), b);
  }
  return out;
}

// A BFS step: the unvisited neighbours of the frontier (first writer wins)
// go to the next frontier, returned by value (the vector is the caller's
// return slot, its fields kept in registers or stored back in the loop).
__attribute__((noinline)) static std::vector<uint32_t> frontier_step(const std::vector<uint32_t> &frontier,
                                                                     const uint32_t *adj, std::vector<int32_t> &parent) {
  std::vector<uint32_t> next;
  next.reserve(frontier.size() / 4);
#pragma memcoro parallel(N) remote(parent)
  for (size_t i = 0; i < frontier.size(); ++i) {
    uint32_t u = frontier[i];
    uint32_t v = adj[u];
    if (parent[v] < 0) {
      parent[v] = (int32_t)u;
      next.push_back(v);
    }
  }
  return next;
}

// A filter without reserve(), returned by value.
__attribute__((noinline)) static std::vector<uint32_t> positions(const std::vector<int64_t> &a,
                                                                 const std::vector<uint32_t> &ix) {
  std::vector<uint32_t> out;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < ix.size(); ++i)
    if (a[ix[i]] & 1)
      out.push_back((uint32_t)i);
  return out;
}

static uint64_t hash(const std::vector<uint32_t> &v) {
  uint64_t h = v.size();
  for (uint32_t x : v)
    h = mix(h, x);
  return h;
}

static bool pred(int64_t x) { return x % 3 == 0; }

// A filter: the positions whose gathered value passes, without reserve().
__attribute__((noinline)) static uint64_t filter(const std::vector<int64_t> &a, const std::vector<uint32_t> &ix) {
  std::vector<size_t> out;
#pragma memcoro parallel(N)
  for (size_t i = 0; i < ix.size(); ++i)
    if (pred(a[ix[i]]))
      out.push_back(i);
  uint64_t h = out.size();
  for (size_t o : out)
    h = mix(h, o);
  return h;
}

struct Hit {
  uint32_t row;
  int64_t value;
  Hit(uint32_t r, int64_t v) : row(r), value(v) {}
};

// The same with a reserve() and emplace_back of a record.
__attribute__((noinline)) static uint64_t filter_emplace(const std::vector<int64_t> &a, const std::vector<uint32_t> &ix) {
  std::vector<Hit> out;
  out.reserve(ix.size() / 8);
#pragma memcoro parallel(N)
  for (size_t i = 0; i < ix.size(); ++i) {
    int64_t v = a[ix[i]];
    if (v % 5 == 1)
      out.emplace_back((uint32_t)i, v);
  }
  uint64_t h = out.size();
  for (auto &o : out)
    h = mix(mix(h, o.row), (uint64_t)o.value);
  return h;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { V = 1 << 14 };
  std::vector<uint32_t> keys(n), bucket(V), bkeys(V);
  for (auto &b : bucket) b = diff_rand() % V;
  for (auto &k : bkeys) k = diff_rand() % 64;
  for (auto &k : keys) k = diff_rand() % 64;
  std::vector<uint32_t> frontier(n), adj(V);
  for (auto &f : frontier) f = diff_rand() % V;
  for (auto &a : adj) a = diff_rand() % V;
  std::vector<int32_t> parent(V, -1);
  std::vector<int64_t> table(V);
  for (auto &t : table) t = (int64_t)(diff_rand() % 1000000);
  std::vector<uint32_t> ix(n);
  for (auto &i : ix) i = diff_rand() % V;
  uint64_t hj = join(keys, bucket, bkeys);
  for (auto &p : join_pairs(keys, bucket, bkeys))
    hj = mix(mix(hj, p.first), p.second);
  uint64_t hf = hash(frontier_step(frontier, adj.data(), parent));
  uint64_t hp = 1;
  for (int32_t p : parent) hp = mix(hp, (uint64_t)p);
  uint64_t h1 = filter(table, ix);
  uint64_t h2 = filter_emplace(table, ix);
  uint64_t h3 = hash(positions(table, ix));
  printf("%llx %llx %llx %llx %llx %llx\n", (unsigned long long)hj, (unsigned long long)hf, (unsigned long long)hp,
         (unsigned long long)h1, (unsigned long long)h2, (unsigned long long)h3);
  return 0;
}
