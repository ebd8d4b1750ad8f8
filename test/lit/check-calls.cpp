// Tests split/SplitCheck.cpp: a checking build warns where a call runs in
// place and may write memory the runtime never hears of; a call that only
// reads memory, does output (run in iteration order), allocates or frees (the
// runtime forgets freed bytes itself) is not named.
// RUN: %memcoro-cxx -O2 -fmemcoro-check -fno-memcoro-cost-model -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %memcoro-cxx -O2 -fno-memcoro-cost-model -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=PLAIN --allow-empty
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Store {
  const uint64_t *keys;
  size_t mask;
};
__attribute__((noinline)) bool Get(const Store &s, uint64_t key, uint64_t *value);
__attribute__((pure)) uint64_t Peek(const Store &s, uint64_t key);

uint64_t gets(const Store &s, size_t n, const uint64_t *q) {
  uint64_t total = 0, value = 0;
#pragma memcoro
  for (size_t i = 0; i < n; i++)
    if (Get(s, s.keys[q[i] & s.mask], &value))
      total += value;
  return total;
}
// CHECK: check-calls.cpp:[[@LINE-4]]:9: warning: -fmemcoro-check does not see the memory written inside the call to 'Get(Store const&, unsigned long, unsigned long*)', which runs in place in the interleaved loop: iterations that depend on each other through it are not reported
// PLAIN-NOT: warning

uint64_t peeks(const Store &s, size_t n, const uint64_t *q) {
  uint64_t total = 0;
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    uint64_t k = s.keys[q[i] & s.mask];
    total += Peek(s, k);
    if (k == 42)
      printf("found %zu\n", i);
  }
  return total;
}

uint64_t locals(const Store &s, size_t n, const uint64_t *q) {
  uint64_t total = 0;
#pragma memcoro
  for (size_t i = 0; i < n; i++) {
    std::vector<uint64_t> local;
    for (size_t j = 0; j < (q[i] & 3); j++)
      local.push_back(s.keys[(q[i] + j) & s.mask]);
    total += local.empty() ? 0 : local.back();
  }
  return total;
}
// CHECK-NOT: warning: -fmemcoro-check does not see
