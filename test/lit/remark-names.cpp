// Remarks name what the user wrote: a file's static array by its name, not
// its mangled symbol ('_ZL5words[...]'), with and without debug info; a call
// through an object's vtable as a virtual function, not a function pointer.
// RUN: %memcoro-cxx -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %memcoro-cxx -O2 -g -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <cstddef>
#include <cstdint>

static uint64_t words[1 << 20];

void set_word(size_t i, uint64_t v) { words[i] = v; }

void shift_words(const uint32_t *idx, size_t n) {
#pragma memcoro
  for (size_t i = 0; i < n; ++i)
    words[i] = words[i + 1] + idx[i];
}
// CHECK: remark: marked loop {{.*}}: its iterations depend on each other through memory: the store to 'words[...]'

struct Scorer {
  virtual uint64_t score(uint64_t v) const;
};

uint64_t score_all(const Scorer *sc, const uint64_t *table, const uint32_t *idx, size_t n) {
  uint64_t s = 0;
#pragma memcoro
  for (size_t i = 0; i < n; ++i)
    s += sc->score(table[idx[i]]);
  return s;
}
// CHECK: remark: loop turned into {{.*}} interleaved coroutines {{.*}}the call to a virtual function runs in place
