// remote() names a container as users hold their big arrays: a std::vector
// (a local, a parameter, a member path, a member of the class whose member
// function is defined inside it, also one declared below that function,
// as private members are, a reference of a type that depends on a template's),
// or any class with operator[]. The marker reaches
// its elements through data() or &c[0]; a class with neither is still an
// error (issue 17, item 10).
// RUN: %memcoro-cxx -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --implicit-check-not="left serial"
// RUN: %memcoro-cxx -std=c++14 -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --implicit-check-not="left serial" --implicit-check-not=warning
// RUN: %memcoro-cxx -fno-memcoro -O2 -c %s -o /dev/null
// RUN: not %memcoro-cxx -fsyntax-only -DBAD %s 2>&1 | %FileCheck %s --check-prefix=BAD
#include <cstdint>
#include <vector>

struct Graph {
  std::vector<int64_t> parent;
};
struct Buffer {
  int64_t *p;
  int64_t &operator[](std::size_t i) { return p[i]; }
};
struct Table {
  std::vector<int64_t> data_;
  int64_t sum(const std::vector<uint32_t> &idx) const {
    int64_t s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(data_)
#pragma memcoro parallel(8) remote(data_)
    for (uint32_t i : idx) s += data_[i];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:5: remark: loop turned into 8 interleaved coroutines: 1 suspension point
    return s;
  }
};

int64_t local(std::vector<int64_t> &table, const std::vector<uint32_t> &idx) {
  int64_t s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(table)
#pragma memcoro parallel(8) remote(table)
  for (uint32_t i : idx) s += table[i];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point
  return s;
}

int64_t member(Graph &g, const std::vector<uint32_t> &idx) {
  int64_t s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(g.parent)
#pragma memcoro parallel(8) remote(g.parent)
  for (uint32_t i : idx) s += g.parent[i];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point
  return s;
}

int64_t subscript(Buffer b, const std::vector<uint32_t> &idx) {
  int64_t s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(b)
#pragma memcoro parallel(8) remote(b)
  for (uint32_t i : idx) s += b[i];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point
  return s;
}

// The member is declared after the function: the body is lexed while the
// class is parsed, and its elements' address is chosen when it is parsed.
class Later {
public:
  int64_t sum(const std::vector<uint32_t> &idx) const {
    int64_t s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(rows_, cells_)
#pragma memcoro parallel(8) remote(rows_, cells_)
    for (uint32_t i : idx) s += rows_[i] + cells_[i & 7];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:5: remark: loop turned into 8 interleaved coroutines
    return s;
  }

private:
  std::vector<int64_t> rows_;
  int64_t cells_[8];
};

// A parameter whose type depends on the template's (a std::vector<T> held
// by reference): the elements' address is chosen at instantiation. It was a
// hard error in both builds ("cannot convert 'std::vector<long>' to
// 'unsigned long'").
template <class T> T gather(const std::vector<T> &t, const std::vector<uint32_t> &idx) {
  T s = 0;
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE+1]]:1: remark: loop marked for coroutine interleaving: parallel(8), remote(t)
#pragma memcoro parallel(8) remote(t)
  for (std::size_t i = 0; i < idx.size(); ++i) s += t[idx[i]];
// CHECK-DAG: pragma-remote-container.cpp:[[@LINE-1]]:3: remark: loop turned into 8 interleaved coroutines: 1 suspension point
  return s;
}

int64_t use(Table &t, Later &l, const std::vector<uint32_t> &idx) {
  return t.sum(idx) + l.sum(idx) + gather<int64_t>(t.data_, idx);
}

#ifdef BAD
struct Opaque {
  int64_t x;
};
int64_t bad(Opaque o, int n) {
  int64_t s = 0;
// BAD: pragma-remote-container.cpp:[[@LINE+1]]:24: error: 'o' in 'remote()' is not a pointer or array: it has type 'Opaque'
#pragma memcoro remote(o)
  for (int i = 0; i < n; i++) s += o.x;
  return s;
}
#endif
