// mutex_append: a filter appends under a std::mutex (lock_guard: pthread_mutex_lock, run in place) to a std::vector local to the function, whose growth may throw and unwinds to cleanups that unlock. The vector's begin, end and capacity are kept in registers, and the store through its end is an append: it gets no suspension of its own (moved in front of the lock, it prefetched the end phi the lowering deletes: a dangling operand and a crash in the compiler), and, when the value appended is loaded beside it, it leaves that load's suspension. The vectors equal the serial loop's.
#include <mutex>
#include <vector>
#include "common.h"

static uint64_t digest(const std::vector<int> &v) {
  uint64_t h = v.size();
  for (int x : v) h = h * 1000003 + (unsigned)x;
  return h;
}

// The vectors do not escape (returned, they would be the caller's objects,
// their fields in memory): the functions return a digest of them.
__attribute__((noinline)) static uint64_t filter(long n, const int *ix, const int *w) {
  std::mutex m;
  std::vector<int> out;
#pragma memcoro parallel(N)
  for (long i = 0; i < n; i++) {
    int x = w[ix[i]];
    if (x < 100) {
      std::lock_guard<std::mutex> g(m);
      out.push_back(x);
    }
  }
  return digest(out);
}

// The value appended is read under the lock, in the block of the store
// through the vector's end.
__attribute__((noinline)) static uint64_t gather(long n, const int *ix, const int *w, const int *val, int mask) {
  std::mutex m;
  std::vector<int> out;
#pragma memcoro parallel(N)
  for (long i = 0; i < n; i++) {
    int x = w[ix[i]];
    if (x < 100) {
      m.lock();
      out.push_back(val[(x * 7919) & mask]);
      m.unlock();
    }
  }
  return digest(out);
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  const int table = 1 << 12;
  std::vector<int> w(table), val(table), ix(n + 1);
  for (int &x : w) x = (int)(diff_rand() % 300);
  for (int &x : val) x = (int)(diff_rand() % 1000);
  for (int &x : ix) x = (int)(diff_rand() % table);
  printf("%llx\n", (unsigned long long)filter(n, ix.data(), w.data()));
  printf("%llx\n", (unsigned long long)gather(n, ix.data(), w.data(), val.data(), table - 1));
  return 0;
}
